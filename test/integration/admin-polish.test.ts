/**
 * Issue 22 item 8, the admin's half on the server: GET/PUT /api/config/admin send the effective cover
 * folder and database file next to the config (admin only, absolute, never inside `config`); an admin
 * creates another admin with POST /api/credentials/user (kikoeru's `group`: administrator), while the
 * kikoeru answers for users and guests stay as they were; a too-short login name is said as a name.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, tempDir, type TestServer } from '../helpers/app.js';
import { errorSentence } from '../../server/contract/error-text/index.js';

interface ConfigAnswer {
  config: Record<string, unknown>;
  paths: { coverDir: string; databaseFile: string };
}

describe('the admin config answer names the paths in use', () => {
  let t: TestServer;
  let admin: string;
  let user: string;

  beforeAll(async () => {
    t = await startTestServer();
    await t.addUser('admin', 'adminpass', 'admin');
    await t.addUser('alice', 'alicepass', 'user');
    admin = await t.login('admin', 'adminpass');
    user = await t.login('alice', 'alicepass');
  });
  afterAll(() => t.close());

  it('GET: the absolute cover folder and database file, beside the config and not in it', async () => {
    const res = await t.json<ConfigAnswer>('GET', '/api/config/admin', { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.paths).toEqual({ coverDir: path.join(t.dataDir, 'covers'), databaseFile: path.join(t.dataDir, 'kikoplay.db') });
    expect(path.isAbsolute(res.body.paths.coverDir)).toBe(true);
    expect(res.body.config).not.toHaveProperty('paths');
    // a kikoeru client sends the config it read back whole: still accepted
    const back = await t.json('PUT', '/api/config/admin', { token: admin, body: { config: res.body.config } });
    expect(back.status).toBe(200);
  });

  it('PUT: the cover folder in use follows the change; the database file stays the one opened', async () => {
    const covers = path.join(tempDir(), 'covers-elsewhere');
    mkdirSync(covers);
    const res = await t.json<ConfigAnswer & { restartRequired: string[] }>('PUT', '/api/config/admin', { token: admin, body: { config: { coverUseDefaultPath: false, coverFolderDir: covers } } });
    expect(res.status).toBe(200);
    expect(res.body.paths.coverDir).toBe(covers);
    const dbDir = tempDir();
    const db = await t.json<ConfigAnswer & { restartRequired: string[] }>('PUT', '/api/config/admin', { token: admin, body: { config: { dbUseDefaultPath: false, databaseFolderDir: dbDir } } });
    expect(db.status).toBe(200);
    expect(db.body.restartRequired).toEqual(['dbUseDefaultPath', 'databaseFolderDir']);
    expect(db.body.paths.databaseFile).toBe(path.join(t.dataDir, 'kikoplay.db'));
    const again = await t.json<ConfigAnswer>('GET', '/api/config/admin', { token: admin });
    expect(again.body.paths).toEqual({ coverDir: covers, databaseFile: path.join(t.dataDir, 'kikoplay.db') });
  });

  it('is refused to a user, without any path', async () => {
    const res = await t.json('GET', '/api/config/admin', { token: user });
    expect(res.status).toBe(403);
    expect(JSON.stringify(res.body)).not.toContain(t.dataDir);
  });
});

describe('admins create admins', () => {
  let t: TestServer;
  let admin: string;
  let user: string;

  beforeAll(async () => {
    t = await startTestServer();
    await t.addUser('admin', 'adminpass', 'admin');
    await t.addUser('alice', 'alicepass', 'user');
    admin = await t.login('admin', 'adminpass');
    user = await t.login('alice', 'alicepass');
  });
  afterAll(() => t.close());

  const roleOf = async (name: string) =>
    (await t.json<{ users: { name: string; group: string; role: string }[] }>('GET', '/api/credentials/users', { token: admin })).body.users.find((u) => u.name === name);

  it('an admin creates an admin (group administrator, or admin) who can use the admin routes', async () => {
    const res = await t.json('POST', '/api/credentials/user', { token: admin, body: { name: 'second-admin', password: 'secondpass', group: 'administrator' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: '用户 second-admin 创建成功.' });
    expect(await roleOf('second-admin')).toMatchObject({ group: 'administrator', role: 'admin' });
    const token = await t.login('second-admin', 'secondpass');
    expect((await t.json('GET', '/api/config/admin', { token })).status).toBe(200);

    const alias = await t.json('POST', '/api/credentials/user', { token: admin, body: { name: 'third-admin', password: 'thirdpass', group: 'admin' } });
    expect(alias.status).toBe(200);
    expect(await roleOf('third-admin')).toMatchObject({ role: 'admin' });
  });

  it('a user cannot create an admin (403), and nothing is created', async () => {
    const res = await t.json('POST', '/api/credentials/user', { token: user, body: { name: 'sneaky-admin', password: 'sneakypass', group: 'administrator' } });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error: '只有 admin 账号能创建新用户.', code: 'ADMIN_ONLY' });
    expect(await roleOf('sneaky-admin')).toBeUndefined();
  });

  it('keeps the kikoeru answers: user and guest as before, an unknown group a 422 naming the three', async () => {
    for (const group of ['user', 'guest']) {
      const res = await t.json('POST', '/api/credentials/user', { token: admin, body: { name: `plain-${group}`, password: 'plainpass', group } });
      expect(res.status).toBe(200);
      expect(await roleOf(`plain-${group}`)).toMatchObject({ group, role: group });
    }
    const bad = await t.json<{ errors: { msg: string; param: string; code: string }[] }>('POST', '/api/credentials/user', {
      token: admin,
      body: { name: 'rooted', password: 'rootpass', group: 'root' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([{ msg: "用户组名称必须为 ['user', 'guest', 'administrator'] 的一个.", param: 'group', location: 'body', code: 'GROUP_INVALID' }]);
    expect(errorSentence({ code: 'GROUP_INVALID' }, '', 'en')).toBe('The group must be “user”, “guest” or “administrator”.');
  });
});

describe('a too-short login name', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  it('is said as a name (USERNAME_TOO_SHORT at the name field) in all three languages; the password as a password', async () => {
    const res = await t.json<{ code: string; field: string; errors: { param: string; code: string; params: Record<string, number> }[] }>('POST', '/api/auth/me', {
      body: { name: 'abc', password: 'long-enough' },
    });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'USERNAME_TOO_SHORT', field: 'name' });
    expect(res.body.errors).toEqual([{ msg: '用户名长度至少为 5', param: 'name', location: 'body', code: 'USERNAME_TOO_SHORT', params: { min: 5 } }]);
    const said = (lang: 'en' | 'ja' | 'zh-CN', code: string) => errorSentence({ code, params: { min: 5 } }, '', lang);
    expect([said('en', 'USERNAME_TOO_SHORT'), said('ja', 'USERNAME_TOO_SHORT'), said('zh-CN', 'USERNAME_TOO_SHORT')]).toEqual([
      'Username must be at least 5 characters.',
      'ユーザー名は 5 文字以上にしてください。',
      '用户名长度至少为 5',
    ]);
    expect(said('en', 'PASSWORD_TOO_SHORT')).toBe('Password must be at least 5 characters.');
  });
});
