/**
 * Work lists, search, labels, detail and tracks against a seeded library whose every field is known,
 * so orders, filters, counts and shapes can be asserted exactly (docs/API.md#work-lists-and-search).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/app.js';
import { seedWorks, type SeedWork } from '../helpers/seed.js';
import type { WorkDetail, WorkListItem, WorksPage } from '../../server/contract/works.js';
import type { LabelItem } from '../../server/contract/labels.js';
import type { TrackNode } from '../../server/contract/tracks.js';

const C1 = { id: 1001, name: '月下工房' };
const C2 = { id: 1002, name: 'Studio Hoshizora' };
const C3 = { id: 1003, name: '暁書房' };
const T_EAR = { id: 497, name: '耳かき' };
const T_HEAL = { id: 1031, name: '癒し' };
const T_SLEEP = { id: 54, name: '添い寝' };
const V1 = { id: 'a3f1c0de-0000-5000-8000-000000000001', name: '藤堂ゆい' };
const V2 = { id: 'a3f1c0de-0000-5000-8000-000000000002', name: '小鳥遊みく' };
const V3 = { id: 'a3f1c0de-0000-5000-8000-000000000003', name: '星野あかり' };
const BJ = 1_000_000_234_567;

const WORKS: SeedWork[] = [
  {
    id: 100001,
    title: '癒しの耳かきボイス',
    circle: C1,
    tags: [T_HEAL, T_EAR],
    vas: [V1],
    nsfw: true,
    release: '2021-03-05',
    dl_count: 500,
    price: 1320,
    review_count: 56,
    rate_count: 1234,
    rate_average_2dp: 4.71,
    rate_count_detail: [{ review_point: 5, count: 1004, ratio: 81 }],
    rank: [{ term: 'day', category: 'voice', rank: 3, rank_date: '2021-03-06' }],
    related: [
      { id: 100001, name: '日本語' },
      { id: 100007, name: '简体中文' },
      { id: 999999, name: 'English' },
    ],
    has_local_lyric: true,
    created_at: '2024-01-01 10:00:00',
    files: [
      { path: 'mp3/track10.mp3', duration: 10 },
      { path: 'mp3/track2.mp3', duration: 2.5 },
      { path: 'mp3/track1.lrc' },
      { path: 'mp3/SEなし/track1.mp3', duration: 1 },
      { path: 'mp3/SEなし/unknown.mp3', duration: null },
      { path: 'readme.txt' },
      { path: 'cover.jpg' },
      { path: 'a.pdf' },
    ],
  },
  {
    id: 100002,
    title: 'ねむりの森の添い寝',
    circle: C1,
    tags: [T_SLEEP],
    vas: [V1, V2],
    nsfw: false,
    release: '2022-01-10',
    dl_count: 1500,
    price: 880,
    review_count: 3,
    rate_average_2dp: 4.2,
    has_ai_lyric: true,
    created_at: '2024-01-02 10:00:00',
  },
  {
    id: 1234567,
    title: '星降る夜のプラネタリウム',
    circle: C2,
    tags: [T_HEAL],
    vas: [V3],
    nsfw: false,
    release: '2023-11-22',
    dl_count: 987,
    price: 550,
    review_count: 2,
    rate_average_2dp: 4.55,
    has_local_lyric: true,
    has_ai_lyric: true,
    created_at: '2024-01-03 10:00:00',
  },
  { id: BJ, title: '夜明けの書架 第1巻', circle: C3, nsfw: true, release: '2020-06-30', dl_count: 50, price: 700, review_count: 9, rate_average_2dp: 3.9, created_at: '2024-01-04 10:00:00' },
  { id: 100005, title: 'Ear Cleaning ASMR', circle: C2, tags: [T_EAR], vas: [V2], nsfw: false, release: '', dl_count: 0, price: 0, created_at: '2024-01-05 10:00:00' },
  { id: 100006, title: '消えた作品 耳かき', circle: C1, tags: [T_EAR], vas: [V1], missing: true, release: '2025-01-01', created_at: '2024-01-06 10:00:00' },
  {
    id: 100007,
    title: '治愈的掏耳朵（简体中文版）',
    circle: C1,
    tags: [T_HEAL],
    vas: [V1],
    nsfw: true,
    release: '2021-04-01',
    dl_count: 100,
    price: 1320,
    review_count: 1,
    rate_average_2dp: 4.8,
    created_at: '2024-01-07 10:00:00',
  },
];

const VISIBLE = WORKS.filter((w) => !w.missing);

type Q = Record<string, string | number>;
const qs = (q: Q) => new URLSearchParams(Object.entries(q).map(([k, v]): [string, string] => [k, String(v)])).toString();

/** Expected id order for a column sort: key, then release, then id, all in one direction. */
function expectedOrder(key: keyof SeedWork, dir: 'asc' | 'desc', works = VISIBLE): number[] {
  const val = (w: SeedWork, k: keyof SeedWork) => (w[k] ?? (k === 'release' ? '' : 0)) as string | number;
  const keys: (keyof SeedWork)[] = key === 'release' || key === 'created_at' ? [key, 'id'] : key === 'id' ? ['id'] : [key, 'release', 'id'];
  const sorted = [...works].sort((a, b) => {
    for (const k of keys) {
      const x = val(a, k);
      const y = val(b, k);
      if (x < y) return -1;
      if (x > y) return 1;
    }
    return 0;
  });
  return (dir === 'asc' ? sorted : sorted.reverse()).map((w) => w.id);
}

