/**
 * Errors of the scanner, the kikoeru import and folder creation are said in the run's language: no
 * Chinese in English or Japanese output (zh-CN keeps the Chinese). Run in-process on real data dirs.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/app.js';
import { cliInProcess } from '../helpers/cli-in-process.js';

const CHINESE = /[\u4e00-\u9fff]/;

function dataDirWithRoot(rootPath: string): string {
  const dir = tempDir();
  writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ rootFolders: [{ name: 'lib', path: rootPath }] }));
  return dir;
}

describe('errors in the run’s language', () => {
  it('scan --work of a work not in the database', async () => {
    const dir = dataDirWithRoot(tempDir());
    const en = await cliInProcess(['--lang', 'en', '--data-dir', dir, 'scan', '--work', 'RJ123456', '--offline']);
    expect(en.code).toBe(2);
    expect(en.stdout + en.stderr).toContain('work RJ123456 is not in the database');
    expect(en.stdout + en.stderr).not.toMatch(CHINESE);
    const ja = await cliInProcess(['--lang', 'ja', '--data-dir', dir, 'scan', '--work', 'RJ123456', '--offline']);
    expect(ja.stdout + ja.stderr).toContain('RJ123456');
    expect(ja.stdout + ja.stderr).not.toMatch(/不在数据库中/);
    const zh = await cliInProcess(['--lang', 'zh-CN', '--data-dir', dir, 'scan', '--work', 'RJ123456', '--offline']);
    expect(zh.stdout + zh.stderr).toContain('作品 RJ123456 不在数据库中');
  });

  it('a root folder that is missing or a file', async () => {
    const gone = path.join(tempDir(), 'not-there');
    const file = path.join(tempDir(), 'a-file');
    writeFileSync(file, 'x');
    for (const [root, said] of [
      [gone, 'does not exist'],
      [file, 'is not a folder'],
    ]) {
      const dir = dataDirWithRoot(root);
      const en = await cliInProcess(['--lang', 'en', '--data-dir', dir, 'scan', '--offline']);
      expect(en.code).toBe(1);
      expect(en.stdout + en.stderr).toContain(`Root folder "lib" (${root}) ${said}`);
      expect(en.stdout + en.stderr).not.toMatch(CHINESE);
      const ja = await cliInProcess(['--lang', 'ja', '--data-dir', dir, 'scan', '--offline']);
      expect(ja.stdout + ja.stderr).not.toMatch(/文件夹不存在|不是文件夹/);
    }
  });

  it('import kikoeru of a path that cannot be read or is a folder', async () => {
    const dir = tempDir();
    const folder = tempDir();
    mkdirSync(folder, { recursive: true });
    const missing = path.join(tempDir(), 'db.sqlite');
    const a = await cliInProcess(['--lang', 'en', '--data-dir', dir, 'import', 'kikoeru', '--db', missing]);
    expect(a.stderr).toBe(`kikoplay: cannot read ${missing}: does not exist\n`);
    expect(a.code).toBe(2);
    const b = await cliInProcess(['--lang', 'en', '--data-dir', dir, 'import', 'kikoeru', '--db', folder]);
    expect(b.stderr).toBe(`kikoplay: cannot read ${folder}: it is not a file\n`);
    const ja = await cliInProcess(['--lang', 'ja', '--data-dir', dir, 'import', 'kikoeru', '--db', folder]);
    expect(ja.stderr).not.toMatch(/无法读取|不是文件/);
    expect(ja.stderr).toContain(folder);
  });

  it('a folder that cannot be made', async () => {
    const dir = tempDir();
    expect((await cliInProcess(['--data-dir', dir, 'user', 'list'])).code).toBe(0);
    const file = path.join(tempDir(), 'afile');
    writeFileSync(file, 'x');
    const ja = await cliInProcess(['--lang', 'ja', '--data-dir', dir, 'backup', path.join(file, 'b.tar.gz')]);
    expect(ja.code).toBe(1);
    expect(ja.stderr).toBe(`kikoplay: ${file} の下にフォルダを作れません: フォルダではなくファイルです（移動するか、別のパスを指定してください）\n`);
  });
});
