/**
 * The account page's routes: PUT /api/auth/me/password (own password with the current one; guests 403;
 * a wrong current password counts like a failed login), POST /api/auth/me/logout-all (every token of
 * the caller stops working), the `mustChangePassword` flag of the generated first admin password in
 * GET /api/auth/me, and both routes refused with auth off.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/app.js';

type Me = { user: { name: string; mustChangePassword?: boolean } };

describe('own password and log out everywhere', () => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer();
    await t.addUser('alice', 'alicepass', 'user');
    await t.addUser('bobby', 'bobbypass', 'user');
    await t.addUser('guesty', 'guestpass', 'guest');
  });
  afterAll(() => t.close());

  const me = (token: string) => t.json<Me>('GET', '/api/auth/me', { token });

  it('changes the own password with the current one; old tokens die, the answer carries a working one', async () => {
    const first = await t.login('alice', 'alicepass');
    const second = await t.login('alice', 'alicepass');
    const res = await t.json<{ token: string; message: string }>('PUT', '/api/auth/me/password', { token: first, body: { current: 'alicepass', password: 'alice-new-pass' } });
    expect(res.status).toBe(200);
    expect(typeof res.body.token).toBe('string');
    expect((await me(res.body.token)).status).toBe(200);
    for (const old of [first, second]) {
      const gone = await t.json<{ code: string }>('GET', '/api/auth/me', { token: old });
      expect(gone.status).toBe(401);
      expect(gone.body.code).toBe('SESSION_EXPIRED');
    }
    expect((await t.json('POST', '/api/auth/me', { body: { name: 'alice', password: 'alicepass' } })).status).toBe(401);
    await t.login('alice', 'alice-new-pass');
  });

  it('refuses bad input with 4xx and a code, changing nothing', async () => {
    const token = await t.login('bobby', 'bobbypass');
    const cases: [unknown, number, string][] = [
      [{ current: 'wrong-pass', password: 'bobby-new-pass' }, 403, 'CURRENT_PASSWORD_WRONG'],
      [{ password: 'bobby-new-pass' }, 422, 'CURRENT_PASSWORD_REQUIRED'],
      [{ current: 'bobbypass', password: 'abc' }, 422, 'PASSWORD_TOO_SHORT'],
      [{ current: 'bobbypass', password: 'x'.repeat(2000) }, 422, 'PASSWORD_TOO_LONG'],
      [{ current: 'bobbypass', password: 12345 }, 422, 'PASSWORD_TOO_SHORT'],
      [{ current: ['bobbypass'], password: 'bobby-new-pass' }, 422, 'CURRENT_PASSWORD_REQUIRED'],
    ];
    for (const [body, status, code] of cases) {
      const res = await t.json<{ error: string; code: string }>('PUT', '/api/auth/me/password', { token, body });
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.code, JSON.stringify(body)).toBe(code);
      expect(typeof res.body.error).toBe('string');
    }
    expect((await me(token)).status).toBe(200);
    await t.login('bobby', 'bobbypass');
  });

  it('refuses guests (403) and callers without a login (401)', async () => {
    const guest = await t.login('guesty', 'guestpass');
    const pw = await t.json<{ code: string }>('PUT', '/api/auth/me/password', { token: guest, body: { current: 'guestpass', password: 'guest-new-pass' } });
    expect(pw.status).toBe(403);
    expect(pw.body.code).toBe('GUEST_PASSWORD');
    const all = await t.json<{ code: string }>('POST', '/api/auth/me/logout-all', { token: guest });
    expect(all.status).toBe(403);
    expect(all.body.code).toBe('GUEST_LOGOUT_ALL');
    expect((await me(guest)).status).toBe(200);
    expect((await t.json('PUT', '/api/auth/me/password', { body: { current: 'x', password: 'yyyyyy' } })).status).toBe(401);
    expect((await t.json('POST', '/api/auth/me/logout-all')).status).toBe(401);
  });

  it('log out everywhere revokes every login and media token of the caller, and no one else’s', async () => {
    await t.addUser('carol', 'carolpass', 'user');
    const a = await t.login('carol', 'carolpass');
    const b = await t.login('carol', 'carolpass');
    const other = await t.login('bobby', 'bobbypass');
    const media = (await t.json<{ token: string }>('GET', '/api/auth/media-token', { token: b })).body.token;
    expect((await t.request('GET', `/api/cover/RJ000001?token=${media}`)).status).not.toBe(401);
    const res = await t.json('POST', '/api/auth/me/logout-all', { token: a });
    expect(res.status).toBe(200);
    for (const old of [a, b]) expect((await me(old)).status).toBe(401);
    expect((await t.request('GET', `/api/cover/RJ000001?token=${media}`)).status).toBe(401);
    expect((await me(other)).status).toBe(200);
    // the password still works: a new login is fine
    expect((await me(await t.login('carol', 'carolpass'))).status).toBe(200);
  });

  it('counts wrong current passwords like failed logins: 429 with Retry-After once over the limit', async () => {
    await t.addUser('dave1', 'davepass', 'user');
    const token = await t.login('dave1', 'davepass');
    let last = 0;
    let retryAfter: string | null = null;
    for (let i = 0; i < 12 && last !== 429; i++) {
      const res = await t.request('PUT', '/api/auth/me/password', { token, body: { current: `wrong-${i}`, password: 'dave-new-pass' } });
      last = res.status;
      retryAfter = res.headers.get('retry-after');
      expect([403, 429]).toContain(res.status);
    }
    expect(last).toBe(429);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    // the login of that name is braked too
    expect((await t.json('POST', '/api/auth/me', { body: { name: 'dave1', password: 'davepass' } })).status).toBe(429);
  });
});

describe('the generated first admin password', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  it('is flagged in GET /api/auth/me until the admin changes it', async () => {
    const { user, createdPassword } = await t.app.services.users.ensureAdmin();
    expect(createdPassword).toBeTruthy();
    const token = await t.login(user.name, createdPassword!);
    expect((await t.json<Me>('GET', '/api/auth/me', { token })).body.user.mustChangePassword).toBe(true);
    // another user made by the admin is not flagged
    await t.addUser('erin1', 'erinpass', 'user');
    expect((await t.json<Me>('GET', '/api/auth/me', { token: await t.login('erin1', 'erinpass') })).body.user.mustChangePassword).toBe(false);
    const changed = await t.json<{ token: string }>('PUT', '/api/auth/me/password', { token, body: { current: createdPassword, password: 'a-chosen-password' } });
    expect(changed.status).toBe(200);
    expect((await t.json<Me>('GET', '/api/auth/me', { token: changed.body.token })).body.user.mustChangePassword).toBe(false);
  });
});

describe('with auth off', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ flags: { auth: false } });
  });
  afterAll(() => t.close());

  it('has no accounts to manage: both routes answer 409 AUTH_DISABLED', async () => {
    const pw = await t.json<{ code: string }>('PUT', '/api/auth/me/password', { body: { current: 'whatever', password: 'whatever2' } });
    expect(pw.status).toBe(409);
    expect(pw.body.code).toBe('AUTH_DISABLED');
    const all = await t.json<{ code: string }>('POST', '/api/auth/me/logout-all');
    expect(all.status).toBe(409);
    expect(all.body.code).toBe('AUTH_DISABLED');
    expect((await t.json<Me>('GET', '/api/auth/me')).body.user.mustChangePassword).toBe(false);
  });
});
