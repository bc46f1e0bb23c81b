/**
 * Issue 22 item 8: `kikoplay config set rootFolders …` refuses a relative path with a clear message in
 * the run's language, a non-zero exit and config.json untouched; a folder that does not exist (yet) is
 * saved with one warning on stderr. Run in-process on real data dirs.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { tempDir } from '../helpers/app.js';

const configFile = (dir: string) => path.join(dir, 'config.json');
const stored = (dir: string) => JSON.parse(readFileSync(configFile(dir), 'utf8')) as Record<string, unknown>;

describe('kikoplay config set rootFolders', () => {
  it('refuses a relative path in every language: exit 1, the rule said, config.json unchanged', async () => {
    const dir = tempDir();
    const lib = tempDir();
    expect((await cliInProcess(['--lang', 'en', '--data-dir', dir, 'config', 'set', 'rootFolders', JSON.stringify([{ name: 'lib', path: lib }])])).code).toBe(0);
    const before = readFileSync(configFile(dir), 'utf8');
    const said = {
      en: 'rootFolders.1.path "music/voice": The folder path must be absolute. (config.json unchanged)',
      ja: 'rootFolders.1.path「music/voice」: フォルダーのパスは絶対パスで指定してください。（config.json は変更していません）',
      'zh-CN': 'rootFolders.1.path「music/voice」: 文件夹路径必须是绝对路径（config.json 未改动）',
    };
    for (const [lang, text] of Object.entries(said)) {
      const value = JSON.stringify([
        { name: 'lib', path: lib },
        { name: 'more', path: 'music/voice' },
      ]);
      const res = await cliInProcess(['--lang', lang, '--data-dir', dir, 'config', 'set', 'rootFolders', value]);
      expect(res.code).toBe(1);
      expect(res.stderr).toBe(`kikoplay: ${text}\n`);
      expect(res.stdout).toBe('');
      expect(readFileSync(configFile(dir), 'utf8')).toBe(before);
    }
  });

  it('refuses a relative path into an empty data dir without writing a config.json', async () => {
    const dir = tempDir();
    const res = await cliInProcess(['--lang', 'en', '--data-dir', dir, 'config', 'set', 'rootFolders', '[{"name":"lib","path":"./voice"}]']);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('The folder path must be absolute.');
    expect(existsSync(configFile(dir))).toBe(false);
  });

  it('saves a folder that does not exist yet and warns once on stderr', async () => {
    const dir = tempDir();
    const absent = path.join(tempDir(), 'not-mounted-yet');
    const res = await cliInProcess(['--lang', 'en', '--data-dir', dir, 'config', 'set', 'rootFolders', JSON.stringify([{ name: 'later', path: absent }])]);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(`rootFolders = ${JSON.stringify([{ name: 'later', path: absent }])}\n`);
    expect(res.stderr).toBe(`kikoplay: warning: rootFolders.0.path: ${absent} does not exist (yet); saved anyway, scans cannot read it until it is there\n`);
    expect(stored(dir).rootFolders).toEqual([{ name: 'later', path: absent }]);

    // in Japanese too; a folder configured before is not warned about again
    const lib = tempDir();
    const ja = await cliInProcess([
      '--lang',
      'ja',
      '--data-dir',
      dir,
      'config',
      'set',
      'rootFolders',
      JSON.stringify([
        { name: 'later', path: absent },
        { name: 'lib', path: lib },
      ]),
    ]);
    expect(ja.code).toBe(0);
    expect(ja.stderr).toBe('');
    const other = path.join(tempDir(), 'also-absent');
    const ja2 = await cliInProcess(['--lang', 'ja', '--data-dir', dir, 'config', 'set', 'rootFolders', JSON.stringify([{ name: 'other', path: other }])]);
    expect(ja2.code).toBe(0);
    expect(ja2.stderr).toBe(`kikoplay: 警告: rootFolders.0.path: ${other} は（まだ）存在しません。保存はしました。フォルダーができるまでスキャンでは読み込めません\n`);
    expect(stored(dir).rootFolders).toEqual([{ name: 'other', path: other }]);
  });

  it('still refuses a path that is a file, and a folder inside another', async () => {
    const dir = tempDir();
    const lib = tempDir();
    const file = path.join(lib, 'a-file.txt');
    writeFileSync(file, 'x');
    const notDir = await cliInProcess(['--lang', 'en', '--data-dir', dir, 'config', 'set', 'rootFolders', JSON.stringify([{ name: 'lib', path: file }])]);
    expect(notDir.code).toBe(1);
    expect(notDir.stderr).toContain('(config.json unchanged)');
    const nested = await cliInProcess([
      '--lang',
      'en',
      '--data-dir',
      dir,
      'config',
      'set',
      'rootFolders',
      JSON.stringify([
        { name: 'lib', path: lib },
        { name: 'inner', path: path.join(lib, 'inner') },
      ]),
    ]);
    expect(nested.code).toBe(1);
    expect(nested.stderr).toContain('rootFolders.1.path');
    expect(existsSync(configFile(dir))).toBe(false);
  });
});
