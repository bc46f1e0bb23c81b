/**
 * Paths the terminal cannot use are said in one clear line in the run's language, never as a raw errno
 * or SQLite code: a data dir under a regular file (ENOTDIR) for doctor, backup, config set and restore,
 * a database folder that is a file, and a database file that is not a database (left untouched, with
 * what to do). Run in-process on real data dirs.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/app.js';
import { cliInProcess } from '../helpers/cli-in-process.js';

/** A data dir path that runs through a regular file: <tmp>/afile/sub. */
function underAFile(): { file: string; dir: string } {
  const file = path.join(tempDir(), 'afile');
  writeFileSync(file, 'not a folder\n');
  return { file, dir: path.join(file, 'sub') };
}

const RAW = /ENOTDIR: not a directory|SQLITE_NOTADB: file is not a database|无法创建/;

describe('a data dir under a regular file', () => {
  it('doctor reports it as a finding, not a raw ENOTDIR', async () => {
    const { dir, file } = underAFile();
    const res = await cliInProcess(['--lang', 'en', '--data-dir', dir, 'doctor']);
    expect(res.stderr).not.toMatch(RAW);
    expect(res.code).toBe(1);
    expect(res.stdout).toContain(`problem  data dir  ${dir} cannot be used: ${file} is a file, not a folder`);
  });

  it('backup, config set and restore refuse it in one line, in the run’s language', async () => {
    const { dir, file } = underAFile();
    const backupFile = path.join(tempDir(), 'b.tar.gz');
    const good = tempDir();
    expect((await cliInProcess(['--data-dir', good, 'user', 'list'])).code).toBe(0);
    expect((await cliInProcess(['--data-dir', good, 'backup', backupFile])).code).toBe(0);
    for (const args of [
      ['backup', path.join(tempDir(), 'x.tar.gz')],
      ['config', 'set', 'pageSize', '20'],
      ['restore', backupFile],
    ]) {
      const en = await cliInProcess(['--lang', 'en', '--data-dir', dir, ...args]);
      expect(en.stderr, args.join(' ')).toBe(
        `kikoplay: cannot use ${file} (a part of the path is a file, not a folder). kikoplay must be able to read and write its data dir: fix the path or its owner (e.g. chown -R USER ${file}), or choose another data dir with --data-dir or KIKOPLAY_DATA_DIR\n`,
      );
      expect(en.code, args.join(' ')).toBe(1);
      const ja = await cliInProcess(['--lang', 'ja', '--data-dir', dir, ...args]);
      expect(ja.stderr, args.join(' ')).not.toMatch(RAW);
      expect(ja.stderr).toContain(file);
      expect(ja.code).toBe(1);
    }
    expect(readFileSync(file, 'utf8')).toBe('not a folder\n');
  });
});

describe('a database folder that is a file', () => {
  it('doctor reports the database folder as a problem', async () => {
    const dir = tempDir();
    const file = path.join(tempDir(), 'plain-file');
    writeFileSync(file, 'x');
    writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ dbUseDefaultPath: false, databaseFolderDir: file }));
    const res = await cliInProcess(['--lang', 'en', '--data-dir', dir, 'doctor']);
    expect(res.stderr).not.toMatch(RAW);
    expect(res.code).toBe(1);
    expect(res.stdout).toContain(`problem  database  ${path.join(file, 'kikoplay.db')} cannot be used: ${file} is a file, not a folder`);
  });
});

describe('a database file that is not a database', () => {
  it('is named with what to do, exit 1, and left untouched', async () => {
    const dir = tempDir();
    mkdirSync(dir, { recursive: true });
    const db = path.join(dir, 'kikoplay.db');
    const garbage = Buffer.alloc(8192, 0x5a);
    writeFileSync(db, garbage);
    for (const args of [
      ['user', 'list'],
      ['scan', '--offline'],
    ]) {
      const res = await cliInProcess(['--lang', 'en', '--data-dir', dir, ...args]);
      expect(res.stderr, args.join(' ')).toBe(
        `kikoplay: ${db} is not a usable kikoplay database (damaged, or not a database at all); it was left untouched. Run kikoplay doctor to check it, or kikoplay restore a backup into an empty data dir\n`,
      );
      expect(res.code).toBe(1);
    }
    const ja = await cliInProcess(['--lang', 'ja', '--data-dir', dir, 'user', 'list']);
    expect(ja.stderr).toContain(db);
    expect(ja.stderr).toContain('kikoplay doctor');
    expect(ja.stderr).not.toMatch(RAW);
    expect(readFileSync(db).equals(garbage)).toBe(true);
  });
});
