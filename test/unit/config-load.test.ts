import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { envName, loadConfig, readConfigFile, updateConfigFile } from '../../server/config/load.js';
import { defaultConfig } from '../../server/config/schema.js';
import { tempDir } from '../helpers/app.js';

describe('config loading', () => {
  it('has the spec defaults', () => {
    const c = defaultConfig();
    expect(c).toMatchObject({
      pageSize: 12,
      dlsiteTimeout: 10000,
      hvdbTimeout: 10000,
      retryDelay: 2000,
      retry: 5,
      maxParallelism: 16,
      scannerMaxRecursionDepth: 2,
      expiresIn: 2592000,
      rewindSeekTime: 5,
      forwardSeekTime: 30,
      listenPort: 8888,
      auth: true,
      tagLanguage: 'zh-cn',
      scanCron: '',
    });
  });

  it('layers defaults < file < env < flags', () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ pageSize: 20, retry: 3, tagLanguage: 'ja-jp' }));
    const env = { [envName('pageSize')]: '30', [envName('retry')]: '4' };
    const c = loadConfig(dir, { retry: 1 }, env);
    expect(c.pageSize).toBe(30); // env beats file
    expect(c.retry).toBe(1); // flag beats env
    expect(c.tagLanguage).toBe('ja-jp'); // file beats default
    expect(c.maxParallelism).toBe(16); // default
  });

  it('maps PORT to listenPort and env names to SCREAMING_SNAKE', () => {
    expect(envName('scannerMaxRecursionDepth')).toBe('KIKOPLAY_SCANNER_MAX_RECURSION_DEPTH');
    expect(loadConfig(tempDir(), {}, { PORT: '9000' }).listenPort).toBe(9000);
  });

  it('forces auth on in production', () => {
    expect(loadConfig(tempDir(), { production: true, auth: false }, {}).auth).toBe(true);
  });

  it('names the key of an invalid file, env value or edit', () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ expiresIn: 'soon' }));
    expect(() => loadConfig(dir, {}, {})).toThrow(/expiresIn/);
    expect(() => loadConfig(tempDir(), {}, { [envName('pageSize')]: 'abc' })).toThrow(/pageSize/);
    const ok = tempDir();
    expect(() => updateConfigFile(ok, { rootFolders: [{ name: '', path: '/x' }] })).toThrow(/rootFolders/);
    expect(() => updateConfigFile(ok, { bogus: 1 })).toThrow(/bogus/);
  });

  it('stores only the keys that were set, atomically', () => {
    const dir = tempDir();
    mkdirSync(dir, { recursive: true });
    updateConfigFile(dir, { pageSize: 24 });
    const voice = tempDir();
    updateConfigFile(dir, { rootFolders: [{ name: 'lib', path: voice }] });
    expect(JSON.parse(readFileSync(path.join(dir, 'config.json'), 'utf8'))).toEqual({ pageSize: 24, rootFolders: [{ name: 'lib', path: voice }] });
    expect(readConfigFile(dir)).toEqual({ pageSize: 24, rootFolders: [{ name: 'lib', path: voice }] });
  });

  it('rejects a config file that is not a JSON object', () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'config.json'), '[1,2]');
    expect(() => readConfigFile(dir)).toThrow(/JSON object/);
    writeFileSync(path.join(dir, 'config.json'), '{ nope');
    expect(() => readConfigFile(dir)).toThrow(/not valid JSON/);
  });
});
