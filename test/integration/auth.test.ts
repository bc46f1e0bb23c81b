import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/app.js';

describe('auth and user management', () => {
  let t: TestServer;
  let admin: string;

  beforeAll(async () => {
    t = await startTestServer();
    await t.addUser('admin', 'adminpass', 'admin');
    admin = await t.login('admin', 'adminpass');
  });
  afterAll(() => t.close());

  it('GET /api/auth/me without a token is a 401 JSON', async () => {
    const res = await t.json('GET', '/api/auth/me');
    expect(res.status).toBe(401);
    expect(res.body).toHaveProperty('error');
  });

  it('GET /api/auth/me with a token names the user and says auth is on', async () => {
    const res = await t.json('GET', '/api/auth/me', { token: admin });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ user: { name: 'admin', group: 'administrator', role: 'admin' }, auth: true });
  });

  it('refuses a wrong password with 401 {error}', async () => {
    const res = await t.json('POST', '/api/auth/me', { body: { name: 'admin', password: 'wrongpass' } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: '用户名或密码错误.' });
  });

  it('refuses short names and passwords with 422 and the spec messages', async () => {
    const res = await t.json<{ errors: { msg: string; param: string }[] }>('POST', '/api/auth/me', { body: { name: 'abcd', password: '1234' } });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].msg).toBe('用户名长度至少为 5');
    expect(res.body.errors[1]).toMatchObject({ msg: '密码长度至少为 5', param: 'password' });
  });

  it('accepts form-encoded login (the Python worker sends forms)', async () => {
    const res = await t.request('POST', '/api/auth/me', {
      raw: 'name=admin&password=adminpass',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { token: string }).token).toMatch(/^ey/);
  });

  it('creates users with the spec rules', async () => {
    const short = await t.json<{ errors: { msg: string }[] }>('POST', '/api/credentials/user', { token: admin, body: { name: 'abcd', password: 'secret1', group: 'user' } });
    expect(short.status).toBe(422);
    expect(short.body.errors[0].msg).toBe('用户名长度至少为 5');
    const badGroup = await t.json<{ errors: { msg: string }[] }>('POST', '/api/credentials/user', { token: admin, body: { name: 'bobby', password: 'secret1', group: 'root' } });
    expect(badGroup.status).toBe(422);
    const ok = await t.json('POST', '/api/credentials/user', { token: admin, body: { name: 'alice', password: 'secret1', group: 'user' } });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ message: '用户 alice 创建成功.' });
    const dup = await t.json<{ errors: { msg: string }[] }>('POST', '/api/credentials/user', { token: admin, body: { name: 'alice', password: 'secret1', group: 'user' } });
    expect(dup.status).toBe(422);
    expect(dup.body.errors[0].msg).toBe('该名称已存在，用户名不能重复');
  });

  it('keeps user management for the admin', async () => {
    const alice = await t.login('alice', 'secret1');
    const list = await t.json('GET', '/api/credentials/users', { token: alice });
    expect(list.status).toBe(403);
    const create = await t.json('POST', '/api/credentials/user', { token: alice, body: { name: 'mallory', password: 'secret1', group: 'user' } });
    expect(create.status).toBe(403);
    const config = await t.json('GET', '/api/config/admin', { token: alice });
    expect(config.status).toBe(403);
    const other = await t.json('PUT', '/api/credentials/user', { token: alice, body: { name: 'admin', newPassword: 'hacked1' } });
    expect(other.status).toBe(403);
    const adminList = await t.json<{ users: { name: string; group: string }[] }>('GET', '/api/credentials/users', { token: admin });
    expect(adminList.status).toBe(200);
    expect(adminList.body.users.map((u) => u.name).sort()).toEqual(['admin', 'alice']);
  });

  it('changes a role only for a user named by a string, refusing other types with 400', async () => {
    await t.addUser('roleuser', 'secret1', 'user');
    for (const name of [['roleuser'], true, { toString: 'roleuser' }, '', null]) {
      const res = await t.json<{ error: string }>('PUT', '/api/credentials/user/role', { token: admin, body: { name, role: 'guest' } });
      expect(res.status, JSON.stringify(name)).toBe(400);
      expect(res.body.error).toBe('参数 name 必须是用户名字符串.');
    }
    expect((await t.app.repos.users.byName('roleuser'))!.role).toBe('user');
    const ok = await t.json('PUT', '/api/credentials/user/role', { token: admin, body: { name: 'roleuser', role: 'guest' } });
    expect(ok.status).toBe(200);
    expect((await t.app.repos.users.byName('roleuser'))!.role).toBe('guest');
  });

  it('revokes tokens when the password changes', async () => {
    await t.json('POST', '/api/credentials/user', { token: admin, body: { name: 'carol', password: 'secret1', group: 'user' } });
    const carol = await t.login('carol', 'secret1');
    expect((await t.json('GET', '/api/auth/me', { token: carol })).status).toBe(200);
    const change = await t.json('PUT', '/api/credentials/user', { token: carol, body: { name: 'carol', newPassword: 'secret2', currentPassword: 'secret1' } });
    expect(change.status).toBe(200);
    expect(change.body).toEqual({ message: '密码修改成功.' });
    expect((await t.json('GET', '/api/auth/me', { token: carol })).status).toBe(401);
    expect((await t.json('GET', '/api/config/shared', { token: carol })).status).toBe(401);
    const fresh = await t.login('carol', 'secret2');
    expect((await t.json('GET', '/api/auth/me', { token: fresh })).status).toBe(200);
  });

  it('deletes users and their tokens stop working', async () => {
    await t.json('POST', '/api/credentials/user', { token: admin, body: { name: 'davey', password: 'secret1', group: 'guest' } });
    const davey = await t.login('davey', 'secret1');
    const selfDelete = await t.json('DELETE', '/api/credentials/user', { token: admin, body: { users: [{ name: 'admin' }] } });
    expect(selfDelete.status).toBe(403);
    const del = await t.json('DELETE', '/api/credentials/user', { token: admin, body: { users: [{ name: 'davey' }] } });
    expect(del.status).toBe(200);
    expect((await t.json('GET', '/api/auth/me', { token: davey })).status).toBe(401);
    const missing = await t.json('DELETE', '/api/credentials/user', { token: admin, body: {} });
    expect(missing.status).toBe(400);
  });

  it('rate-limits repeated failed logins with 429', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      statuses.push((await t.json('POST', '/api/auth/me', { body: { name: 'alice', password: `wrong${i}x` } })).status);
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    const limited = await t.request('POST', '/api/auth/me', { body: { name: 'alice', password: 'secret1' } });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('rejects forged and garbage tokens', async () => {
    expect((await t.json('GET', '/api/config/shared', { token: 'garbage' })).status).toBe(401);
    const [h, p] = admin.split('.');
    expect((await t.json('GET', '/api/config/shared', { token: `${h}.${p}.AAAA` })).status).toBe(401);
  });
});

describe('auth off', () => {
  it('acts as the admin for every request', async () => {
    const t = await startTestServer({ flags: { auth: false } });
    try {
      const me = await t.json('GET', '/api/auth/me');
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ auth: false, user: { group: 'administrator' } });
      expect((await t.json('GET', '/api/config/admin')).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});
