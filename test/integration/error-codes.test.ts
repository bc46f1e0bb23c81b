/**
 * Issue 21 (API): every error body keeps the spec's `error` text and adds a stable `code` (with `field`
 * and `params` where the web app needs them to rebuild the sentence), on the real app.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/app.js';
import { USER_DATA_LIMITS, USER_DATA_MSG } from '../../server/services/user-data-service.js';
import { MSG } from '../../server/services/users-service.js';
import { isApiErrorCode } from '../../server/domain/error-codes.js';

const WORK = 314159;

describe('error codes in error bodies', () => {
  let t: TestServer;
  let user: string;
  let guest: string;

  beforeAll(async () => {
    t = await startTestServer();
    await t.addUser('alice', 'alicepass', 'user');
    await t.addUser('guest1', 'guestpass', 'guest');
    user = await t.login('alice', 'alicepass');
    guest = await t.login('guest1', 'guestpass');
    await t.app.db.run("INSERT INTO works (id, code, title, root_folder, dir) VALUES (?, ?, '作品', 'lib', ?)", [WORK, `RJ${WORK}`, `RJ${WORK}`]);
  });
  afterAll(() => t.close());

  it('a too short login answers 422 with a code per field, the field and the minimum', async () => {
    const res = await t.json('POST', '/api/auth/me', { body: { name: 'abcd', password: '1234' } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      error: '用户名长度至少为 5',
      code: 'USERNAME_TOO_SHORT',
      field: 'name',
      params: { min: 5 },
      errors: [
        { msg: '用户名长度至少为 5', param: 'name', location: 'body', code: 'USERNAME_TOO_SHORT', params: { min: 5 } },
        { msg: '密码长度至少为 5', param: 'password', location: 'body', code: 'PASSWORD_TOO_SHORT', params: { min: 5 } },
      ],
    });
  });

  it('wrong credentials: 401 WRONG_CREDENTIALS with the kikoeru text', async () => {
    const res = await t.json('POST', '/api/auth/me', { body: { name: 'alice', password: 'wrongpass' } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: MSG.wrongCredentials, code: 'WRONG_CREDENTIALS' });
  });

  it('too many attempts: 429 TOO_MANY_ATTEMPTS with the seconds of Retry-After', async () => {
    for (let i = 0; i < 10; i++) await t.json('POST', '/api/auth/me', { body: { name: 'nobody1', password: `wrong${i}x` } });
    const res = await t.request('POST', '/api/auth/me', { body: { name: 'nobody1', password: 'whatever' } });
    expect(res.status).toBe(429);
    const seconds = Number(res.headers.get('retry-after'));
    expect(seconds).toBeGreaterThan(0);
    expect(await res.json()).toEqual({ error: `${MSG.tooManyAttempts}（${seconds} 秒后）`, code: 'TOO_MANY_ATTEMPTS', params: { seconds } });
  });

  it('an unknown work: 404 WORK_NOT_FOUND naming the work code', async () => {
    const res = await t.json('GET', '/api/work/424242', { token: user });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: '作品 RJ424242 不存在', code: 'WORK_NOT_FOUND', params: { work: 'RJ424242' } });
  });

  it('a guest write: 403 GUEST_READ_ONLY', async () => {
    const res = await t.json('PUT', '/api/review', { token: guest, body: { work_id: WORK, rating: 4 } });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: '游客账号只能浏览和播放，不能进行此操作.', code: 'GUEST_READ_ONLY' });
  });

  it('an oversized play state: 413 STATE_TOO_LARGE with the limit', async () => {
    const state = { queue: [{ title: 'x'.repeat(USER_DATA_LIMITS.stateBytes) }], index: 0, seconds: 0 };
    const res = await t.json('PUT', '/api/histroy', { token: user, body: { work_id: WORK, state } });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: USER_DATA_MSG.stateTooLarge, code: 'STATE_TOO_LARGE', params: { kb: 256 } });
  });

  it('a body that is not JSON: 400 INVALID_JSON, nothing of the input echoed', async () => {
    const res = await t.request('POST', '/api/auth/me', { raw: '{"name": echo-me', headers: { 'Content-Type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: '请求体不是有效的 JSON', code: 'INVALID_JSON' });
  });

  it('an unknown route: 404 ROUTE_NOT_FOUND', async () => {
    const res = await t.json('GET', '/api/nope', { token: user });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: '接口不存在', code: 'ROUTE_NOT_FOUND' });
  });

  it('a bad query parameter: 400 FIELD_INVALID naming the field', async () => {
    const res = await t.json<{ error: string; code: string; field: string }>('GET', '/api/works?page=abc', { token: user });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'FIELD_INVALID', field: 'page' });
    expect(res.body.error).toMatch(/^参数 page 无效/);
  });

  it('no token: 401 TOKEN_MISSING with the kikoeru text', async () => {
    const res = await t.json('GET', '/api/works');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'No authorization token was found', code: 'TOKEN_MISSING' });
  });

  it('a name already taken: 422 NAME_TAKEN on the name field', async () => {
    await t.addUser('admin', 'adminpass', 'admin');
    const admin = await t.login('admin', 'adminpass');
    const res = await t.json<{ code: string; field: string; errors: { code?: string }[] }>('POST', '/api/credentials/user', {
      token: admin,
      body: { name: 'alice', password: 'secret1', group: 'user' },
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: MSG.nameTaken, code: 'NAME_TAKEN', field: 'name', errors: [{ msg: MSG.nameTaken, param: 'name', location: 'body', code: 'NAME_TAKEN' }] });
    expect(isApiErrorCode(res.body.code)).toBe(true);
  });
});
