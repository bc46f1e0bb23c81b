/**
 * Issue 17 item 9: one validation of the folder settings for every way they are written — the folders
 * API of the dashboard, PUT /api/config/admin, `kikoplay config set`, KIKOPLAY_* variables and
 * config.json at load — with the same error text, and a refused write leaves config.json as it was.
 */
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envName, loadConfig } from '../../server/config/load.js';
import { FOLDER_RULE_MSG } from '../../server/config/folder-rules.js';
import { zhCN as ZH } from '../../server/contract/error-text/zh-CN.js';
import { startTestServer, tempDir, type TestServer } from '../helpers/app.js';
import { runCli } from '../helpers/run-cli.js';

describe('folder settings are checked the same way on every path', () => {
  let t: TestServer;
  let admin: string;
  let root: string;
  let a: string;
  let b: string;
  const configFile = () => (existsSync(path.join(t.dataDir, 'config.json')) ? readFileSync(path.join(t.dataDir, 'config.json'), 'utf8') : '');

  beforeAll(async () => {
    root = tempDir('kikoplay-cfg-rules-');
    a = path.join(root, 'a');
    b = path.join(root, 'b');
    for (const d of [a, b, path.join(a, 'inner'), path.join(root, 'covers')]) mkdirSync(d, { recursive: true });
    t = await startTestServer();
    await t.addUser('admin', 'adminpass', 'admin');
    admin = await t.login('admin', 'adminpass');
    const added = await t.json('POST', '/api/config/folders', { token: admin, body: { name: 'a', path: a } });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** PUT /api/config/admin with one key: refused with 400, the text in the error, config.json untouched. */
  async function adminPut(key: string, value: unknown, text: string) {
    const before = configFile();
    const res = await t.json<{ error: string }>('PUT', '/api/config/admin', { token: admin, body: { config: { [key]: value } } });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error).toContain(text);
    expect(configFile()).toBe(before);
  }

  /**
   * `kikoplay config set KEY VALUE` on the same data dir: exit 1, the text on stderr, config.json
   * untouched. The terminal says the rule in its own language: run in Chinese, the texts above.
   */
  async function cliSet(key: string, value: unknown, text: string) {
    const before = configFile();
    const res = await runCli(['--lang', 'zh-CN', '--data-dir', t.dataDir, 'config', 'set', key, typeof value === 'string' ? value : JSON.stringify(value)]);
    expect(res.code, res.stderr).toBe(1);
    expect(res.stderr).toContain(text);
    expect(res.stderr).toContain('config.json 未改动');
    expect(configFile()).toBe(before);
  }

  /** The same value in a KIKOPLAY_* variable and in config.json: the process refuses to load it. */
  function atLoad(key: 'rootFolders' | 'coverFolderDir' | 'coverUseDefaultPath', value: unknown, text: string, extra: Record<string, unknown> = {}) {
    const env = Object.fromEntries(Object.entries({ ...extra, [key]: value }).map(([k, v]) => [envName(k as 'rootFolders'), typeof v === 'string' ? v : JSON.stringify(v)]));
    expect(() => loadConfig(tempDir(), {}, env)).toThrow(text);
    const dir = tempDir();
    writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ ...extra, [key]: value }));
    expect(() => loadConfig(dir, {}, {})).toThrow(text);
  }

  async function folderApi(body: unknown, status: number, text: string, p = '/api/config/folders', method = 'POST') {
    const before = configFile();
    const res = await t.json<{ error: string }>(method, p, { token: admin, body });
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    expect(res.body.error).toBe(text);
    expect(configFile()).toBe(before);
  }

  it('a duplicate folder alias', async () => {
    const roots = [
      { name: 'a', path: a },
      { name: 'a', path: b },
    ];
    await folderApi({ name: 'a', path: b }, 409, FOLDER_RULE_MSG.nameTaken);
    await adminPut('rootFolders', roots, FOLDER_RULE_MSG.nameTaken);
    await cliSet('rootFolders', roots, FOLDER_RULE_MSG.nameTaken);
    atLoad('rootFolders', roots, FOLDER_RULE_MSG.nameTaken);
  });

  it('a duplicate folder path (however spelt)', async () => {
    const roots = [
      { name: 'a', path: a },
      { name: 'b', path: `${a}/../a/` },
    ];
    await folderApi({ name: 'b', path: `${a}/../a/` }, 409, FOLDER_RULE_MSG.pathTaken);
    await adminPut('rootFolders', roots, FOLDER_RULE_MSG.pathTaken);
    await cliSet('rootFolders', roots, FOLDER_RULE_MSG.pathTaken);
    atLoad('rootFolders', roots, FOLDER_RULE_MSG.pathTaken);
  });

  it('a relative folder path', async () => {
    const roots = [
      { name: 'a', path: a },
      { name: 'rel', path: 'relative/voice' },
    ];
    const text = FOLDER_RULE_MSG.notAbsolute;
    await folderApi({ name: 'rel', path: 'relative/voice' }, 400, text);
    await adminPut('rootFolders', roots, text);
    // the terminal names the value beside the rule: the rule's sentence without the path
    await cliSet('rootFolders', roots, `relative/voice」: ${ZH.FOLDER_PATH_NOT_ABSOLUTE}`);
    atLoad('rootFolders', roots, text);
  });

  it('a folder inside another, and one holding another', async () => {
    const inner = path.join(a, 'inner');
    const inside = FOLDER_RULE_MSG.inside('a');
    await folderApi({ name: 'inner', path: inner }, 409, inside);
    await adminPut(
      'rootFolders',
      [
        { name: 'a', path: a },
        { name: 'inner', path: inner },
      ],
      inside,
    );
    await cliSet(
      'rootFolders',
      [
        { name: 'a', path: a },
        { name: 'inner', path: inner },
      ],
      ZH.FOLDER_NESTED.replace('{other}', 'a'),
    );
    atLoad(
      'rootFolders',
      [
        { name: 'a', path: a },
        { name: 'inner', path: inner },
      ],
      inside,
    );
    const contains = FOLDER_RULE_MSG.contains('a');
    await folderApi({ name: 'outer', path: root }, 409, contains);
    await adminPut(
      'rootFolders',
      [
        { name: 'a', path: a },
        { name: 'outer', path: root },
      ],
      contains,
    );
    await cliSet(
      'rootFolders',
      [
        { name: 'a', path: a },
        { name: 'outer', path: root },
      ],
      ZH.FOLDER_NESTED.replace('{other}', 'a'),
    );
    atLoad(
      'rootFolders',
      [
        { name: 'a', path: a },
        { name: 'outer', path: root },
      ],
      contains,
    );
  });

  it('a folder reached through a symlink: overlap is decided on real paths, the typed path is stored', async () => {
    const links = tempDir('kikoplay-cfg-links-');
    const same = path.join(links, 'link-a');
    const intoInner = path.join(links, 'link-inner');
    const toRoot = path.join(links, 'link-root');
    const toB = path.join(links, 'link-b');
    symlinkSync(a, same);
    symlinkSync(path.join(a, 'inner'), intoInner);
    symlinkSync(root, toRoot);
    symlinkSync(b, toB);
    const refused = async (name: string, dir: string, code: string) => {
      const before = configFile();
      const res = await t.json<{ error: string; code: string }>('POST', '/api/config/folders', { token: admin, body: { name, path: dir } });
      expect(res.status, `${dir}: ${JSON.stringify(res.body)}`).toBe(409);
      expect(res.body.code).toBe(code);
      expect(configFile()).toBe(before);
      const put = await t.json<{ error: string; code: string }>('PUT', '/api/config/admin', {
        token: admin,
        body: {
          config: {
            rootFolders: [
              { name: 'a', path: a },
              { name, path: dir },
            ],
          },
        },
      });
      expect(put.status, `${dir}: ${JSON.stringify(put.body)}`).toBe(400);
      expect(put.body.error).toContain('rootFolders.1.path: ');
      expect(configFile()).toBe(before);
    };
    await refused('same', same, 'FOLDER_PATH_TAKEN');
    await refused('inner', intoInner, 'FOLDER_NESTED');
    await refused('outer', toRoot, 'FOLDER_NESTED');
    // a folder not there yet below a link: its parent's real path counts
    await refused('deep', path.join(same, 'not-yet'), 'FOLDER_NESTED');
    // /proc/self/root is a link to /: every folder is inside it
    if (existsSync('/proc/self/root')) await refused('slash', '/proc/self/root/proc/self/root', 'FOLDER_NESTED');
    // and at load, both directions
    atLoad(
      'rootFolders',
      [
        { name: 'inner', path: intoInner },
        { name: 'a', path: a },
      ],
      'rootFolders.1.path: ',
    );

    // a link to a folder that overlaps nothing is fine, and kept as typed
    const ok = await t.json<{ folders: { folders: { name: string; path: string }[] } }>('POST', '/api/config/folders', { token: admin, body: { name: 'b', path: toB } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.folders.folders).toContainEqual(expect.objectContaining({ name: 'b', path: toB }));
    expect(JSON.parse(configFile()).rootFolders).toEqual([
      { name: 'a', path: a },
      { name: 'b', path: toB },
    ]);
    // the folders as they were
    await t.json('PUT', '/api/config/admin', { token: admin, body: { config: { rootFolders: [{ name: 'a', path: a }] } } });
    expect(JSON.parse(configFile()).rootFolders).toEqual([{ name: 'a', path: a }]);
  });

  it('an alias that is empty or too long', async () => {
    await folderApi({ name: '', path: b }, 400, FOLDER_RULE_MSG.empty);
    await adminPut('rootFolders', [{ name: ' ', path: b }], FOLDER_RULE_MSG.empty);
    await cliSet('rootFolders', [{ name: '', path: b }], FOLDER_RULE_MSG.empty);
    atLoad('rootFolders', [{ name: '', path: b }], FOLDER_RULE_MSG.empty);
    const long = 'x'.repeat(65);
    await folderApi({ name: long, path: b }, 400, FOLDER_RULE_MSG.nameTooLong(64));
    await adminPut('rootFolders', [{ name: long, path: b }], FOLDER_RULE_MSG.nameTooLong(64));
    await cliSet('rootFolders', [{ name: long, path: b }], FOLDER_RULE_MSG.nameTooLong(64));
    atLoad('rootFolders', [{ name: long, path: b }], FOLDER_RULE_MSG.nameTooLong(64));
  });

  it('a library folder that is not there is refused by the dashboard, saved with a warning by the terminal', async () => {
    const gone = path.join(root, 'gone');
    const roots = [
      { name: 'a', path: a },
      { name: 'gone', path: gone },
    ];
    await folderApi({ name: 'gone', path: gone }, 400, FOLDER_RULE_MSG.missing);
    await adminPut('rootFolders', roots, FOLDER_RULE_MSG.missing);
    // the terminal saves it with a warning (a disk may be mounted later), then the test puts it back
    const saved = await runCli(['--lang', 'zh-CN', '--data-dir', t.dataDir, 'config', 'set', 'rootFolders', JSON.stringify(roots)]);
    expect(saved.code, saved.stderr).toBe(0);
    expect(saved.stderr).toContain(`rootFolders.1.path: ${gone}`);
    expect(JSON.parse(configFile()).rootFolders).toEqual(roots);
    const back = await runCli(['--data-dir', t.dataDir, 'config', 'set', 'rootFolders', JSON.stringify([{ name: 'a', path: a }])]);
    expect(back.code, back.stderr).toBe(0);
    // a disk that is not mounted when the server starts does not stop it (the dashboard shows it absent)
    expect(loadConfig(tempDir(), {}, { [envName('rootFolders')]: JSON.stringify(roots) }).rootFolders).toEqual(roots);
  });

  it('the cover folder: relative, missing, or left empty while the default is off', async () => {
    const cover = '/api/config/folders/cover';
    await folderApi({ coverUseDefaultPath: false, coverFolderDir: 'covers' }, 400, FOLDER_RULE_MSG.notAbsolute, cover, 'PUT');
    await adminPut('coverFolderDir', 'covers', FOLDER_RULE_MSG.notAbsolute);
    await cliSet('coverFolderDir', 'covers', FOLDER_RULE_MSG.notAbsolute);
    atLoad('coverFolderDir', 'covers', FOLDER_RULE_MSG.notAbsolute);

    const gone = path.join(root, 'no-covers');
    await folderApi({ coverUseDefaultPath: false, coverFolderDir: gone }, 400, FOLDER_RULE_MSG.missing, cover, 'PUT');
    const before = configFile();
    const res = await t.json<{ error: string }>('PUT', '/api/config/admin', { token: admin, body: { config: { coverUseDefaultPath: false, coverFolderDir: gone } } });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain(FOLDER_RULE_MSG.missing);
    expect(configFile()).toBe(before);

    // the default folder turned off with no folder of one's own
    await folderApi({ coverUseDefaultPath: false }, 400, FOLDER_RULE_MSG.coverDirNeeded, cover, 'PUT');
    await adminPut('coverUseDefaultPath', false, FOLDER_RULE_MSG.coverDirNeeded);
    await cliSet('coverUseDefaultPath', 'false', FOLDER_RULE_MSG.coverDirNeeded);
    atLoad('coverUseDefaultPath', false, FOLDER_RULE_MSG.coverDirNeeded);

    // a folder that is not there is checked once it is used: stored while the default is on, refused when turned on
    const set = await runCli(['--data-dir', t.dataDir, 'config', 'set', 'coverFolderDir', gone]);
    expect(set.code, set.stderr).toBe(0);
    await cliSet('coverUseDefaultPath', 'false', FOLDER_RULE_MSG.missing);
  });
});
