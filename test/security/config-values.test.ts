/**
 * Audit h3 item 1: the admin config refuses values the server cannot use — cron expressions that do not
 * parse, relative paths or paths with control characters, base URLs that are not http(s), offload paths
 * that are neither an absolute URL path nor an http(s) URL — on every way a config is written (PUT
 * /api/config/admin, `kikoplay config set`, config.json at load), naming the key, leaving config.json as
 * it was. What was valid stays valid (an empty cron is "off").
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigFileError, loadConfig } from '../../server/config/load.js';
import { startTestServer, tempDir, type TestServer } from '../helpers/app.js';
import { cliInProcess } from '../helpers/cli-in-process.js';

const BAD: Record<string, unknown[]> = {
  scanCron: ['x', '61 * * * *', '\u0000', '* * *'],
  backupCron: ['x', '61 * * * *', '\u0000'],
  databaseFolderDir: ['relative/db', '/srv/db\u0000x', '/srv/db\nx'],
  voiceWorkDefaultPath: ['relative/voice', '/srv/voice\u0000', '/srv/\u0007voice'],
  offloadStreamPath: ['', 'javascript:alert(1)', 'media/stream/', '//evil.example/x/', '/media/ stream/', 'file:///etc/passwd'],
  offloadDownloadPath: ['', 'javascript:alert(1)', 'ftp://files.example/dl/'],
  dlsiteBaseUrl: ['file:///etc/passwd', 'javascript:alert(1)'],
  dlsiteImageBaseUrl: ['file:///etc/passwd', 'javascript:alert(1)'],
  hvdbBaseUrl: ['file:///etc/passwd', 'javascript:alert(1)'],
  asmrOneBaseUrl: ['file:///etc/passwd', 'javascript:alert(1)', 'data:text/plain,x'],
};

const GOOD: Record<string, unknown[]> = {
  scanCron: ['', '0 3 * * *', '*/15 * * * *', '0 0 3 * * 1'],
  backupCron: ['', '30 4 * * 0'],
  databaseFolderDir: ['', '/srv/kikoplay-db'],
  voiceWorkDefaultPath: ['', '/srv/voice'],
  offloadStreamPath: ['/media/stream/', '/stream', 'https://cdn.example/stream/'],
  offloadDownloadPath: ['/media/download/', 'http://files.example:8080/dl'],
  dlsiteBaseUrl: ['https://www.dlsite.com', 'http://127.0.0.1:9000'],
  hvdbBaseUrl: ['https://hvdb.me'],
  asmrOneBaseUrl: ['https://api.asmr-200.com'],
};

describe('config values the server cannot use are refused on every path', () => {
  let t: TestServer;
  let admin: string;
  const configFile = () => (existsSync(path.join(t.dataDir, 'config.json')) ? readFileSync(path.join(t.dataDir, 'config.json'), 'utf8') : '');

  beforeAll(async () => {
    t = await startTestServer();
    await t.addUser('admin', 'adminpass', 'admin');
    admin = await t.login('admin', 'adminpass');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('PUT /api/config/admin: 400 naming the key, config.json unchanged', async () => {
    for (const [key, values] of Object.entries(BAD)) {
      for (const value of values) {
        const before = configFile();
        const res = await t.json<{ error: string; code: string }>('PUT', '/api/config/admin', { token: admin, body: { config: { [key]: value } } });
        expect(res.status, `${key}=${JSON.stringify(value)}: ${JSON.stringify(res.body)}`).toBe(400);
        expect(res.body.code).toBe('CONFIG_INVALID');
        // the web settings page finds the field by "key: message" (config-fields.ts serverFieldErrors)
        expect(res.body.error).toMatch(new RegExp(`(^|[:;]\\s*)${key}: `));
        expect(configFile()).toBe(before);
      }
    }
  });

  it('PUT /api/config/admin: the valid forms are still saved', async () => {
    for (const [key, values] of Object.entries(GOOD)) {
      for (const value of values) {
        const res = await t.json<{ config: Record<string, unknown> }>('PUT', '/api/config/admin', { token: admin, body: { config: { [key]: value } } });
        expect(res.status, `${key}=${JSON.stringify(value)}: ${JSON.stringify(res.body)}`).toBe(200);
        expect(res.body.config[key]).toBe(value);
      }
    }
  });

  it('kikoplay config set: exit 1 naming the key, config.json unchanged', async () => {
    const dir = tempDir();
    for (const [key, value] of [
      ['scanCron', '61 * * * *'],
      ['backupCron', 'x'],
      ['databaseFolderDir', 'relative/db'],
      ['offloadStreamPath', 'javascript:alert(1)'],
      ['hvdbBaseUrl', 'file:///etc/passwd'],
    ]) {
      const res = await cliInProcess(['--lang', 'en', '--data-dir', dir, 'config', 'set', key, value]);
      expect(res.code, `${key}: ${res.stderr}`).toBe(1);
      expect(res.stderr).toContain(`${key}: `);
      expect(existsSync(path.join(dir, 'config.json'))).toBe(false);
    }
  });

  it('config.json with such a value: the config error at load, naming the key (no crash later)', () => {
    for (const [key, value] of [
      ['scanCron', 'x'],
      ['backupCron', '61 * * * *'],
      ['voiceWorkDefaultPath', 'relative'],
      ['offloadDownloadPath', ''],
      ['asmrOneBaseUrl', 'javascript:alert(1)'],
    ]) {
      const dir = tempDir();
      writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ [key]: value }));
      let thrown: unknown;
      try {
        loadConfig(dir, {}, {});
      } catch (err) {
        thrown = err;
      }
      expect(thrown, key).toBeInstanceOf(ConfigFileError);
      expect((thrown as ConfigFileError).problem.key).toBe('invalidIn');
      expect((thrown as Error).message).toContain(`${key}: `);
    }
  });

  it('a config.json an older version wrote with such a value is mended by `kikoplay config unset`', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ scanCron: '61 * * * *', pageSize: 24 }));
    expect(() => loadConfig(dir, {}, {})).toThrow(/scanCron: /);
    const res = await cliInProcess(['--lang', 'en', '--data-dir', dir, 'config', 'unset', 'scanCron']);
    expect(res.code, res.stderr).toBe(0);
    expect(loadConfig(dir, {}, {})).toMatchObject({ scanCron: '', pageSize: 24 });
  });
});
