/**
 * "My ratings / my progress" (`GET /api/review`) and play history (`GET /api/histroy`) lists: list-form
 * works plus the user's own review or play state, real dates, every favourites sort field, filters,
 * paging, bad parameters, and the relative-URL aliases the kikoeru web client requests.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, tempDir, type TestServer } from '../helpers/app.js';
import { seedWorks } from '../helpers/seed.js';

interface ListBody {
  works: Record<string, unknown>[];
  pagination: { currentPage: number; pageSize: number; totalCount: number };
  error?: string;
}

const W = {
  a: 100001, // R18, released 2020, many downloads
  b: 100002, // all ages, released 2022
  c: 100003, // R18, released 2021
  d: 100004, // all ages, released 2019, missing folder
  e: 100005, // not reviewed by alice
};

describe('review and history lists', () => {
  let t: TestServer;
  let web: string;
  let alice: string;
  let bob: string;
  let guest: string;
  let aliceId: number;

  const get = (p: string, token = alice) => t.json<ListBody>('GET', p, { token });
  const ids = (body: ListBody) => body.works.map((w) => w.id);

  beforeAll(async () => {
    web = tempDir('kikoplay-web-');
    mkdirSync(path.join(web, 'assets'), { recursive: true });
    writeFileSync(path.join(web, 'index.html'), '<!doctype html><title>kikoplay</title>');
    t = await startTestServer({ webRoot: web });
    await t.addUser('alice', 'secret1', 'user');
    await t.addUser('bobby', 'secret1', 'user');
    await t.addUser('guest1', 'secret1', 'guest');
    alice = await t.login('alice', 'secret1');
    bob = await t.login('bobby', 'secret1');
    guest = await t.login('guest1', 'secret1');
    aliceId = (await t.app.repos.users.byName('alice'))!.id;

    await seedWorks(t.app.db, [
      {
        id: W.a,
        title: 'Work A',
        nsfw: true,
        release: '2020-01-01',
        dl_count: 500,
        review_count: 3,
        circle: { id: 11, name: 'Circle One' },
        tags: [{ id: 5, name: 'tag five' }],
        vas: [{ id: 'va-1', name: 'VA One' }],
      },
      { id: W.b, title: 'Work B', nsfw: false, release: '2022-01-01', dl_count: 100, review_count: 9 },
      { id: W.c, title: 'Work C', nsfw: true, release: '2021-01-01', dl_count: 300, review_count: 1 },
      { id: W.d, title: 'Work D', nsfw: false, release: '2019-01-01', dl_count: 50, review_count: 5, missing: true },
      { id: W.e, title: 'Work E', release: '2018-01-01' },
    ]);

    // alice's marks, written through the API
    const put = async (q: string, body: Record<string, unknown>, token = alice) => {
      const res = await t.json('PUT', `/api/review${q}`, { token, body });
      expect(res.status).toBe(200);
    };
    await put('', { work_id: W.a, rating: 3 });
    await put('?starOnly=false', { work_id: W.b, rating: 5, review_text: 'すごく良い', progress: 'listened' });
    await put('?starOnly=false&progressOnly=true', { work_id: W.c, progress: 'listening' });
    await put('?starOnly=false&progressOnly=true', { work_id: W.d, progress: 'listening' });
    await put('', { work_id: W.e, rating: 1 }, bob);
    // distinct, known review times (the API writes "now")
    const at: [number, string][] = [
      [W.a, '2024-01-10 08:00:00'],
      [W.b, '2024-03-05 12:30:00'],
      [W.c, '2024-02-01 23:59:59'],
      [W.d, '2023-12-31 00:00:01'],
    ];
    for (const [id, ts] of at) await t.app.db.run('UPDATE reviews SET updated_at = ? WHERE user_id = ? AND work_id = ?', [ts, aliceId, id]);

    const state = (title: string, seconds: number) => ({ queue: [{ hash: `${W.a}/0`, title, workTitle: 'Work A' }], index: 0, seconds });
    for (const [id, s] of [
      [W.a, state('track A', 12.5)],
      [W.b, state('track B', 3)],
      [W.e, state('track E', 40)],
    ] as const) {
      const res = await t.json('PUT', '/api/histroy', { token: alice, body: { work_id: id, state: s } });
      expect(res.status).toBe(200);
    }
    await t.app.db.run("UPDATE play_history SET updated_at = '2024-04-01 10:00:00' WHERE user_id = ? AND work_id = ?", [aliceId, W.a]);
    await t.app.db.run("UPDATE play_history SET updated_at = '2024-04-03 10:00:00' WHERE user_id = ? AND work_id = ?", [aliceId, W.b]);
    await t.app.db.run("UPDATE play_history SET updated_at = '2024-04-02 10:00:00' WHERE user_id = ? AND work_id = ?", [aliceId, W.e]);
  });
  afterAll(async () => {
    await t?.close();
    rmSync(web, { recursive: true, force: true });
  });

  describe('GET /api/review', () => {
    it('lists the user own marked works, newest mark first, with the review and real dates', async () => {
      const res = await get('/api/review');
      expect(res.status).toBe(200);
      expect(ids(res.body)).toEqual([W.b, W.c, W.a, W.d]);
      expect(res.body.pagination).toEqual({ currentPage: 1, pageSize: 12, totalCount: 4 });
      const b = res.body.works[0];
      expect(b).toMatchObject({
        id: W.b,
        title: 'Work B',
        userRating: 5,
        review_text: 'すごく良い',
        progress: 'listened',
        user_name: 'alice',
        updated_at: '2024-03-05',
        review_updated_at: '2024-03-05 12:30:00',
        nsfw: false,
        release: '2022-01-01',
      });
      const a = res.body.works.find((w) => w.id === W.a)!;
      // the list form is complete: circle, tags, vas, lyric status, duration
      expect(a).toMatchObject({
        circle: { id: 11, name: 'Circle One' },
        name: 'Circle One',
        circle_id: 11,
        tags: [{ id: 5, name: 'tag five' }],
        vas: [{ id: 'va-1', name: 'VA One' }],
        userRating: 3,
        progress: null,
        review_text: null,
        updated_at: '2024-01-10',
      });
      expect(a).toHaveProperty('lyric_status');
      expect(a).toHaveProperty('memo');
    });

    it('sorts by every favourites field, ascending and descending', async () => {
      const order = async (q: string) => ids((await get(`/api/review?${q}`)).body);
      expect(await order('order=updated_at&sort=asc')).toEqual([W.d, W.a, W.c, W.b]);
      // rated works first by stars; unrated last in both directions
      expect(await order('order=userRating&sort=desc')).toEqual([W.b, W.a, W.c, W.d]);
      expect((await order('order=userRating&sort=asc')).slice(0, 2)).toEqual([W.a, W.b]);
      expect(await order('order=release&sort=desc')).toEqual([W.b, W.c, W.a, W.d]);
      expect(await order('order=release&sort=asc')).toEqual([W.d, W.a, W.c, W.b]);
      expect(await order('order=review_count&sort=desc')).toEqual([W.b, W.d, W.a, W.c]);
      expect(await order('order=dl_count&sort=desc')).toEqual([W.a, W.c, W.b, W.d]);
      expect(await order('order=dl_count&sort=asc')).toEqual([W.d, W.b, W.c, W.a]);
      // R18 first / all ages first (ties by the mark's time, newest first)
      expect(await order('order=nsfw&sort=desc')).toEqual([W.c, W.a, W.b, W.d]);
      expect(await order('order=nsfw&sort=asc')).toEqual([W.b, W.d, W.c, W.a]);
      expect(await order('order=allage&sort=desc')).toEqual([W.b, W.d, W.c, W.a]);
      expect(await order('order=allage&sort=asc')).toEqual([W.c, W.a, W.b, W.d]);
    });

    it('filters by progress state', async () => {
      const res = await get('/api/review?filter=listening&order=updated_at&sort=desc');
      expect(ids(res.body)).toEqual([W.c, W.d]);
      expect(res.body.pagination.totalCount).toBe(2);
      expect(res.body.works.every((w) => w.progress === 'listening')).toBe(true);
      expect(ids((await get('/api/review?filter=postponed')).body)).toEqual([]);
      // an empty filter means no filter (the Android client sends it)
      expect(ids((await get('/api/review?filter=')).body)).toHaveLength(4);
    });

    it('pages with the real total, and past the end answers an empty page', async () => {
      const p1 = await get('/api/review?pageSize=3&page=1');
      const p2 = await get('/api/review?pageSize=3&page=2');
      expect([...ids(p1.body), ...ids(p2.body)]).toEqual([W.b, W.c, W.a, W.d]);
      expect(p2.body.pagination).toEqual({ currentPage: 2, pageSize: 3, totalCount: 4 });
      const past = await get('/api/review?page=9');
      expect(past.body).toEqual({ works: [], pagination: { currentPage: 9, pageSize: 12, totalCount: 4 } });
      // the Android client's query
      expect((await get('/api/review?order=updated_at&sort=desc&page=1&seed=35')).status).toBe(200);
    });

    it('answers 400 {error} for bad parameters', async () => {
      for (const q of ['order=title', 'order=1;DROP TABLE reviews', 'sort=up', 'filter=done', 'page=0', 'page=-1', 'page=abc', 'pageSize=0', 'pageSize=1000', 'seed=x']) {
        const res = await get(`/api/review?${q}`);
        expect(res.status, q).toBe(400);
        expect(typeof res.body.error, q).toBe('string');
      }
      expect((await t.app.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM reviews'))!.n).toBe(5);
    });

    it('shows each user only their own marks; guests get an empty list; no token is a 401', async () => {
      const b = await get('/api/review', bob);
      expect(ids(b.body)).toEqual([W.e]);
      expect(b.body.works[0]).toMatchObject({ user_name: 'bobby', userRating: 1 });
      const g = await get('/api/review', guest);
      expect(g.status).toBe(200);
      expect(g.body.works).toEqual([]);
      const anon = await t.json('GET', '/api/review');
      expect(anon.status).toBe(401);
    });
  });

  describe('GET /api/histroy', () => {
    it('lists played works newest first with the parsed state and real dates, without userRating', async () => {
      const res = await get('/api/histroy');
      expect(res.status).toBe(200);
      expect(ids(res.body)).toEqual([W.b, W.e, W.a]);
      expect(res.body.pagination).toEqual({ currentPage: 1, pageSize: 12, totalCount: 3 });
      const a = res.body.works[2];
      expect(a).toMatchObject({
        id: W.a,
        title: 'Work A',
        play_updated_at: '2024-04-01',
        updated_at: '2024-04-01',
        state: { queue: [{ hash: `${W.a}/0`, title: 'track A', workTitle: 'Work A' }], index: 0, seconds: 12.5 },
      });
      expect(res.body.works.every((w) => !('userRating' in w))).toBe(true);
    });

    it('sorts ascending, pages, and ignores order', async () => {
      expect(ids((await get('/api/histroy?sort=asc')).body)).toEqual([W.a, W.e, W.b]);
      expect(ids((await get('/api/histroy?page=2&pageSize=2&order=release')).body)).toEqual([W.a]);
    });

    it('answers 400 for bad parameters and keeps users apart', async () => {
      for (const q of ['sort=newest', 'page=0', 'page=x', 'pageSize=-3']) {
        const res = await get(`/api/histroy?${q}`);
        expect(res.status, q).toBe(400);
        expect(typeof res.body.error).toBe('string');
      }
      expect((await get('/api/histroy', bob)).body.works).toEqual([]);
      expect((await t.json('GET', '/api/histroy')).status).toBe(401);
    });
  });

  describe('relative URL aliases of the web client', () => {
    it('answers /favourites/**/api/review and /api/histroy GETs as the API (not the SPA shell)', async () => {
      const want = (await get('/api/review?order=release&sort=asc')).body;
      for (const p of ['/favourites/api/review', '/favourites/review/api/review', '/favourites/progress/api/review', '/favourites/progress/listening/api/review']) {
        const res = await t.request('GET', `${p}?order=release&sort=asc`, { token: alice, headers: { Accept: 'application/json, text/plain, */*' } });
        expect(res.status, p).toBe(200);
        expect(res.headers.get('content-type'), p).toMatch(/json/);
        expect(await res.json(), p).toEqual(want);
      }
      const filtered = await t.json<ListBody>('GET', '/favourites/progress/listening/api/review?filter=listening', { token: alice });
      expect(ids(filtered.body)).toEqual([W.c, W.d]);
      const hist = await t.request('GET', '/favourites/histroy/api/histroy', { token: alice, headers: { Accept: '*/*' } });
      expect(((await hist.json()) as ListBody).works.map((w) => w.id)).toEqual([W.b, W.e, W.a]);
      // the alias is only for GETs, and needs a token like the API
      expect((await t.request('GET', '/favourites/api/review', { headers: { Accept: '*/*' } })).status).toBe(401);
      const html = await t.request('GET', '/favourites/progress', { headers: { Accept: 'text/html' } });
      expect(await html.text()).toContain('<title>kikoplay</title>');
    });
  });
});
