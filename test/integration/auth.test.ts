import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes, scryptSync } from 'node:crypto';
import { startTestServer, type TestServer } from '../helpers/app.js';
import { passwordHashStats, verifyPassword } from '../../server/auth/password.js';
import { DEFAULT_LOGIN_LIMITS } from '../../server/auth/login-limiter.js';

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
    expect(res.body).toEqual({ user: { name: 'admin', group: 'administrator', role: 'admin', locale: null, mustChangePassword: false }, auth: true });
  });

  it('refuses a wrong password with 401 {error}', async () => {
    const res = await t.json('POST', '/api/auth/me', { body: { name: 'admin', password: 'wrongpass' } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: '用户名或密码错误.', code: 'WRONG_CREDENTIALS' });
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
    const began = performance.now();
    const limited = await t.request('POST', '/api/auth/me', { body: { name: 'alice', password: 'secret1' } });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    // a refusal is answered after the limiter's pause, so a guesser that waits for answers slows down
    expect(performance.now() - began).toBeGreaterThanOrEqual(DEFAULT_LOGIN_LIMITS.refusalPauseMs - 5);
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

/** A wrong-password login; `forwardedFor` is sent as X-Forwarded-For. */
const guess = (t: TestServer, name: string, forwardedFor?: string) =>
  t.request('POST', '/api/auth/me', { body: { name, password: 'not-the-password' }, headers: forwardedFor ? { 'X-Forwarded-For': forwardedFor } : {} });

const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

/**
 * 35 wrong guesses, each for its own name, in two waves sent at once: 15, then 20 (20 in flight
 * while 15 attempts of the address's 30 are left). Waves stay within the hash queue (2 + 16), so
 * every guess is answered 401 or 429, none 503. Returns how many were limited.
 */
async function sprayFromOneClient(t: TestServer, prefix: string, forwardedFor: (i: number) => string | undefined): Promise<number> {
  const statuses: number[] = [];
  for (const [from, to] of [
    [0, 15],
    [15, 35],
  ]) {
    const wave = Array.from({ length: to - from }, (_, k) => from + k);
    statuses.push(...(await Promise.all(wave.map((i) => guess(t, `${prefix}${i}`, forwardedFor(i)).then((r) => r.status)))));
  }
  expect(count(statuses, 401) + count(statuses, 429)).toBe(35);
  return count(statuses, 429);
}

describe('login floods', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  it('counts parallel guesses before hashing: of 200 at once for one name, at most 10 reach scrypt', async () => {
    await t.addUser('victim', 'secret1', 'user');
    const before = passwordHashStats().started;
    const statuses = await Promise.all(Array.from({ length: 200 }, () => guess(t, 'victim').then((r) => r.status)));
    expect(count(statuses, 401)).toBeLessThanOrEqual(10);
    expect(count(statuses, 429)).toBe(200 - count(statuses, 401));
    expect(passwordHashStats().started - before).toBeLessThanOrEqual(10);
    // the name stays limited for the window, whoever asks
    expect((await t.request('POST', '/api/auth/me', { body: { name: 'victim', password: 'secret1' } })).status).toBe(429);
  });

  it('counts parallel guesses per address too: of 35 names guessed from one address, at most 30 reach scrypt, whatever X-Forwarded-For says', async () => {
    const fresh = await startTestServer();
    try {
      const before = passwordHashStats().started;
      // not behind a proxy: X-Forwarded-For is the client's own say and ignored
      expect(await sprayFromOneClient(fresh, 'sprayed', (i) => `198.51.100.${i}`)).toBe(5);
      expect(passwordHashStats().started - before).toBeLessThanOrEqual(30);
    } finally {
      await fresh.close();
    }
  });

  it('verifies a hash for an unknown name as for a known one', async () => {
    await t.addUser('known-user', 'secret1', 'user');
    const before = passwordHashStats().started;
    expect((await guess(t, 'known-user')).status).toBe(401);
    expect(passwordHashStats().started - before).toBe(1);
    const res = await guess(t, 'nobody-by-this-name');
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: '用户名或密码错误.', code: 'WRONG_CREDENTIALS' });
    expect(passwordHashStats().started - before).toBe(2);
  });

  it('re-hashes a password stored at a lower scrypt cost on its next login, keeping its tokens', async () => {
    const salt = randomBytes(16);
    const oldKey = scryptSync('old-secret', salt, 32, { N: 16384, r: 8, p: 1 });
    const oldHash = ['scrypt', 16384, 8, 1, salt.toString('base64'), oldKey.toString('base64')].join('$');
    await t.app.repos.users.create('olduser', oldHash, 'user');
    const first = await t.login('olduser', 'old-secret');
    const stored = (await t.app.repos.users.byName('olduser'))!.password_hash;
    expect(stored).toMatch(/^scrypt\$16384\$8\$5\$/);
    expect(await verifyPassword('old-secret', stored)).toBe(true);
    // the same password, so the login it was re-hashed on stays valid, and the new hash logs in
    expect((await t.json('GET', '/api/auth/me', { token: first })).status).toBe(200);
    await t.login('olduser', 'old-secret');
    expect((await t.app.repos.users.byName('olduser'))!.password_hash).toBe(stored);
  });
});

