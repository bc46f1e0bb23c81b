/**
 * Start-up refusals said in words: a database written by a newer kikoplay (its migrations table names
 * migrations this build does not have) is refused before migrate() could roll them back, and left as it
 * was; a data dir this user cannot use is refused naming the path and what to do, never with a stack.
 */
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sqlite3 from 'sqlite3';
import { open } from 'sqlite';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/app.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { withoutWriteAccess } from '../helpers/unprivileged.js';
import { Database } from '../../server/db/connection.js';
import { DatabaseTooNewError } from '../../server/db/migration-level.js';

/** A migrated database with one more migration row, as a newer kikoplay would leave it. */
async function newerDatabase(): Promise<{ dataDir: string; file: string }> {
  const dataDir = tempDir('kikoplay-newer-');
  const file = path.join(dataDir, 'kikoplay.db');
  const db = await Database.open(file);
  await db.close();
  const raw = await open({ filename: file, driver: sqlite3.Database });
  await raw.exec('CREATE TABLE future_things (id INTEGER PRIMARY KEY, what TEXT)');
  await raw.run("INSERT INTO future_things (what) VALUES ('kept')");
  await raw.run(
    "INSERT INTO migrations (id, name, up, down) VALUES (999, 'future-things', 'CREATE TABLE future_things (id INTEGER PRIMARY KEY, what TEXT);', 'DROP TABLE future_things; DROP TABLE users;')",
  );
  await raw.close();
  return { dataDir, file };
}

async function tablesAndMigrations(file: string) {
  const raw = await open({ filename: file, driver: sqlite3.Database, mode: sqlite3.OPEN_READONLY });
  try {
    const tables = (await raw.all<{ name: string }[]>("SELECT name FROM sqlite_master WHERE type = 'table'")).map((r) => r.name);
    const migrations = (await raw.all<{ id: number }[]>('SELECT id FROM migrations ORDER BY id')).map((r) => r.id);
    const future = await raw.all('SELECT what FROM future_things');
    return { tables, migrations, future };
  } finally {
    await raw.close();
  }
}

describe('a database written by a newer kikoplay', () => {
  it('is refused before migrating and left untouched', async () => {
    const { file } = await newerDatabase();
    const before = await tablesAndMigrations(file);
    expect(before.migrations.at(-1)).toBe(999);
    const err = await Database.open(file).then(
      async (db) => {
        await db.close();
        return null;
      },
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DatabaseTooNewError);
    expect((err as DatabaseTooNewError).unknown).toEqual([{ id: 999, name: 'future-things' }]);
    const after = await tablesAndMigrations(file);
    expect(after).toEqual(before);
    expect(after.tables).toEqual(expect.arrayContaining(['users', 'future_things']));
  });

  it('the CLI says so in words and exits 1, in the language of the run', async () => {
    const { dataDir, file } = await newerDatabase();
    const before = await tablesAndMigrations(file);
    const en = await cliInProcess(['--data-dir', dataDir, 'user', 'list']);
    expect(en.code).toBe(1);
    expect(en.stderr).toBe(
      `kikoplay: ${file} was written by a newer kikoplay (its migrations 999-future-things are unknown to this version) and was left untouched. Run the newer kikoplay again, or restore a backup made with this version\n`,
    );
    const ja = await cliInProcess(['--lang', 'ja', '--data-dir', dataDir, 'serve', '--port', '0']);
    expect(ja.code).toBe(1);
    expect(ja.stderr).toContain('新しいバージョンの kikoplay');
    expect(await tablesAndMigrations(file)).toEqual(before);
  });
});

describe('a data dir this user cannot use', () => {
  it('under a regular file: refused naming the path, no stack trace', async () => {
    const base = tempDir('kikoplay-notdir-');
    writeFileSync(path.join(base, 'file'), 'x');
    const dataDir = path.join(base, 'file', 'data');
    const r = await cliInProcess(['--data-dir', dataDir, 'user', 'list']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^kikoplay: cannot use \S+ \(a part of the path is a file, not a folder\)\. kikoplay must be able to read and write its data dir/);
    expect(r.stderr).toContain(base);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('not writable by the user running kikoplay: refused naming it, nothing created', async () => {
    const dataDir = tempDir('kikoplay-ro-data-');
    mkdirSync(path.join(dataDir, 'keep'));
    chmodSync(dataDir, 0o700);
    const r = await withoutWriteAccess([dataDir], () => cliInProcess(['--data-dir', dataDir, 'user', 'list']));
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `kikoplay: cannot use ${dataDir} (permission denied). kikoplay must be able to read and write its data dir: fix the path or its owner (e.g. chown -R USER ${dataDir}), or choose another data dir with --data-dir or KIKOPLAY_DATA_DIR\n`,
    );
    expect(existsSync(path.join(dataDir, 'kikoplay.db'))).toBe(false);
  });

  it('in zh-CN', async () => {
    const base = tempDir('kikoplay-notdir-');
    writeFileSync(path.join(base, 'file'), 'x');
    const r = await cliInProcess(['--lang', 'zh-CN', '--data-dir', path.join(base, 'file'), 'user', 'list']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('无法使用');
  });
});
