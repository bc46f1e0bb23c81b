/**
 * `kikoplay config` repairs what `doctor` diagnoses: a change is checked on its own key and allowed while
 * other keys stay broken (said in a warning); a broken or unknown stored key can be set or unset; a file
 * that is not JSON is refused with the way out (`config reset`, which keeps the file as a .bak). An
 * unreadable data dir or config.json is a clear error, never the defaults. Folder settings are checked
 * on the disk. Run in-process on real data dirs.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/app.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { asOtherUser } from '../helpers/unprivileged.js';

const configFile = (dir: string) => path.join(dir, 'config.json');
const stored = (dir: string) => JSON.parse(readFileSync(configFile(dir), 'utf8')) as Record<string, unknown>;
const withConfig = (text: string) => {
  const dir = tempDir();
  writeFileSync(configFile(dir), text);
  return dir;
};
const cli = (dir: string, ...args: string[]) => cliInProcess(['--lang', 'en', '--data-dir', dir, ...args]);

describe('config set / unset with other keys broken', () => {
  it('fixes two broken keys one after the other, warning about the one left', async () => {
    const dir = withConfig('{"listenPort":"abc","pageSize":-3}');
    const first = await cli(dir, 'config', 'set', 'pageSize', '20');
    expect(first.stdout).toBe('pageSize = 20\n');
    expect(first.stderr).toBe('kikoplay: warning: config.json is still invalid: listenPort: Invalid input: expected number, received string (fix it with kikoplay config set / unset)\n');
    expect(first.code).toBe(0);
    expect(stored(dir)).toEqual({ listenPort: 'abc', pageSize: 20 });
    const second = await cli(dir, 'config', 'set', 'listenPort', '9000');
    expect(second).toEqual({ code: 0, stdout: 'listenPort = 9000\n', stderr: '' });
    expect(stored(dir)).toEqual({ listenPort: 9000, pageSize: 20 });
    expect((await cli(dir, 'config', 'validate')).code).toBe(0);
  });

  it('still refuses a bad value of the key being set, and leaves the file as it was', async () => {
    const dir = withConfig('{"listenPort":"abc"}');
    const res = await cli(dir, 'config', 'set', 'pageSize', '-1');
    expect(res.code).toBe(1);
    expect(res.stderr).toBe('kikoplay: pageSize: Too small: expected number to be >=1 (config.json unchanged)\n');
    expect(readFileSync(configFile(dir), 'utf8')).toBe('{"listenPort":"abc"}');
  });

  it('unsets a broken key, and an unknown key present in the file', async () => {
    const dir = withConfig('{"bogus":1,"pageSize":-3}');
    const set = await cli(dir, 'config', 'set', 'expiresIn', '3600');
    expect(set.code).toBe(0);
    expect(set.stderr).toContain('warning: config.json is still invalid: unknown config key(s): bogus; pageSize:');
    expect((await cli(dir, 'config', 'unset', 'pageSize')).code).toBe(0);
    const unset = await cli(dir, 'config', 'unset', 'bogus');
    expect(unset).toEqual({ code: 0, stdout: 'bogus removed from config.json\n', stderr: '' });
    expect(stored(dir)).toEqual({ expiresIn: 3600 });
    // an unknown key that is not in the file is still a typo
    const typo = await cli(dir, 'config', 'unset', 'bogus');
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain('unknown config key "bogus"');
  });
});

describe('a config.json that is not JSON', () => {
  it('refuses set / unset with the way out, and config reset keeps the file aside', async () => {
    const dir = withConfig('{ nope');
    for (const args of [
      ['set', 'pageSize', '20'],
      ['unset', 'pageSize'],
    ]) {
      const res = await cli(dir, 'config', ...args);
      expect(res.code).toBe(1);
      expect(res.stderr).toMatch(
        /^kikoplay: .*config\.json is not valid JSON: .* \(config\.json unchanged\)\. Fix it in an editor, or run kikoplay config reset to move it aside and start from the defaults\n$/,
      );
    }
    const reset = await cli(dir, 'config', 'reset');
    expect(reset.code).toBe(0);
    const backups = readdirSync(dir).filter((n) => n.startsWith('config.json.bak-'));
    expect(backups).toHaveLength(1);
    expect(reset.stdout).toBe(`config.json moved to ${path.join(dir, backups[0])}; the defaults apply\n`);
    expect(readFileSync(path.join(dir, backups[0]), 'utf8')).toBe('{ nope');
    expect(existsSync(configFile(dir))).toBe(false);
    expect((await cli(dir, 'config', 'set', 'pageSize', '20')).code).toBe(0);
    expect(stored(dir)).toEqual({ pageSize: 20 });
    // nothing to reset
    expect(await cli(tempDir(), 'config', 'reset')).toEqual({ code: 0, stdout: 'no config.json: the defaults apply already\n', stderr: '' });
  });

  it('an empty config.json holds nothing to lose: set writes it', async () => {
    const dir = withConfig('');
    const res = await cli(dir, 'config', 'set', 'pageSize', '20');
    expect(res.code).toBe(0);
    expect(stored(dir)).toEqual({ pageSize: 20 });
  });
});

describe('a data dir or config.json this user cannot read', () => {
  it('is an error naming the file, never the defaults', async () => {
    const dir = withConfig('{"pageSize":42}');
    chmodSync(dir, 0o700);
    const file = configFile(dir);
    await asOtherUser([dir], async () => {
      for (const args of [
        ['config', 'get', 'pageSize'],
        ['config', 'validate'],
        ['config', 'set', 'pageSize', '20'],
      ]) {
        const res = await cli(dir, ...args);
        expect(res.stdout, args.join(' ')).toBe('');
        expect(res.stderr, args.join(' ')).toMatch(new RegExp(`^kikoplay: cannot read ${file} \\(permission denied\\)`));
        expect(res.code, args.join(' ')).toBe(1);
      }
    });
    chmodSync(dir, 0o755);
    chmodSync(file, 0o600);
    await asOtherUser([file], async () => {
      const res = await cli(dir, 'config', 'get', 'pageSize');
      expect(res.stderr).toMatch(new RegExp(`^kikoplay: cannot read ${file} \\(permission denied\\)`));
      expect(res.stderr).not.toContain('not valid JSON');
      expect(res.code).toBe(1);
    });
    expect(stored(dir)).toEqual({ pageSize: 42 });
  });

  it('a change it cannot write is said as such', async () => {
    const dir = withConfig('{"pageSize":42}');
    chmodSync(dir, 0o755);
    chmodSync(configFile(dir), 0o644);
    await asOtherUser([dir], async () => {
      const res = await cli(dir, 'config', 'set', 'pageSize', '20');
      expect(res.stderr).toMatch(new RegExp(`^kikoplay: cannot write ${configFile(dir)} \\(permission denied\\)`));
      expect(res.stderr).not.toContain('.tmp');
      expect(res.code).toBe(1);
    });
    expect(stored(dir)).toEqual({ pageSize: 42 });
  });
});

describe('folder settings on config set', () => {
  it('refuses a folder setting that is a file, and a relative database folder', async () => {
    const dir = tempDir();
    const file = path.join(tempDir(), 'plain');
    writeFileSync(file, 'x');
    for (const key of ['databaseFolderDir', 'coverFolderDir', 'backupDir']) {
      const res = await cli(dir, 'config', 'set', key, file);
      expect(res.stderr, key).toBe(`kikoplay: ${key}: ${file} is a file, not a folder (config.json unchanged)\n`);
      expect(res.code).toBe(1);
    }
    const rel = await cli(dir, 'config', 'set', 'databaseFolderDir', 'db');
    expect(rel.stderr).toBe('kikoplay: databaseFolderDir: must be an absolute path without control characters (or empty for the data dir) (config.json unchanged)\n');
    expect(existsSync(configFile(dir))).toBe(false);
  });

  it('refuses dbUseDefaultPath false until databaseFolderDir names an absolute folder', async () => {
    const dir = tempDir();
    const res = await cli(dir, 'config', 'set', 'dbUseDefaultPath', 'false');
    expect(res.stderr).toBe(
      'kikoplay: dbUseDefaultPath: false needs databaseFolderDir set to an absolute folder first (kikoplay config set databaseFolderDir /path); move kikoplay.db there before the next start (config.json unchanged)\n',
    );
    expect(res.code).toBe(1);
    const dbDir = path.join(tempDir(), 'db');
    mkdirSync(dbDir);
    expect((await cli(dir, 'config', 'set', 'databaseFolderDir', dbDir)).code).toBe(0);
    expect((await cli(dir, 'config', 'set', 'dbUseDefaultPath', 'false')).code).toBe(0);
    expect(stored(dir)).toEqual({ databaseFolderDir: dbDir, dbUseDefaultPath: false });
  });
});