describe('client address behind proxies', () => {
  it('with one trusted hop, takes the rightmost X-Forwarded-For entry; what the client sends before it does not count', async () => {
    const t = await startTestServer({ flags: { behindProxy: true } });
    try {
      // the client sent a different X-Forwarded-For each time; the proxy appended 10.0.0.1
      expect(await sprayFromOneClient(t, 'proxied', (i) => `198.51.100.${i}, 10.0.0.1`)).toBe(5);
      // another client behind the same proxy is not limited
      expect((await guess(t, 'otherclient', '203.0.113.9, 10.0.0.2')).status).toBe(401);
    } finally {
      await t.close();
    }
  });

  it('with two trusted hops, takes the second entry from the right', async () => {
    const t = await startTestServer({ flags: { behindProxy: true, trustedProxyHops: 2 } });
    try {
      expect(await sprayFromOneClient(t, 'proxied', (i) => `198.51.100.${i}, 10.0.0.7, 192.168.1.${i}`)).toBe(5);
      expect((await guess(t, 'otherclient', '198.51.100.1, 10.0.0.8, 192.168.1.1')).status).toBe(401);
    } finally {
      await t.close();
    }
  });
});

describe('login flood and other requests', () => {
  it('queues hashing: during 300 parallel logins GET /api/works keeps being answered, more often than logins are hashed, and a full queue answers 503', async () => {
    const t = await startTestServer({ flags: { behindProxy: true } });
    try {
      await t.addUser('admin', 'adminpass', 'admin');
      const admin = await t.login('admin', 'adminpass');
      let flooding = true;
      const flood = Promise.all(
        Array.from({ length: 300 }, (_, i) =>
          guess(t, `flooder${i}`, `10.${i >> 8}.${i & 255}.1`).then(async (res) => ({ status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.json() })),
        ),
      ).finally(() => (flooding = false));
      // one ordinary reader, one request after the other, for as long as the flood lasts
      let worksAnswered = 0;
      const reader = (async () => {
        while (flooding) {
          const res = await t.request('GET', '/api/works', { token: admin });
          await res.arrayBuffer();
          expect(res.status).toBe(200);
          if (flooding) worksAnswered++;
        }
      })();
      const results = await flood;
      await reader;

      const hashed = results.filter((r) => r.status === 401).length;
      const busy = results.filter((r) => r.status === 503);
      expect(hashed + busy.length).toBe(300);
      expect(busy.length).toBeGreaterThan(0);
      for (const r of busy) {
        expect(r.retryAfter).toMatch(/^[1-9]\d*$/);
        expect(r.body).toEqual({ error: '服务器繁忙，请稍后再试', code: 'BUSY' });
      }
      // the hashes did not hold up the thread pool the database uses: the reader, which needs it
      // for every answer, got through more requests than there were hashed logins
      expect(worksAnswered).toBeGreaterThanOrEqual(hashed);
    } finally {
      await t.close();
    }
  });
});

