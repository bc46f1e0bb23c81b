import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/app.js';

describe('reviews, progress and play history (writes)', () => {
  let t: TestServer;
  let alice: string;
  let guest: string;
  let bob: string;

  beforeAll(async () => {
    t = await startTestServer();
    await t.addUser('alice', 'secret1', 'user');
    await t.addUser('bobby', 'secret1', 'user');
    await t.addUser('guest1', 'secret1', 'guest');
    alice = await t.login('alice', 'secret1');
    bob = await t.login('bobby', 'secret1');
    guest = await t.login('guest1', 'secret1');
    for (const id of [123456, 1234567]) {
      await t.app.db.run("INSERT INTO works (id, code, title, root_folder, dir) VALUES (?, ?, ?, 'lib', ?)", [id, `RJ${id}`, `work ${id}`, `RJ${id}`]);
    }
  });
  afterAll(() => t.close());

  const review = (userId: number) => t.app.db.get<Record<string, unknown>>('SELECT rating, review_text, progress FROM reviews WHERE user_id = ? AND work_id = 123456', [userId]);
  const idOf = async (name: string) => (await t.app.repos.users.byName(name))!.id;

  it('sets a star rating (default mode) and clears it with null', async () => {
    const res = await t.json('PUT', '/api/review', { token: alice, body: { user_name: 'whoever', work_id: 123456, rating: 4 } });
    expect(res).toEqual({ status: 200, body: { message: '评价成功' } });
    expect(await review(await idOf('alice'))).toEqual({ rating: 4, review_text: null, progress: null });
    // another user's rating is their own
    expect(await review(await idOf('bobby'))).toBeUndefined();
    await t.json('PUT', '/api/review?starOnly=true', { token: alice, body: { work_id: 123456, rating: null } });
    expect(await review(await idOf('alice'))).toBeUndefined();
  });

  it('sets progress only, keeping the rating', async () => {
    await t.json('PUT', '/api/review', { token: alice, body: { work_id: 123456, rating: 5 } });
    const res = await t.json('PUT', '/api/review?starOnly=false&progressOnly=true', { token: alice, body: { work_id: 123456, progress: 'listening' } });
    expect(res).toEqual({ status: 200, body: { message: '更新进度成功' } });
    expect(await review(await idOf('alice'))).toEqual({ rating: 5, review_text: null, progress: 'listening' });
  });

  it('writes a full review (rating, text, progress) and deletes it', async () => {
    const res = await t.json('PUT', '/api/review?starOnly=false', { token: alice, body: { work_id: 123456, rating: 3, review_text: '良い作品', progress: 'listened' } });
    expect(res.status).toBe(200);
    expect(await review(await idOf('alice'))).toEqual({ rating: 3, review_text: '良い作品', progress: 'listened' });
    const del = await t.json('DELETE', '/api/review?work_id=123456', { token: alice });
    expect(del).toEqual({ status: 200, body: { message: '删除标记成功' } });
    expect(await review(await idOf('alice'))).toBeUndefined();
  });

  it('refuses bad review input with 400/404 and changes nothing', async () => {
    await t.json('PUT', '/api/review', { token: bob, body: { work_id: 123456, rating: 2 } });
    const cases: [string, unknown, number][] = [
      ['/api/review', { work_id: 123456, rating: 9 }, 400],
      ['/api/review', { work_id: 123456, rating: 0 }, 400],
      ['/api/review', { work_id: 123456, rating: 'five' }, 400],
      ['/api/review', { work_id: 123456 }, 400],
      ['/api/review', { rating: 3 }, 400],
      ['/api/review', { work_id: 'abc', rating: 3 }, 400],
      ['/api/review?starOnly=false&progressOnly=true', { work_id: 123456, progress: 'finished' }, 400],
      ['/api/review', { work_id: 999999, rating: 3 }, 404],
    ];
    for (const [path, body, status] of cases) {
      const res = await t.json<{ error: string }>('PUT', path, { token: bob, body });
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(typeof res.body.error).toBe('string');
    }
    expect(await review(await idOf('bobby'))).toEqual({ rating: 2, review_text: null, progress: null });
    expect((await t.json('DELETE', '/api/review', { token: bob })).status).toBe(400);
  });

  it('refuses ids and ratings of the wrong type instead of coercing them onto another work or rating', async () => {
    const aliceId = await idOf('alice');
    const state = { queue: [], index: 0, seconds: 7 };
    await t.json('PUT', '/api/review', { token: alice, body: { work_id: 123456, rating: 5 } });
    await t.json('PUT', '/api/histroy', { token: alice, body: { work_id: 123456, state } });
    // 0x1e240 = 1e5+23456 = 123456: each of these named work 123456 or rating 1/4 through Number()
    for (const body of [
      { work_id: 123456, rating: true },
      { work_id: 123456, rating: [4] },
      { work_id: 123456, rating: '0x1' },
      { work_id: [123456], rating: 1 },
      { work_id: '0x1e240', rating: 1 },
      { work_id: true, rating: 1 },
    ]) {
      const res = await t.json<{ error: string }>('PUT', '/api/review', { token: alice, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatch(/^参数 (work_id|rating) 无效/);
    }
    for (const q of ['work_id=0x1e240', 'work_id=123456e0', 'work_id=%20']) {
      const res = await t.json<{ error: string }>('DELETE', `/api/review?${q}`, { token: alice });
      expect(res.status, q).toBe(400);
      expect(res.body.error).toMatch(/^参数 work_id 无效/);
    }
    for (const work_id of ['0x1e240', [123456], '1.23456e5']) {
      const res = await t.json<{ error: string }>('DELETE', '/api/histroy', { token: alice, body: { work_id } });
      expect(res.status, JSON.stringify(work_id)).toBe(400);
      expect(res.body.error).toBe('参数 work_id 无效: 需要作品的数字 id');
    }
    expect(await review(aliceId)).toEqual({ rating: 5, review_text: null, progress: null });
    const row = await t.app.db.get<{ state: string }>('SELECT state FROM play_history WHERE user_id = ? AND work_id = 123456', [aliceId]);
    expect(JSON.parse(row!.state)).toEqual(state);
    // digit strings (query strings, form bodies) still work
    expect((await t.json('PUT', '/api/review', { token: alice, body: { work_id: '123456', rating: '2' } })).status).toBe(200);
    expect(await review(aliceId)).toEqual({ rating: 2, review_text: null, progress: null });
    expect((await t.json('DELETE', '/api/histroy', { token: alice, body: { work_id: '123456' } })).status).toBe(200);
    expect((await t.json('DELETE', '/api/review?work_id=123456', { token: alice })).status).toBe(200);
    expect(await review(aliceId)).toBeUndefined();
  });

  it('refuses every write from a guest with 403', async () => {
    expect((await t.json('PUT', '/api/review', { token: guest, body: { work_id: 123456, rating: 5 } })).status).toBe(403);
    expect((await t.json('DELETE', '/api/review?work_id=123456', { token: guest })).status).toBe(403);
    const state = { queue: [], index: 0, seconds: 0 };
    expect((await t.json('PUT', '/api/histroy', { token: guest, body: { work_id: 123456, state } })).status).toBe(403);
    expect((await t.json('DELETE', '/api/histroy', { token: guest, body: { work_id: 123456 } })).status).toBe(403);
    expect(await t.app.db.get('SELECT 1 FROM reviews WHERE user_id = ?', [await idOf('guest1')])).toBeUndefined();
  });

  it('stores the history state verbatim and deletes it with a JSON body', async () => {
    const state = {
      queue: [{ hash: '123456/3', title: '01 はじめに.mp3', subtitle: 'mp3', workTitle: 'work', extra: { nested: [1, 2] } }],
      index: 0,
      seconds: 12.5,
      clientField: 'kept',
    };
    const res = await t.json('PUT', '/api/histroy', { token: alice, body: { work_id: 123456, state } });
    expect(res).toEqual({ status: 200, body: { message: '更新历史成功' } });
    const row = await t.app.db.get<{ state: string }>('SELECT state FROM play_history WHERE user_id = ? AND work_id = 123456', [await idOf('alice')]);
    expect(JSON.parse(row!.state)).toEqual(state);
    const del = await t.json('DELETE', '/api/histroy', { token: alice, body: { work_id: 123456 } });
    expect(del).toEqual({ status: 200, body: { message: '删除历史记录成功' } });
    expect(await t.app.db.get('SELECT 1 FROM play_history WHERE work_id = 123456')).toBeUndefined();
  });

  it('refuses bad history input', async () => {
    const cases: [unknown, number][] = [
      [{ work_id: 123456, state: 'not an object' }, 400],
      [{ work_id: 123456, state: { queue: 'x', index: 0, seconds: 0 } }, 400],
      [{ work_id: 123456, state: { queue: [], index: -1, seconds: 0 } }, 400],
      [{ work_id: 123456 }, 400],
      [{ state: { queue: [], index: 0, seconds: 0 } }, 400],
      [{ work_id: 42, state: { queue: [], index: 0, seconds: 0 } }, 404],
    ];
    for (const [body, status] of cases) {
      const res = await t.json('PUT', '/api/histroy', { token: alice, body });
      expect(res.status, JSON.stringify(body)).toBe(status);
    }
    const big = { work_id: 123456, state: { queue: [{ title: 'x'.repeat(1_100_000) }], index: 0, seconds: 0 } };
    const res = await t.request('PUT', '/api/histroy', { token: alice, body: big });
    expect(res.status).toBe(413);
    expect(await t.app.db.get('SELECT 1 FROM play_history WHERE work_id = 123456')).toBeUndefined();
  });
});