describe('browse: work lists, search, labels, detail, tracks', () => {
  let t: TestServer;
  let token: string;
  let otherToken: string;
  let userId: number;

  const get = async <T = WorksPage>(path: string, tok = token) => t.json<T>('GET', path, { token: tok });
  const ids = (page: WorksPage) => page.works.map((w) => w.id);

  beforeAll(async () => {
    t = await startTestServer({ flags: { rootFolders: [{ name: 'lib', path: '/nonexistent-lib' }] } });
    await t.addUser('alice', 'alicepass', 'user');
    await t.addUser('bobby', 'bobbypass', 'user');
    token = await t.login('alice', 'alicepass');
    otherToken = await t.login('bobby', 'bobbypass');
    userId = (await t.app.repos.users.byName('alice'))!.id;
    await seedWorks(t.app.db, WORKS);
    await t.app.db.run("INSERT INTO reviews (user_id, work_id, rating, review_text, progress, updated_at) VALUES (?, 100005, 5, 'great', 'listened', '2024-05-01 12:00:00')", [userId]);
    await t.app.db.run("INSERT INTO reviews (user_id, work_id, rating, updated_at) VALUES (?, 100001, 3, '2024-05-02 12:00:00')", [userId]);
    await t.app.db.run("INSERT INTO reviews (user_id, work_id, rating, progress) VALUES (?, 100002, NULL, 'marked')", [userId]);
    await t.app.db.run(`INSERT INTO play_history (user_id, work_id, state, updated_at) VALUES (?, 100001, '{"queue":[{"hash":"100001/0"}],"index":0,"seconds":12.5}', '2024-06-01 08:00:00')`, [
      userId,
    ]);
  });
  afterAll(() => t?.close());

  describe('GET /api/works', () => {
    it('lists visible works newest release first with the list-form shape', async () => {
      const res = await get('/api/works');
      expect(res.status).toBe(200);
      expect(ids(res.body)).toEqual(expectedOrder('release', 'desc'));
      expect(res.body.pagination).toEqual({ currentPage: 1, pageSize: 12, totalCount: VISIBLE.length });
      const w = res.body.works.find((x) => x.id === 100001)!;
      expect(w).toEqual({
        id: 100001,
        code: 'RJ100001',
        created_at: '2024-01-01 10:00:00',
        updated_at: '2024-01-01 10:00:00',
        title: '癒しの耳かきボイス',
        circle_id: 1001,
        name: '月下工房',
        nsfw: true,
        release: '2021-03-05',
        dl_count: 500,
        price: 1320,
        review_count: 56,
        rate_count: 1234,
        rate_average_2dp: 4.71,
        rate_count_detail: [{ review_point: 5, count: 1004, ratio: 81 }],
        rank: [{ term: 'day', category: 'voice', rank: 3, rank_date: '2021-03-06' }],
        lyric_status: 'local',
        userRating: 3,
        circle: { id: 1001, name: '月下工房' },
        vas: [{ id: V1.id, name: '藤堂ゆい' }],
        tags: [
          { id: 497, name: '耳かき' },
          { id: 1031, name: '癒し' },
        ],
        memo: { totalDuration: 13.5 },
        relatedWorks: [
          { id: 100001, name: '日本語' },
          { id: 100007, name: '简体中文' },
        ],
        metadata_status: 'ok',
        metadata_error: null,
      } satisfies WorkListItem);
    });

    it('sends empty tag and voice actor lists (no placeholder) and real codes for BJ and 8-digit ids', async () => {
      const res = await get('/api/works?order=id&sort=desc');
      const bj = res.body.works.find((x) => x.id === BJ)!;
      expect(bj.tags).toEqual([]);
      expect(bj.vas).toEqual([]);
      expect(bj.code).toBe('BJ234567');
      expect(bj.relatedWorks).toEqual([]);
      expect(bj.rate_count_detail).toBeNull();
      expect(bj.rank).toBeNull();
      expect(res.body.works.find((x) => x.id === 1234567)!.code).toBe('RJ01234567');
      const statuses = Object.fromEntries(res.body.works.map((x) => [x.id, x.lyric_status]));
      expect(statuses).toMatchObject({ 100001: 'local', 100002: 'ai', 1234567: 'ai_local', [BJ]: '' });
      for (const item of res.body.works) {
        expect(typeof item.nsfw).toBe('boolean');
        expect(item.created_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
        expect(item.release).toMatch(/^(\d{4}-\d\d-\d\d)?$/);
      }
    });

    it.each([
      ['release', 'release'],
      ['dl_count', 'dl_count'],
      ['price', 'price'],
      ['rate_average_2dp', 'rate_average_2dp'],
      ['review_count', 'review_count'],
      ['id', 'id'],
      ['created_at', 'created_at'],
    ] as const)('orders by %s in both directions', async (order, key) => {
      for (const sort of ['asc', 'desc'] as const) {
        const res = await get(`/api/works?${qs({ order, sort })}`);
        expect(res.status).toBe(200);
        expect(ids(res.body)).toEqual(expectedOrder(key, sort));
      }
    });

    it('pages with pageSize (capped) and answers past the end with an empty page and the real count', async () => {
      const all = expectedOrder('release', 'desc');
      const p2 = await get('/api/works?page=2&pageSize=2');
      expect(ids(p2.body)).toEqual(all.slice(2, 4));
      expect(p2.body.pagination).toEqual({ currentPage: 2, pageSize: 2, totalCount: all.length });
      const past = await get('/api/works?page=9&pageSize=2');
      expect(past.body).toEqual({ works: [], pagination: { currentPage: 9, pageSize: 2, totalCount: all.length } });
      const big = await get('/api/works?pageSize=5000');
      expect(big.body.pagination.pageSize).toBe(100);
    });

    it('filters by age rating', async () => {
      const allAges = await get('/api/works?nsfw=1');
      expect(new Set(ids(allAges.body))).toEqual(new Set(VISIBLE.filter((w) => !w.nsfw).map((w) => w.id)));
      expect(allAges.body.pagination.totalCount).toBe(VISIBLE.filter((w) => !w.nsfw).length);
      const adult = await get('/api/works?nsfw=2');
      expect(new Set(ids(adult.body))).toEqual(new Set(VISIBLE.filter((w) => w.nsfw).map((w) => w.id)));
    });

    it('filters by lyric kind (local, ai, any, none) and maps subtitle=1 to any lyric', async () => {
      const set = async (q: string) => new Set(ids((await get(`/api/works?${q}`)).body));
      expect(await set('lyric=local')).toEqual(new Set([100001, 1234567]));
      expect(await set('lyric=ai')).toEqual(new Set([100002, 1234567]));
      expect(await set('lyric=ai_local')).toEqual(new Set([100001, 100002, 1234567]));
      expect(await set('lyric=no')).toEqual(new Set([BJ, 100005, 100007]));
      expect(await set('subtitle=1')).toEqual(new Set([100001, 100002, 1234567]));
      expect(await set('subtitle=0')).toEqual(new Set(VISIBLE.map((w) => w.id)));
      expect((await get('/api/works?lyric=no')).body.pagination.totalCount).toBe(3);
    });

    it('shuffles with order=random: stable per seed across pages, every work once', async () => {
      const pages = async (seed: number) => {
        const out: number[] = [];
        for (let page = 1; page <= 3; page++) out.push(...ids((await get(`/api/works?order=random&seed=${seed}&pageSize=2&page=${page}`)).body));
        return out;
      };
      const a = await pages(42);
      expect([...a].sort()).toEqual(VISIBLE.map((w) => w.id).sort());
      expect(await pages(42)).toEqual(a);
      const orders = new Set<string>();
      for (const seed of [0, 1, 2, 3, 4, 5, 6]) orders.add((await pages(seed)).join(','));
      expect(orders.size).toBeGreaterThan(1);
    });

    it('returns one random work for betterRandom with the full count', async () => {
      const res = await get('/api/works?order=betterRandom');
      expect(res.status).toBe(200);
      expect(res.body.works).toHaveLength(1);
      expect(VISIBLE.map((w) => w.id)).toContain(res.body.works[0].id);
      expect(res.body.pagination.totalCount).toBe(VISIBLE.length);
    });

    it("orders by the current user's rating, unrated works after (desc) or before (asc)", async () => {
      const unrated = expectedOrder('release', 'desc').filter((id) => id !== 100005 && id !== 100001);
      const desc = await get('/api/works?order=rating');
      expect(ids(desc.body)).toEqual([100005, 100001, ...unrated]);
      const asc = await get('/api/works?order=rating&sort=asc');
      expect(ids(asc.body)).toEqual([...[...unrated].reverse(), 100001, 100005]);
      const paged = await get('/api/works?order=rating&pageSize=3&page=1');
      expect(ids(paged.body)).toEqual([100005, 100001, unrated[0]]);
      const other = await get('/api/works?order=rating', otherToken);
      expect(ids(other.body)).toEqual(expectedOrder('release', 'desc'));
      expect(other.body.works.every((w) => w.userRating === null)).toBe(true);
    });

    it.each([
      ['page=0', 'page'],
      ['page=abc', 'page'],
      ['page=1.5', 'page'],
      ['pageSize=0', 'pageSize'],
      ['order=title', 'order'],
      ['sort=up', 'sort'],
      ['nsfw=3', 'nsfw'],
      ['lyric=lrc', 'lyric'],
      ['seed=x', 'seed'],
      ['subtitle=2', 'subtitle'],
      ['page=1&page=2', 'page'],
    ])('refuses %s with 400 naming the parameter', async (query, param) => {
      const res = await get<{ error: string }>(`/api/works?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toContain(param);
    });

    it('needs a token when auth is on', async () => {
      const res = await t.json('GET', '/api/works');
      expect(res.status).toBe(401);
    });

    it('sees library changes at once (counts are cached per library version)', async () => {
      const before = await get('/api/works');
      await seedWorks(t.app.db, [{ id: 100099, title: '追加された作品', circle: C3, release: '2019-01-01' }]);
      const after = await get('/api/works');
      expect(after.body.pagination.totalCount).toBe(before.body.pagination.totalCount + 1);
      expect(ids(after.body)).toContain(100099);
      expect(ids((await get('/api/circles/1003/works')).body)).toContain(100099);
      const tracks = await get<TrackNode[]>('/api/tracks/100099');
      expect(tracks.body).toEqual([]);
      await t.app.db.run("INSERT INTO files (work_id, n, path, kind, size, mtime_ms, duration) VALUES (100099, 0, 'new.mp3', 'audio', 10, 0, 3)");
      expect((await get<TrackNode[]>('/api/tracks/100099')).body).toMatchObject([{ type: 'audio', title: 'new.mp3', duration: 3 }]);
      await t.app.db.run('UPDATE works SET missing = 1 WHERE id = 100099');
      await t.app.db.run('UPDATE circles SET work_count = work_count - 1 WHERE id = 1003');
      const gone = await get('/api/works');
      expect(gone.body.pagination.totalCount).toBe(before.body.pagination.totalCount);
      expect(ids(gone.body)).not.toContain(100099);
    });
  });

  describe('search', () => {
    const search = async (keyword: string, extra = '') => get(`/api/search?${qs({ keyword })}${extra}`);

    it('finds CJK substrings through the trigram index, never missing works', async () => {
      const res = await search('耳かき');
      expect(res.status).toBe(200);
      expect(new Set(ids(res.body))).toEqual(new Set([100001, 100005]));
      expect(res.body.pagination.totalCount).toBe(2);
      expect(ids((await search('かきボイ')).body)).toEqual([100001]);
    });

    it('matches circle, voice actor and tag names, case- and width-insensitively', async () => {
      expect(new Set(ids((await search('月下工房')).body))).toEqual(new Set([100001, 100002, 100007]));
      expect(ids((await search('小鳥遊みく')).body).sort()).toEqual([100002, 100005]);
      expect(ids((await search('ＥＡＲ　ｃｌｅａｎｉｎｇ')).body)).toEqual([100005]);
      expect(ids((await search('asmr ear')).body)).toEqual([100005]);
    });

    it('falls back to substring search for 1-2 character keywords', async () => {
      expect(new Set(ids((await search('癒し')).body))).toEqual(new Set([100001, 1234567, 100007]));
      expect(ids((await search('星野')).body)).toEqual([1234567]);
      expect((await search('癒し')).body.pagination.totalCount).toBe(3);
      const paged: number[] = [];
      for (let page = 1; page <= 4; page++) paged.push(...ids((await search('癒し', `&pageSize=1&page=${page}`)).body));
      expect(paged).toEqual(ids((await search('癒し')).body));
    });

    it('treats product codes as an exact work lookup (RJ/BJ/VJ, 6 or 8 digits, bare number = RJ)', async () => {
      expect(ids((await search('RJ01234567')).body)).toEqual([1234567]);
      expect(ids((await search('rj100002')).body)).toEqual([100002]);
      expect(ids((await search('100002')).body)).toEqual([100002]);
      expect(ids((await search('BJ234567')).body)).toEqual([BJ]);
      expect(ids((await search('看看 RJ100005 这个')).body)).toEqual([100005]);
      expect((await search('RJ100006')).body).toEqual({ works: [], pagination: { currentPage: 1, pageSize: 12, totalCount: 0 } });
    });

    it('finds works by a partial code through the index', async () => {
      expect(ids((await search('rj0123')).body)).toEqual([1234567]);
      expect(new Set(ids((await search('rj1000')).body))).toEqual(new Set([100001, 100002, 100005, 100007]));
    });

    it('keeps FTS syntax in a keyword literal', async () => {
      for (const kw of ['耳かき" OR "x', 'a*b', 'NEAR(', '"', "it's", 'x AND y', '%_%']) {
        const res = await search(kw);
        expect(res.status).toBe(200);
        expect(res.body.works).toEqual([]);
      }
    });

    it('lists everything for an empty keyword and combines with filters and orders', async () => {
      expect((await search('')).body.pagination.totalCount).toBe(VISIBLE.length + 0);
      const res = await search('耳かき', '&order=dl_count&sort=asc');
      expect(ids(res.body)).toEqual([100005, 100001]);
      expect(ids((await search('耳かき', '&nsfw=2')).body)).toEqual([100001]);
    });

    it('answers the path form /api/search/:keyword', async () => {
      const res = await get(`/api/search/${encodeURIComponent('耳かき')}?order=release&sort=desc&page=1&subtitle=0`);
      expect(res.status).toBe(200);
      expect(ids(res.body)).toEqual([100001, 100005]);
    });

    it('applies advanced conditions ANDed: tag + voice actor, fuzzy + circle', async () => {
      const adv = (conds: unknown) => get(`/api/search?${qs({ isAdvance: 1, keyword: JSON.stringify(conds) })}`);
      expect(
        ids(
          (
            await adv([
              { t: 3, d: 497, name: '耳かき' },
              { t: 2, d: V1.id, name: V1.name },
            ])
          ).body,
        ),
      ).toEqual([100001]);
      expect(
        ids(
          (
            await adv([
              { t: 1, d: '耳かき', name: '耳かき' },
              { t: 4, d: 1002, name: C2.name },
            ])
          ).body,
        ),
      ).toEqual([100005]);
      expect(
        ids(
          (
            await adv([
              { t: 3, d: '1031' },
              { t: 3, d: 497 },
            ])
          ).body,
        ),
      ).toEqual([100001]);
      expect(
        ids(
          (
            await adv([
              { t: 4, d: 1001 },
              { t: 4, d: 1002 },
            ])
          ).body,
        ),
      ).toEqual([]);
      expect((await adv([])).body.pagination.totalCount).toBe(VISIBLE.length);
      expect((await adv([{ t: 0, d: 'whatever' }])).body.pagination.totalCount).toBe(VISIBLE.length);
    });

    it('lets a code condition override every other condition', async () => {
      const res = await get(
        `/api/search?${qs({
          isAdvance: 1,
          keyword: JSON.stringify([
            { t: 3, d: 54 },
            { t: 5, d: 'RJ100005' },
          ]),
        })}`,
      );
      expect(ids(res.body)).toEqual([100005]);
    });

    it('searches like the Flutter client (isAdvance=1 with one fuzzy condition)', async () => {
      const res = await get(`/api/search?${qs({ isAdvance: 1, keyword: JSON.stringify([{ t: 1, d: 'プラネタリウム', name: 'プラネタリウム' }]), page: 1, order: 'release', sort: 'desc' })}`);
      expect(ids(res.body)).toEqual([1234567]);
    });

    it.each([
      ['not json', '[{t:1'],
      ['not an array', '{"t":1,"d":"x"}'],
      ['unknown type', '[{"t":9,"d":"x"}]'],
      ['bad code', '[{"t":5,"d":"RJ12"}]'],
      ['non-numeric tag', '[{"t":3,"d":"abc"}]'],
      ['empty value', '[{"t":1,"d":""}]'],
    ])('refuses an advanced keyword that is %s with 400', async (_name, keyword) => {
      const res = await get<{ error: string }>(`/api/search?${qs({ isAdvance: 1, keyword })}`);
      expect(res.status).toBe(400);
      expect(typeof res.body.error).toBe('string');
    });

    it('refuses bad list parameters on search too', async () => {
      expect((await get('/api/search?keyword=x&order=nope')).status).toBe(400);
      expect((await get('/api/search?keyword=x&nsfw=9')).status).toBe(400);
      expect((await get('/api/search?keyword=x&isAdvance=maybe')).status).toBe(400);
    });
  });

  describe('labels', () => {
    it('lists tags by count desc then name, only labels with listed works', async () => {
      const res = await get<LabelItem[]>('/api/tags');
      expect(res.status).toBe(200);
      expect(res.body).toEqual([
        { id: 1031, name: '癒し', count: 3 },
        { id: 497, name: '耳かき', count: 2 },
        { id: 54, name: '添い寝', count: 1 },
      ]);
      expect((await get<LabelItem[]>('/api/tags/')).body).toEqual(res.body);
    });

    it('lists circles and voice actors (string ids) without the unknown circle', async () => {
      const circles = await get<LabelItem[]>('/api/circles/');
      expect(circles.body).toEqual([
        { id: 1001, name: '月下工房', count: 3 },
        { id: 1002, name: 'Studio Hoshizora', count: 2 },
        { id: 1003, name: '暁書房', count: 1 },
      ]);
      const vas = await get<LabelItem[]>('/api/vas');
      expect(vas.body).toEqual([
        { id: V1.id, name: '藤堂ゆい', count: 3 },
        { id: V2.id, name: '小鳥遊みく', count: 2 },
        { id: V3.id, name: '星野あかり', count: 1 },
      ]);
    });

    it('revalidates label lists with their ETag and serves them gzipped when asked', async () => {
      const first = await t.request('GET', '/api/tags', { token, headers: { 'Accept-Encoding': 'gzip' } });
      expect(first.status).toBe(200);
      expect(first.headers.get('content-encoding')).toBe('gzip');
      expect(((await first.json()) as LabelItem[]).length).toBe(3);
      const etag = first.headers.get('etag')!;
      expect(etag).toBeTruthy();
      const again = await t.request('GET', '/api/tags', { token, headers: { 'If-None-Match': etag } });
      expect(again.status).toBe(304);
    });

    it('answers one label with its name, 404 when unknown, 400 for a bad id', async () => {
      expect((await get('/api/tags/497')).body).toEqual({ id: 497, name: '耳かき', count: 2 });
      expect((await get('/api/circles/1002')).body).toEqual({ id: 1002, name: 'Studio Hoshizora', count: 2 });
      expect((await get(`/api/vas/${V3.id}`)).body).toEqual({ id: V3.id, name: '星野あかり', count: 1 });
      expect(await get('/api/tags/99999')).toEqual({ status: 404, body: { error: '标签99999不存在', code: 'LABEL_NOT_FOUND', params: { kind: 'tags' } } });
      expect(await get('/api/circles/4242')).toEqual({ status: 404, body: { error: '社团4242不存在', code: 'LABEL_NOT_FOUND', params: { kind: 'circles' } } });
      expect(await get('/api/vas/nobody')).toEqual({ status: 404, body: { error: '声优不存在', code: 'LABEL_NOT_FOUND', params: { kind: 'vas' } } });
      expect((await get('/api/tags/abc')).status).toBe(400);
      expect((await get('/api/circles/-1')).status).toBe(400);
    });

    it("lists a label's works with the common parameters", async () => {
      expect(ids((await get('/api/tags/497/works')).body)).toEqual([100001, 100005]);
      expect(ids((await get('/api/tags/1031/works?order=dl_count')).body)).toEqual([1234567, 100001, 100007]);
      expect(ids((await get('/api/circles/1001/works')).body)).toEqual([100002, 100007, 100001]);
      expect(ids((await get('/api/circles/1001/works?nsfw=2&order=price&sort=asc')).body)).toEqual([100001, 100007]);
      expect(ids((await get(`/api/vas/${V1.id}/works?lyric=ai`)).body)).toEqual([100002]);
      const page = await get(`/api/vas/${V1.id}/works?pageSize=1&page=2`);
      expect(page.body.pagination).toEqual({ currentPage: 2, pageSize: 1, totalCount: 3 });
      expect(ids(page.body)).toEqual([100007]);
      const shuffled = await get(`/api/vas/${V1.id}/works?order=random&seed=3`);
      expect(ids(shuffled.body).sort()).toEqual([100001, 100002, 100007]);
    });

    it('answers an unknown label with an empty list and refuses betterRandom and bad parameters', async () => {
      expect((await get('/api/tags/99999/works')).body).toEqual({ works: [], pagination: { currentPage: 1, pageSize: 12, totalCount: 0 } });
      expect((await get('/api/tags/497/works?order=betterRandom')).status).toBe(400);
      expect((await get('/api/circles/1001/works?sort=sideways')).status).toBe(400);
    });
  });

  describe('GET /api/work/:id', () => {
    it("answers the detail form with the user's review, progress and play state", async () => {
      const res = await get<WorkDetail>('/api/work/100001');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id: 100001,
        title: '癒しの耳かきボイス',
        userRating: 3,
        review_text: null,
        progress: null,
        user_name: 'alice',
        review_updated_at: '2024-05-02 12:00:00',
        state: { queue: [{ hash: '100001/0' }], index: 0, seconds: 12.5 },
        play_updated_at: '2024-06-01',
        memo: { totalDuration: 13.5 },
        relatedWorks: [
          { id: 100001, name: '日本語' },
          { id: 100007, name: '简体中文' },
        ],
        updated_at: '2024-01-01 10:00:00',
      });
      const rated = await get<WorkDetail>('/api/work/100005');
      expect(rated.body).toMatchObject({ userRating: 5, review_text: 'great', progress: 'listened', state: null, play_updated_at: null });
      const marked = await get<WorkDetail>('/api/work/100002');
      expect(marked.body).toMatchObject({ userRating: null, progress: 'marked', user_name: 'alice' });
    });

    it("shows another user's own (empty) data", async () => {
      const res = await get<WorkDetail>('/api/work/100001', otherToken);
      expect(res.body).toMatchObject({ userRating: null, review_text: null, progress: null, user_name: null, review_updated_at: null, state: null });
    });

    it('accepts a product code as id, 404 for unknown and missing works, 400 for garbage', async () => {
      expect((await get<WorkDetail>('/api/work/RJ01234567')).body.id).toBe(1234567);
      const unknown = await get<{ error: string }>('/api/work/424242');
      expect(unknown.status).toBe(404);
      expect(unknown.body.error).toContain('RJ424242');
      expect((await get('/api/work/100006')).status).toBe(404);
      expect((await get('/api/work/abc')).status).toBe(400);
      expect((await get('/api/work/0')).status).toBe(400);
    });
  });

  describe('GET /api/tracks/:id', () => {
    it('builds a nested tree: folders first, natural order, durations and URLs', async () => {
      const res = await get<TrackNode[]>('/api/tracks/100001');
      expect(res.status).toBe(200);
      const node = (type: string, title: string, n: number, extra: Record<string, unknown> = {}) => ({
        type,
        hash: `100001/${n}`,
        title,
        workTitle: '癒しの耳かきボイス',
        mediaStreamUrl: `/api/media/stream/100001/${n}`,
        mediaDownloadUrl: `/api/media/download/100001/${n}`,
        ...extra,
      });
      expect(res.body).toEqual([
        {
          type: 'folder',
          title: 'mp3',
          children: [
            { type: 'folder', title: 'SEなし', children: [node('audio', 'track1.mp3', 3, { duration: 1 }), node('audio', 'unknown.mp3', 4)] },
            node('text', 'track1.lrc', 2),
            node('audio', 'track2.mp3', 1, { duration: 2.5 }),
            node('audio', 'track10.mp3', 0, { duration: 10 }),
          ],
        },
        node('other', 'a.pdf', 7),
        node('image', 'cover.jpg', 6),
        node('text', 'readme.txt', 5),
      ]);
    });

    it('answers [] for a work without files, 404 for unknown or missing works, 400 for garbage', async () => {
      expect(await get('/api/tracks/100002')).toEqual({ status: 200, body: [] });
      expect((await get('/api/tracks/424242')).status).toBe(404);
      expect((await get('/api/tracks/100006')).status).toBe(404);
      expect((await get('/api/tracks/x1')).status).toBe(400);
    });

    it('points media URLs at the reverse proxy when offloadMedia is on (text streams stay on the API)', async () => {
      t.app.store.update({ offloadMedia: true, offloadStreamPath: '/media/stream/', offloadDownloadPath: 'https://cdn.example/dl' });
      try {
        const res = await get<TrackNode[]>('/api/tracks/100001');
        const mp3 = res.body[0].type === 'folder' ? res.body[0].children : [];
        const lrc = mp3.find((n) => n.title === 'track1.lrc')!;
        const audio = mp3.find((n) => n.title === 'track2.mp3')!;
        expect(audio).toMatchObject({ mediaStreamUrl: '/media/stream/lib/RJ100001/mp3/track2.mp3', mediaDownloadUrl: 'https://cdn.example/dl/lib/RJ100001/mp3/track2.mp3' });
        expect(lrc).toMatchObject({ mediaStreamUrl: '/api/media/stream/100001/2', mediaDownloadUrl: 'https://cdn.example/dl/lib/RJ100001/mp3/track1.lrc' });
        const sub = mp3.find((n) => n.title === 'SEなし');
        const inner = sub && sub.type === 'folder' ? sub.children[0] : null;
        expect(inner).toMatchObject({ mediaStreamUrl: `/media/stream/lib/RJ100001/mp3/${encodeURIComponent('SEなし')}/track1.mp3` });
      } finally {
        t.app.store.update({ offloadMedia: false });
      }
    });
  });
});