describe('hostile login bodies', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  it('refuses a 1 MB deeply nested array as name with a short 4xx JSON error', async () => {
    const depth = 500_000;
    const raw = `{"name":${'['.repeat(depth)}${']'.repeat(depth)},"password":"secret1"}`;
    const res = await t.request('POST', '/api/auth/me', { raw, headers: { 'Content-Type': 'application/json' } });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const text = await res.text();
    expect(text.length).toBeLessThan(1000);
    expect(text).not.toContain('[[');
  });

  it('never echoes the input in error bodies', async () => {
    const longName = `echo-me-${'x'.repeat(5000)}`;
    const login = await t.request('POST', '/api/auth/me', { body: { name: longName, password: 'secret1' } });
    expect(login.status).toBe(422);
    const body = (await login.json()) as { errors: Record<string, unknown>[] };
    expect(body.errors).toEqual([{ msg: '用户名不能超过 64 个字符，且不能包含控制字符或斜杠', param: 'name', location: 'body', code: 'USERNAME_INVALID', params: { max: 64 } }]);
    expect(JSON.stringify(body)).not.toContain('echo-me');

    const nested = await t.request('POST', '/api/auth/me', { body: { name: { 'echo-me': 1 }, password: 'secret1' } });
    expect(nested.status).toBe(422);
    expect(await nested.text()).not.toContain('echo-me');

    const json = await t.request('POST', '/api/auth/me', { raw: '{"name": "echo-me-broken', headers: { 'Content-Type': 'application/json' } });
    expect(json.status).toBe(400);
    const jsonText = await json.text();
    expect(jsonText).not.toContain('echo-me');
    expect(JSON.parse(jsonText)).toEqual({ error: '请求体不是有效的 JSON', code: 'INVALID_JSON' });

    await t.addUser('admin', 'adminpass', 'admin');
    const admin = await t.login('admin', 'adminpass');
    const group = await t.request('POST', '/api/credentials/user', { token: admin, body: { name: 'somebody', password: 'secret1', group: 'echo-me-group' } });
    expect(group.status).toBe(422);
    expect(await group.text()).not.toContain('echo-me');
  });

  it('answers every malformed login with a JSON 4xx, never a 500', async () => {
    const json = { 'Content-Type': 'application/json' };
    const form = { 'Content-Type': 'application/x-www-form-urlencoded' };
    const cases: { raw: string; headers: Record<string, string> }[] = [
      ...[
        '[]',
        '"name"',
        'null',
        '0',
        'true',
        '{}',
        '{"name":null,"password":null}',
        '{"name":123,"password":456}',
        '{"name":true,"password":[]}',
        '{"name":{"toString":"admin"},"password":{"valueOf":"x"}}',
        '{"name":["admin"],"password":["adminpass"]}',
        '{"__proto__":{"name":"admin"},"password":"adminpass"}',
        `{"name":"admin","password":"${'p'.repeat(100_000)}"}`,
        `{"name":"${'\\u0000'.repeat(10)}","password":"secret1"}`,
        '{"name":"admin","password":"secret1"',
        `{"name":"admin","password":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`,
      ].map((raw) => ({ raw, headers: json })),
      ...['name[a][b][c][d][e][f][g]=admin&password=x', 'name=admin&name=admin&password=adminpass', 'name=%ZZ&password=%', '&&&==', 'password[]=1&password[]=2&name=admin'].map((raw) => ({
        raw,
        headers: form,
      })),
      { raw: '\u0000\u0001garbage', headers: { 'Content-Type': 'text/plain' } },
    ];
    for (const c of cases) {
      const res = await t.request('POST', '/api/auth/me', c);
      const label = `${c.headers['Content-Type']} ${c.raw.slice(0, 60)}`;
      expect(res.status, label).toBeGreaterThanOrEqual(400);
      expect(res.status, label).toBeLessThan(500);
      expect(res.headers.get('content-type'), label).toMatch(/^application\/json/);
      const body = (await res.json()) as { error?: unknown };
      expect(typeof body.error, label).toBe('string');
    }
  });
});
