/**
 * The work lists plan each query (walk an order index and test rows, drive from the smallest set, or
 * page a cached ordered id list) by estimated cost. Whatever plan is chosen, the answer must be the
 * one a plain filter-and-sort gives: this checks pages and counts of many filter/order combinations
 * over a few thousand Zipf-skewed works against a reference computed here from the seed data.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/app.js';
import { seedWorks, type SeedWork } from '../helpers/seed.js';
import { searchBody, normalizeText } from '../../server/domain/normalize.js';
import { formatWorkCode } from '../../server/domain/work-code.js';
import { synthesize, VOCABULARY } from '../../scripts/bench/synth-library.js';
import type { WorksPage } from '../../server/contract/works.js';

const LIB = synthesize({ works: 3000, circles: 150, tags: 60, vas: 200, seed: 7 });
const VISIBLE = LIB.works.filter((w) => !w.missing);

interface Case {
  name: string;
  query: string;
  match: (w: SeedWork) => boolean;
}

const body = (w: SeedWork) =>
  searchBody({ code: formatWorkCode(w.id), title: w.title ?? '', circle: w.circle?.name ?? '', tags: (w.tags ?? []).map((t) => t.name), vas: (w.vas ?? []).map((v) => v.name) });

function reference(match: (w: SeedWork) => boolean, order: string, dir: 'asc' | 'desc'): number[] {
  const key = (w: SeedWork): (string | number)[] => {
    const r = w.release ?? '';
    switch (order) {
      case 'release':
        return [r, w.id];
      case 'created_at':
      case 'create_date':
        return [w.created_at ?? '', w.id];
      case 'updated_at':
        return [w.updated_at ?? '', w.id];
      case 'id':
        return [w.id];
      default:
        return [(w as unknown as Record<string, number>)[order] ?? 0, r, w.id];
    }
  };
  if (order === 'nsfw') {
    // the direction picks the age group; newest release first within it, then id
    const group = (w: SeedWork) => (w.nsfw ? 1 : 0) * (dir === 'asc' ? 1 : -1);
    return VISIBLE.filter(match)
      .sort((a, b) => group(a) - group(b) || (a.release === b.release ? b.id - a.id : (a.release ?? '') < (b.release ?? '') ? 1 : -1))
      .map((w) => w.id);
  }
  const sorted = VISIBLE.filter(match).sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i] < kb[i] ? -1 : 1;
    return 0;
  });
  return (dir === 'asc' ? sorted : sorted.reverse()).map((w) => w.id);
}

const topTag = LIB.tags[0];
const midTag = LIB.tags[15];
const topVa = LIB.vas[0];
const midVa = LIB.vas[30];
const topCircle = LIB.circles[0];
const commonWord = normalizeText(VOCABULARY[0]);
const midWord = normalizeText(VOCABULARY[12]);
const rare = LIB.rareStrings[0];
const adv = (conds: unknown[]) => `isAdvance=1&keyword=${encodeURIComponent(JSON.stringify(conds))}`;

const CASES: Case[] = [
  { name: 'everything', query: '', match: () => true },
  { name: 'all ages', query: 'nsfw=1', match: (w) => !w.nsfw },
  { name: 'local lyrics', query: 'lyric=local', match: (w) => !!w.has_local_lyric },
  { name: 'no lyrics', query: 'lyric=no', match: (w) => !w.has_local_lyric && !w.has_ai_lyric },
  { name: 'top tag', query: `tag=${topTag.id}`, match: (w) => !!w.tags?.some((t) => t.id === topTag.id) },
  { name: 'mid tag, adult', query: `tag=${midTag.id}&nsfw=2`, match: (w) => !!w.nsfw && !!w.tags?.some((t) => t.id === midTag.id) },
  { name: 'top voice actor', query: `va=${topVa.id}`, match: (w) => !!w.vas?.some((v) => v.id === topVa.id) },
  { name: 'top circle', query: `circle=${topCircle.id}`, match: (w) => w.circle?.id === topCircle.id },
  { name: 'common word', query: `keyword=${encodeURIComponent(VOCABULARY[0])}`, match: (w) => body(w).includes(commonWord) },
  { name: 'mid word', query: `keyword=${encodeURIComponent(VOCABULARY[12])}`, match: (w) => body(w).includes(midWord) },
  { name: 'rare 3-char string', query: `keyword=${encodeURIComponent(rare)}`, match: (w) => body(w).includes(rare) },
  { name: 'one character', query: `keyword=${encodeURIComponent('姉')}`, match: (w) => body(w).includes('姉') },
  {
    name: 'tag + voice actor',
    query: adv([
      { t: 3, d: topTag.id },
      { t: 2, d: midVa.id },
    ]),
    match: (w) => !!w.tags?.some((t) => t.id === topTag.id) && !!w.vas?.some((v) => v.id === midVa.id),
  },
  {
    name: 'word + tag + local lyrics',
    query: `${adv([
      { t: 1, d: VOCABULARY[0] },
      { t: 3, d: topTag.id },
    ])}&lyric=local`,
    match: (w) => body(w).includes(commonWord) && !!w.tags?.some((t) => t.id === topTag.id) && !!w.has_local_lyric,
  },
];

/** The route of a case: label filters use the label routes, search cases /api/search. */
function route(c: Case): string {
  const m = /^(tag|va|circle)=([^&]+)(&.*)?$/.exec(c.query);
  if (m) return `/api/${m[1] === 'tag' ? 'tags' : m[1] === 'va' ? 'vas' : 'circles'}/${m[2]}/works?${(m[3] ?? '').slice(1)}`;
  if (c.query.includes('keyword=')) return `/api/search?${c.query}`;
  return `/api/works?${c.query}`;
}

