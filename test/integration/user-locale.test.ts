/**
 * The web app's interface language saved on the account: PUT /api/auth/me/locale and the `locale`
 * field of GET /api/auth/me (null until chosen). Guests may save theirs; anything but en / ja / zh-CN
 * is a 400 `{ error }`; without a login a 401.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/app.js';

describe('PUT /api/auth/me/locale', () => {
  let t: TestServer;
  let alice: string;
  let guest: string;

  beforeAll(async () => {
    t = await startTestServer();
    await t.addUser('alice', 'alicepass', 'user');
    await t.addUser('guesty', 'guestpass', 'guest');
    alice = await t.login('alice', 'alicepass');
    guest = await t.login('guesty', 'guestpass');
  });
  afterAll(() => t.close());

  const me = async (token: string) => (await t.json<{ user: { name: string; locale: string | null } }>('GET', '/api/auth/me', { token })).body.user;

  it('is null until chosen, then reads back in GET /api/auth/me, per user', async () => {
    expect((await me(alice)).locale).toBeNull();
    const set = await t.json('PUT', '/api/auth/me/locale', { token: alice, body: { locale: 'ja' } });
    expect(set).toEqual({ status: 200, body: { locale: 'ja' } });
    expect(await me(alice)).toMatchObject({ name: 'alice', locale: 'ja' });
    expect((await me(guest)).locale).toBeNull();
    expect((await t.json('PUT', '/api/auth/me/locale', { token: alice, body: { locale: 'zh-CN' } })).status).toBe(200);
    expect((await me(alice)).locale).toBe('zh-CN');
  });

  it('lets a guest save theirs, and the token stays valid', async () => {
    expect((await t.json('PUT', '/api/auth/me/locale', { token: guest, body: { locale: 'en' } })).status).toBe(200);
    expect((await me(guest)).locale).toBe('en');
  });

  it('refuses anything but en, ja and zh-CN with 400 { error }, keeping the saved one', async () => {
    for (const locale of ['fr', 'zh-cn', 'EN', '', null, 1, ['en']]) {
      const res = await t.json<{ error?: string }>('PUT', '/api/auth/me/locale', { token: alice, body: { locale } });
      expect(res.status, JSON.stringify(locale)).toBe(400);
      expect(res.body).toEqual({ error: expect.stringContaining('locale'), code: 'FIELD_INVALID', field: 'locale' });
    }
    expect((await t.json('PUT', '/api/auth/me/locale', { token: alice, body: {} })).status).toBe(400);
    expect((await me(alice)).locale).toBe('zh-CN');
  });

  it('needs a login: 401 without a token', async () => {
    const res = await t.json('PUT', '/api/auth/me/locale', { body: { locale: 'en' } });
    expect(res.status).toBe(401);
    expect(res.body).toHaveProperty('error');
  });
});
