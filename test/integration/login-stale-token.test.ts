import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/app.js';
import { TokenService } from '../../server/auth/tokens.js';
import { loadOrCreateSecret } from '../../server/config/load.js';

/**
 * Clients send their stored token when they log in: the kikoeru web client (axios, JSON) and the
 * kikoeru-translate worker (python-requests, a form). A stale token there must not refuse a correct
 * login, and /api/health never looks at a token.
 */
describe('login ignores the Authorization header', () => {
  let t: TestServer;
  const stale: Record<string, string> = {};

  beforeAll(async () => {
    t = await startTestServer();
    await t.addUser('admin', 'adminpass', 'admin');
    await t.addUser('worker1', 'workerpass', 'user');
    const admin = await t.login('admin', 'adminpass');

    // revoked: issued before a password change
    stale.revoked = await t.login('worker1', 'workerpass');
    const change = await t.json('PUT', '/api/credentials/user', { token: admin, body: { name: 'worker1', newPassword: 'workerpass2' } });
    expect(change.status).toBe(200);
    // expired: signed with the server's own secret, 30 days and a minute ago
    const row = (await t.app.repos.users.byName('worker1'))!;
    stale.expired = new TokenService(loadOrCreateSecret(t.dataDir), () => -60).sign(row);
    // a revoked worker token
    stale.workerToken = (await t.app.services.workerTokens.create('old-worker')).token;
    await t.app.services.workerTokens.revoke('old-worker');
    stale.garbage = 'garbage';
    stale.jwtShaped = 'eyJhbGciOiJIUzI1NiJ9.e30.AAAA';

    for (const token of Object.values(stale)) expect((await t.json('GET', '/api/auth/me', { token })).status).toBe(401);
  });
  afterAll(() => t.close());

  /** The kikoeru web client: axios posting JSON with its stored token. */
  const webClientLogin = (authorization: string) =>
    t.request('POST', '/api/auth/me', {
      raw: JSON.stringify({ name: 'worker1', password: 'workerpass2' }),
      headers: { Accept: 'application/json, text/plain, */*', 'Content-Type': 'application/json;charset=utf-8', Authorization: authorization },
    });

  /** The kikoeru-translate worker: requests.post(url, data={...}, headers={'Authorization': 'Bearer ' + token}). */
  const workerLogin = (authorization: string) =>
    t.request('POST', '/api/auth/me', {
      raw: 'name=worker1&password=workerpass2',
      headers: { 'User-Agent': 'python-requests/2.31.0', 'Accept-Encoding': 'gzip, deflate', Accept: '*/*', 'Content-Type': 'application/x-www-form-urlencoded', Authorization: authorization },
    });

  const headers = () => [...Object.values(stale).map((token) => `Bearer ${token}`), 'Bearer ', 'Bearer null', 'Basic d29ya2VyMTp4', 'garbage'];

  it('logs the web client in (JSON) whatever stale token it sends', async () => {
    for (const authorization of headers()) {
      const res = await webClientLogin(authorization);
      expect(res.status, authorization).toBe(200);
      const { token } = (await res.json()) as { token: string };
      expect((await t.json('GET', '/api/auth/me', { token })).status).toBe(200);
    }
  });

  it('logs the worker in (form) with its revoked or expired saved token, and it can work again', async () => {
    for (const authorization of headers()) {
      const res = await workerLogin(authorization);
      expect(res.status, authorization).toBe(200);
      const { token } = (await res.json()) as { token: string };
      // the worker's next calls: its login check, then the queue (empty: 404)
      expect((await t.json('GET', '/api/auth/me', { token })).status).toBe(200);
      const acquire = await t.request('POST', '/api/lyric/translate/acquire', {
        raw: 'worker_name=default_worker',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: `Bearer ${token}` },
      });
      expect(acquire.status).toBe(404);
    }
  });

  it('still refuses a wrong password with 401, a stale token or not', async () => {
    const res = await t.request('POST', '/api/auth/me', {
      raw: 'name=worker1&password=workerpass',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: `Bearer ${stale.expired}` },
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: '用户名或密码错误.', code: 'WRONG_CREDENTIALS' });
  });

  it('answers /api/health whatever token comes along', async () => {
    for (const authorization of headers()) {
      const res = await t.request('GET', `/api/health?token=${encodeURIComponent(stale.expired)}`, { headers: { Authorization: authorization } });
      expect(res.status, authorization).toBe(200);
      expect(await res.text()).toBe('OK');
    }
  });
});