describe('browse: every query plan gives the reference answer', () => {
  let t: TestServer;
  let token: string;

  beforeAll(async () => {
    t = await startTestServer();
    await t.addUser('alice', 'alicepass', 'user');
    token = await t.login('alice', 'alicepass');
    await seedWorks(t.app.db, LIB.works);
  });
  afterAll(() => t?.close());

  const page = async (url: string) => {
    const res = await t.json<WorksPage>('GET', url, { token });
    expect(res.status, url).toBe(200);
    return res.body;
  };

  it.each(CASES)('$name: counts and pages (first, middle, last) in several orders', async (c) => {
    for (const [order, dir] of [
      ['release', 'desc'],
      ['dl_count', 'desc'],
      ['price', 'asc'],
      ['id', 'asc'],
      // the mobile apps' orders (issue 19)
      ['create_date', 'desc'],
      ['updated_at', 'asc'],
      ['nsfw', 'asc'],
      ['nsfw', 'desc'],
    ] as const) {
      const expected = reference(c.match, order, dir);
      const base = `${route(c)}&order=${order}&sort=${dir}&pageSize=20`;
      const first = await page(`${base}&page=1`);
      expect(first.pagination.totalCount, `${c.name} ${order}`).toBe(expected.length);
      expect(
        first.works.map((w) => w.id),
        `${c.name} ${order} p1`,
      ).toEqual(expected.slice(0, 20));
      const pages = Math.ceil(expected.length / 20);
      for (const p of [...new Set([Math.ceil(pages / 2), pages])].filter((p) => p > 1)) {
        const got = await page(`${base}&page=${p}`);
        expect(
          got.works.map((w) => w.id),
          `${c.name} ${order} p${p}`,
        ).toEqual(expected.slice((p - 1) * 20, p * 20));
      }
    }
  });

  it('shuffles every case into a permutation of its matches', async () => {
    for (const c of CASES) {
      const expected = reference(c.match, 'id', 'asc');
      const got: number[] = [];
      for (let p = 1; got.length < expected.length && p <= 40; p++) got.push(...(await page(`${route(c)}&order=random&seed=11&pageSize=100&page=${p}`)).works.map((w) => w.id));
      expect(
        [...got].sort((a, b) => a - b),
        c.name,
      ).toEqual(expected);
    }
  });
});
