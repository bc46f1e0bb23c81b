/**
 * Error bodies never repeat what the client sent (docs/SECURITY.md#bounds): each request below carries a
 * marker in the value it gets wrong, on the real app, and the answer is a 4xx without the marker. Lists
 * of ids that the server itself parsed are named, but only the first few of them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/app.js';

const MARK = 'echo-mark';
const LONG = `${MARK}-${'x'.repeat(3000)}`;
const WORK = 314159;

describe('error bodies do not echo input', () => {
  let t: TestServer;
  let admin: string;
  let user: string;
  let apiKey: string;

  beforeAll(async () => {
    t = await startTestServer();
    await t.addUser('admin2', 'admin2pass', 'admin');
    await t.addUser('alice', 'alicepass', 'user');
    admin = await t.login('admin2', 'admin2pass');
    user = await t.login('alice', 'alicepass');
    const made = await t.json<{ key: string }>('POST', '/api/auth/me/subsonic/keys', { token: user, body: { name: 'phone' } });
    expect(made.status).toBe(201);
    apiKey = made.body.key;
    await t.app.db.run("INSERT INTO works (id, code, title, root_folder, dir) VALUES (?, ?, '作品', 'lib', ?)", [WORK, `RJ${WORK}`, `RJ${WORK}`]);
  });
  afterAll(() => t.close());

  const cases: [string, () => Promise<Response>][] = [
    ['an unknown sort order', () => t.request('GET', `/api/works?order=${LONG}`, { token: user })],
    ['an unknown lyric filter', () => t.request('GET', `/api/works?lyric=local_${LONG}`, { token: user })],
    ['an unknown AI task status', () => t.request('GET', `/api/lyric/translate?page=1&status=${encodeURIComponent(JSON.stringify([LONG]))}`, { token: user })],
    ['a work code condition that is not one', () => t.request('GET', `/api/search?isAdvance=1&keyword=${encodeURIComponent(JSON.stringify([{ t: 5, d: MARK }]))}`, { token: user })],
    ['an unknown voice actor', () => t.request('GET', `/api/vas/${MARK}`, { token: user })],
    ['an unknown route', () => t.request('GET', `/api/${LONG}`, { token: user })],
    ['an unknown Subsonic key name', () => t.request('DELETE', `/api/auth/me/subsonic/keys/${MARK}`, { token: user })],
    ['an unknown Subsonic album list type', () => t.request('GET', `/rest/getAlbumList2?apiKey=${apiKey}&f=json&v=1.16.1&c=test&type=${LONG}`)],
    ['an unknown Subsonic method', () => t.request('GET', `/rest/${MARK}?apiKey=${apiKey}&f=json&v=1.16.1&c=test`)],
    ['an unknown voice actor in an edit', () => t.request('POST', `/api/edit/work/${WORK}`, { token: admin, body: { vas: [{ id: MARK, name: 'someone' }] } })],
  ];

  it.each(cases)('%s', async (_what, send) => {
    const res = await send();
    const text = await res.text();
    // Subsonic answers its errors with 200 and a failed status, as its clients expect
    if (res.url.includes('/rest/')) expect(JSON.parse(text)['subsonic-response'].status).toBe('failed');
    else expect(res.status >= 400 && res.status < 500, `status ${res.status}`).toBe(true);
    expect(text).not.toContain(MARK);
    expect(text.length).toBeLessThan(1000);
  });

  it('10,000 unknown AI task ids: the first five are named, with the count', async () => {
    const idArr = Array.from({ length: 10_000 }, (_, i) => 900_000 + i);
    const res = await t.json<{ error: string }>('POST', '/api/lyric/translate/redo/1', { token: admin, body: { idArr } });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('没有找到翻译任务 id=1, 900000, 900001, 900002, 900003 等 10001 个');
  });
});
