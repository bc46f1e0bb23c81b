import { readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig, type Config } from '../../server/config/schema.js';
import { HttpClient, HttpFetchError, proxyUrlFromConfig, timeoutFor } from '../../server/library/scrapers/http-fetch.js';
import type { CoverType, WorkMetadata } from '../../server/domain/work-metadata.js';
import type { MetadataResult } from '../../server/library/scrapers/metadata-types.js';
import { ASMR_ONE_TAG_ID_BASE } from '../../server/library/scrapers/asmr-one.js';
import { stripTitleSuffix } from '../../server/library/scrapers/dlsite-page.js';
import { coverUrl } from '../../server/library/scrapers/dlsite-urls.js';
import { createMetadataSource, type MetadataSourceOptions, type ScrapingMetadataSource } from '../../server/library/scrapers/metadata-source.js';
import { parseDate } from '../../server/library/scrapers/common.js';
import { FAST_SCRAPE_CONFIG, FIXTURE_WORKS, fixtureWork, startFakeSites, type FakeSites } from '../helpers/fake-sites.js';

const COVERS: CoverType[] = ['main', 'sam', '240x240'];

let sites: FakeSites;
const open: ScrapingMetadataSource[] = [];

beforeAll(async () => {
  sites = await startFakeSites();
});
afterAll(() => sites.close());
beforeEach(() => sites.reset());
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

function config(over: Partial<Config> = {}): Config {
  return { ...defaultConfig(), ...sites.config, ...FAST_SCRAPE_CONFIG, ...over };
}

function source(over: Partial<Config> = {}, options: MetadataSourceOptions = {}): ScrapingMetadataSource {
  const s = createMetadataSource(config(over), options);
  open.push(s);
  return s;
}

function ok(r: MetadataResult): WorkMetadata {
  if (!r.ok) throw new Error(`expected metadata, got: ${r.error} / ${r.warnings.join(' | ')}`);
  return r.metadata;
}

/** A free loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 5));
}

describe('DLsite product page + dynamic API', () => {
  it.each(FIXTURE_WORKS.filter((w) => w.source !== null).map((w) => [w.key, w] as const))('scrapes %s as the fixtures say (zh-cn)', async (_key, w) => {
    const m = ok(await source().fetch(w.id));
    expect(m.source).toBe(w.source);
    expect(m.title).toBe(w.title);
    expect(m.circle).toEqual(w.circle);
    expect(m.nsfw).toBe(w.nsfw);
    expect(m.release).toBe(w.release);
    expect(m.tags).toEqual(w.tags);
    expect(m.vas).toEqual(w.vas);
    expect(m.related).toEqual(w.related);
    expect({ dl: m.dl_count, price: m.price, reviews: m.review_count, rates: m.rate_count, avg: m.rate_average_2dp }).toEqual({
      dl: w.dl_count,
      price: w.price,
      reviews: w.review_count,
      rates: w.rate_count,
      avg: w.rate_average_2dp,
    });
  });

  it('reads every field of a normal RJ work, with whole genre ids and VA uuids', async () => {
    const w = fixtureWork('rj6');
    const r = await source().fetch(w.id);
    const m = ok(r);
    expect(r.warnings).toEqual([]);
    expect(m.title).toBe('【耳かき・添い寝】ねむりの森の癒やし屋さん【バイノーラル】');
    expect(m.circle).toEqual({ id: 12345, name: '月下工房' });
    // 4-digit genre id kept whole (kikoeru cut it to 3 digits) and a zero-padded one read as a number.
    expect(m.tags.map((t) => t.id)).toEqual([497, 496, 1031, 54]);
    expect(m.vas[0]).toEqual({ id: 'f8c9b43d-ecf3-588e-ac7d-8db3aa503eb3', name: '藤堂ゆい' });
    expect(m.rank).toEqual([
      { term: 'day', category: 'voice', rank: 3, rank_date: '2021-03-06' },
      { term: 'week', category: 'voice', rank: 8, rank_date: '2021-03-12' },
    ]);
    expect(m.rate_count_detail).toHaveLength(5);
    expect(m.rate_count_detail?.[4]).toEqual({ review_point: 5, count: 1004, ratio: 81 });
    expect(m.related).toEqual([{ id: 1100001, name: '简体中文' }]);
    expect(m.covers).toEqual({
      main: `${sites.origin}${sites.paths.image(123456, 'main')}`,
      sam: `${sites.origin}${sites.paths.image(123456, 'sam')}`,
      '240x240': `${sites.origin}${sites.paths.image(123456, '240x240')}`,
    });
    // The page was asked for in the configured language, with a User-Agent; the dynamic API was asked too.
    const page = sites.requests.find((q) => q.path === sites.paths.page(w.id));
    expect(page?.cookie).toBe('locale=zh-cn');
    expect(page?.userAgent).toMatch(/kikoplay/);
    expect(sites.count(sites.paths.dynamic(w.id))).toBe(1);
    expect(sites.count(sites.paths.hvdb(w.id))).toBe(0);
  });

  it.each([
    ['zh-tw', ['掏耳朵', '雙耳立體聲/仿真人頭', '治癒', '陪睡'], '簡體中文'],
    ['ja-jp', ['耳かき', 'バイノーラル/ダミヘ', '癒し', '添い寝'], '簡体中文'],
  ] as const)('reads the %s page (its own row headers and tag names)', async (lang, tagNames, editionLabel) => {
    const w = fixtureWork('rj6');
    const m = ok(await source({ tagLanguage: lang }).fetch(w.id));
    expect(m.tags).toEqual(w.tagsByLanguage[lang]);
    expect(m.tags.map((t) => t.name)).toEqual(tagNames);
    expect(m.release).toBe('2021-03-05');
    expect(m.nsfw).toBe(true);
    expect(m.vas).toEqual(w.vas);
    expect(m.related).toEqual([{ id: 1100001, name: editionLabel }]);
    expect(sites.requests.find((q) => q.path === sites.paths.page(w.id))?.cookie).toBe(`locale=${lang}`);
  });

  it('reads an all-ages 8-digit RJ work (string dl_count, old rate-detail form, no rank)', async () => {
    const w = fixtureWork('rj8');
    const m = ok(await source({ tagLanguage: 'ja-jp' }).fetch(w.id));
    expect(sites.count(sites.paths.page(w.id))).toBe(1);
    expect(sites.paths.page(w.id)).toContain('/maniax/work/=/product_id/RJ01234567.html');
    expect(m.nsfw).toBe(false);
    expect(m.dl_count).toBe(987);
    expect(m.rank).toBeNull();
    expect(m.rate_count_detail).toEqual([
      { review_point: 1, count: 0, ratio: 0 },
      { review_point: 2, count: 1, ratio: 3 },
      { review_point: 3, count: 4, ratio: 10 },
      { review_point: 4, count: 10, ratio: 25 },
      { review_point: 5, count: 25, ratio: 63 },
    ]);
    expect(m.covers.main).toContain('/doujin/RJ01235000/RJ01234567_img_main.jpg');
  });

  it('uses the books floor and BG maker ids for BJ works, and never asks HVDB', async () => {
    const w = fixtureWork('bj');
    const m = ok(await source().fetch(w.id));
    expect(sites.count(sites.paths.page(w.id))).toBe(1);
    expect(sites.paths.page(w.id)).toBe('/dlsite/books/work/=/product_id/BJ234567.html');
    expect(sites.count(sites.paths.dynamic(w.id))).toBe(1);
    expect(m.circle).toEqual({ id: 1_000_000_023_456, name: '暁書房' });
    expect(m.vas).toEqual([]);
    expect(sites.count(/^\/hvdb\//)).toBe(0);
    expect(m.covers.sam).toBe(`${sites.origin}/img/modpub/images2/work/books/BJ235000/BJ234567_img_sam.jpg`);
  });

  it('uses the pro floor and the professional image folder for VJ works', async () => {
    const w = fixtureWork('vj');
    const m = ok(await source({ tagLanguage: 'zh-tw' }).fetch(w.id));
    expect(sites.count('/dlsite/pro/work/=/product_id/VJ015443.html')).toBe(1);
    expect(sites.count('/dlsite/pro/product/info/ajax?product_id=VJ015443')).toBe(1);
    expect(m.circle?.id).toBe(2_000_000_012_345);
    expect(m.tags).toEqual([
      { id: 66, name: '純愛' },
      { id: 1117, name: '廣播劇' },
    ]);
    expect(m.covers['240x240']).toBe(`${sites.origin}/img/resize/images2/work/professional/VJ016000/VJ015443_img_main_240x240.jpg`);
  });

  it('keeps the page data with zero counts when the dynamic API fails', async () => {
    const w = fixtureWork('rj6');
    sites.override(sites.paths.dynamic(w.id), { status: 500 });
    const r = await source().fetch(w.id);
    const m = ok(r);
    expect(m.source).toBe('dlsite');
    expect(m.tags).toEqual(w.tags);
    expect({ dl: m.dl_count, price: m.price, rank: m.rank }).toEqual({ dl: 0, price: 0, rank: null });
    expect(r.warnings).toEqual([expect.stringMatching(/^DLsite 动态信息获取失败: DLsite 500 after 3 attempts/)]);
  });
});

describe('HVDB voice-actor fallback', () => {
  it('fills in voice actors from HVDB, dropping romanised names when there are several', async () => {
    const w = fixtureWork('hvdb-va');
    const m = ok(await source().fetch(w.id));
    expect(sites.count(sites.paths.hvdb(w.id))).toBe(1);
    expect(m.vas.map((v) => v.name)).toEqual(['如月ゆき', '逢坂成美']);
    expect(m.vas).toEqual(w.vas);
  });

  it('keeps the work (without voice actors, with a warning) when HVDB is down', async () => {
    const w = fixtureWork('hvdb-va');
    sites.override(sites.paths.hvdb(w.id), { status: 503 });
    const r = await source().fetch(w.id);
    expect(ok(r).vas).toEqual([]);
    expect(ok(r).tags).toEqual(w.tags);
    expect(r.warnings).toEqual([expect.stringMatching(/^HVDB 获取声优失败: HVDB 503 after 3 attempts/)]);
  });
});

describe('fallback sources', () => {
  it('falls back to product.json when the page has no data (no voice_by: HVDB; no sales: its own numbers)', async () => {
    const w = fixtureWork('json-only');
    const r = await source().fetch(w.id);
    const m = ok(r);
    expect(m.source).toBe('dlsite-json');
    expect(m.release).toBe('2019-08-10');
    expect(typeof m.release).toBe('string');
    expect(m.tags).toEqual([
      { id: 497, name: '掏耳朵' },
      { id: 1031, name: '治愈' },
    ]);
    expect(m.vas).toEqual(w.vas);
    expect(m.dl_count).toBe(2222);
    expect(m.covers).toEqual({});
    expect(r.warnings[0]).toBe("DLSite获取元数据失败: Couldn't parse data from DLsite work page.");
    expect(sites.requests.find((q) => q.path === sites.paths.productJson(w.id))?.cookie).toBe('locale=zh-cn');
  });

  it('falls back to product.json when the page keeps failing, reusing the dynamic info', async () => {
    const w = fixtureWork('rj6');
    sites.override(sites.paths.page(w.id), { status: 500 });
    const r = await source({ tagLanguage: 'ja-jp' }).fetch(w.id);
    const m = ok(r);
    expect(m.source).toBe('dlsite-json');
    expect(m.tags).toEqual(w.tagsByLanguage['ja-jp']);
    expect(m.circle).toEqual(w.circle);
    expect(m.related).toEqual([{ id: 1100001, name: '簡体中文' }]);
    expect(m.dl_count).toBe(12345);
    expect(sites.count(sites.paths.page(w.id))).toBe(3); // 1 + retry 2
    expect(sites.count(sites.paths.dynamic(w.id))).toBe(1);
    expect(r.warnings).toEqual([expect.stringMatching(/^DLSite获取元数据失败: DLsite 500 after 3 attempts \(http:/)]);
  });

  it('takes product.json voice actors and falls to HVDB when voice_by is absent', async () => {
    const w = fixtureWork('hvdb-va');
    sites.override(sites.paths.page(w.id), { status: 404 });
    const m = ok(await source().fetch(w.id));
    expect(m.source).toBe('dlsite-json');
    expect(m.vas).toEqual(w.vas);
    expect(sites.count(sites.paths.hvdb(w.id))).toBe(1);
  });

  it('falls back to asmr.one last, with its tag ids moved to the reserved range', async () => {
    const w = fixtureWork('rj6');
    sites.override(sites.paths.page(w.id), { status: 500 });
    sites.override(sites.paths.productJson(w.id), { status: 500 });
    const r = await source().fetch(w.id);
    const m = ok(r);
    expect(m.source).toBe('asmr.one');
    expect(m.tags).toEqual([
      { id: ASMR_ONE_TAG_ID_BASE + 11, name: '掏耳朵' },
      { id: ASMR_ONE_TAG_ID_BASE + 23, name: '治愈' },
    ]);
    expect(m.tags.every((t) => t.id > 800_000_000)).toBe(true);
    expect(m.vas).toEqual(w.vas); // ids recomputed from names, not asmr.one's
    expect(m.circle).toEqual(w.circle);
    expect(r.warnings).toHaveLength(2);
    expect(r.warnings[1]).toMatch(/^DLSite json api获取元数据失败: DLsite 500/);
  });

  it('serves a work known only to asmr.one, tag names in the configured language', async () => {
    const w = fixtureWork('asmr-only');
    const cn = ok(await source().fetch(w.id));
    expect(cn.source).toBe('asmr.one');
    expect(cn.tags).toEqual(w.tags);
    expect(cn.covers.main).toBe(`${sites.origin}${sites.paths.asmrOneCover(w.id, 'main')}`);
    const ja = ok(await source({ tagLanguage: 'ja-jp' }).fetch(w.id));
    expect(ja.tags.map((t) => t.name)).toEqual(['バイノーラル/ダミヘ', '耳かき']);
    const tw = ok(await source({ tagLanguage: 'zh-tw' }).fetch(w.id));
    expect(tw.tags).toEqual(w.tagsByLanguage['zh-tw']);
  });

  it('reports not-found only when every source says so, without retrying the 404s', async () => {
    const w = fixtureWork('not-found');
    const r = await source().fetch(w.id);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.notFound).toBe(true);
    expect(r.error).toContain('RJ000404');
    expect(r.warnings).toHaveLength(3);
    expect(sites.count(sites.paths.page(w.id))).toBe(1);
    expect(sites.count(sites.paths.productJson(w.id))).toBe(1);
    expect(sites.count(sites.paths.asmrOne(w.id))).toBe(1);
  });

  it('is a failure, not "not found", when a source could not be reached', async () => {
    const w = fixtureWork('not-found');
    sites.override(sites.paths.asmrOne(w.id), { status: 502 });
    const r = await source().fetch(w.id);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.notFound).toBe(false);
    expect(r.error).toMatch(/asmr\.one 502 after 3 attempts/);
  });

  it('follows live config changes (language and base URL) between calls', async () => {
    const w = fixtureWork('rj6');
    let current = config();
    const s = createMetadataSource(() => current);
    open.push(s);
    expect(ok(await s.fetch(w.id)).tags[0].name).toBe('掏耳朵');
    current = config({ tagLanguage: 'ja-jp' });
    expect(ok(await s.fetch(w.id)).tags[0].name).toBe('耳かき');
    current = config({ dlsiteBaseUrl: `${sites.origin}/nowhere`, asmrOneBaseUrl: `${sites.origin}/nowhere` });
    const r = await s.fetch(w.id);
    expect(r.ok).toBe(false);
  });
});

describe('retries, timeouts and errors', () => {
  it('retries a page that fails twice, then uses it', async () => {
    const w = fixtureWork('rj6');
    sites.override(sites.paths.page(w.id), { status: 503, times: 2 });
    const r = await source().fetch(w.id);
    expect(ok(r).source).toBe('dlsite');
    expect(r.warnings).toEqual([]);
    expect(sites.count(sites.paths.page(w.id))).toBe(3);
  });

  it('retries 429 and dropped connections, but not other 4xx', async () => {
    const client = new HttpClient(() => config({ retry: 3 }));
    const url = (p: string) => sites.origin + p;
    try {
      sites.override(sites.paths.page(123456), { status: 429, times: 1 });
      sites.override(sites.paths.productJson(123456), { hangUp: true, times: 2 });
      sites.override(sites.paths.dynamic(123456), { status: 403 });
      await expect(client.getText(url(sites.paths.page(123456)), { site: 'DLsite' })).resolves.toContain('og:title');
      await expect(client.getJson(url(sites.paths.productJson(123456)), { site: 'DLsite' })).resolves.toHaveLength(1);
      const err = await client.getJson(url(sites.paths.dynamic(123456)), { site: 'DLsite' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(HttpFetchError);
      expect((err as HttpFetchError).message).toBe(`DLsite 403 (${url(sites.paths.dynamic(123456))})`);
      expect(sites.count(sites.paths.page(123456))).toBe(2);
      expect(sites.count(sites.paths.productJson(123456))).toBe(3);
      expect(sites.count(sites.paths.dynamic(123456))).toBe(1);
    } finally {
      await client.close();
    }
  });

  it('names the status of a 404 and does not retry it', async () => {
    const client = new HttpClient(() => config({ retry: 5 }));
    try {
      const url = sites.origin + sites.paths.hvdb(999);
      await expect(client.getText(url, { site: 'HVDB' })).rejects.toThrow(`HVDB 404 (${url})`);
      expect(sites.count(sites.paths.hvdb(999))).toBe(1);
    } finally {
      await client.close();
    }
  });

  it('times out a slow attempt with the site timeout, and retries it', async () => {
    const w = fixtureWork('rj6');
    sites.override(sites.paths.page(w.id), { delayMs: 10_000, times: 1 });
    const m = ok(await source({ dlsiteTimeout: 1000, retry: 1 }).fetch(w.id));
    expect(m.source).toBe('dlsite');
    expect(sites.count(sites.paths.page(w.id))).toBe(2);
  });

  it('reports a timeout clearly when every attempt is too slow', async () => {
    const client = new HttpClient(() => config({ hvdbTimeout: 250, retry: 1 }));
    try {
      sites.override(sites.paths.hvdb(345678), { delayMs: 10_000 });
      const url = sites.origin + sites.paths.hvdb(345678);
      await expect(client.getText(url, { site: 'HVDB' })).rejects.toThrow(`HVDB: timeout after 250 ms after 2 attempts (${url})`);
    } finally {
      await client.close();
    }
  });

  it('uses hvdbTimeout for HVDB and dlsiteTimeout for the other sites', () => {
    const c = { dlsiteTimeout: 1111, hvdbTimeout: 2222 };
    expect(timeoutFor('HVDB', c)).toBe(2222);
    expect(timeoutFor('DLsite', c)).toBe(1111);
    expect(timeoutFor('asmr.one', c)).toBe(1111);
  });

  it('fails every source with a network error when the sites cannot be reached', async () => {
    const port = await closedPort();
    const down = `http://127.0.0.1:${port}`;
    // the outage switch off: every request makes its attempts
    const r = await source({ dlsiteBaseUrl: down, asmrOneBaseUrl: down, hvdbBaseUrl: down, retry: 1 }, { unreachableAfter: Infinity }).fetch(123456);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.notFound).toBe(false);
    expect(r.warnings[0]).toMatch(/^DLSite获取元数据失败: DLsite: network error: .*ECONNREFUSED.* after 2 attempts/);
  });

  it('gives a host up after 3 network failures in a row, reports it once and asks it no more', async () => {
    const port = await closedPort();
    const down = `http://127.0.0.1:${port}`;
    const s = source({ dlsiteBaseUrl: down, asmrOneBaseUrl: sites.origin + '/asmr', hvdbBaseUrl: down, retry: 5 });
    expect(s.unreachable!()).toBe(false);
    const w = fixtureWork('rj6');
    const first = await s.fetch(w.id);
    expect(s.takeOutages!()).toEqual([{ site: 'DLsite', host: `127.0.0.1:${port}`, reason: `ECONNREFUSED 127.0.0.1:${port}` }]);
    expect(s.takeOutages!()).toEqual([]);
    // DLsite given up, asmr.one still asked (and answers for the work it knows)
    expect(first.warnings[0]).toBe(`DLSite获取元数据失败: DLsite 无法连接 (ECONNREFUSED 127.0.0.1:${port})`);
    expect(s.unreachable!()).toBe(false);
    const asked = sites.count(sites.paths.asmrOne(w.id));
    expect(asked).toBeGreaterThan(0);
    const again = await s.fetch(w.id);
    expect(again.warnings[0]).toBe(`DLSite获取元数据失败: DLsite 无法连接 (ECONNREFUSED 127.0.0.1:${port})`);
    expect(s.takeOutages!()).toEqual([]);
  });
});

describe('cancellation', () => {
  it('stops a request in flight at once', async () => {
    const w = fixtureWork('rj6');
    sites.override(sites.paths.page(w.id), { delayMs: 120_000 });
    const controller = new AbortController();
    const pending = source().fetch(w.id, controller.signal);
    await until(() => sites.count(sites.paths.page(w.id)) === 1);
    const reason = new Error('scan killed');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(sites.count(sites.paths.productJson(w.id))).toBe(0);
  });

  it('stops while waiting between retries', async () => {
    const w = fixtureWork('rj6');
    sites.override(sites.paths.page(w.id), { status: 500 });
    const controller = new AbortController();
    const pending = source({ retry: 5, retryDelay: 600_000 }).fetch(w.id, controller.signal);
    await until(() => sites.count(sites.paths.page(w.id)) === 1);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(sites.count(sites.paths.page(w.id))).toBe(1);
  });

  it('stops while waiting for a rate-limit slot, and makes no request when already aborted', async () => {
    const s = source({}, { rateLimit: { maxConcurrent: 1 } });
    sites.override(sites.paths.page(123456), { delayMs: 120_000 });
    const first = new AbortController();
    const second = new AbortController();
    const a = s.http.getText(sites.origin + sites.paths.page(123456), { site: 'DLsite', signal: first.signal });
    await until(() => sites.count(sites.paths.page(123456)) === 1);
    const b = s.http.getText(sites.origin + sites.paths.page(1234567), { site: 'DLsite', signal: second.signal });
    second.abort();
    await expect(b).rejects.toMatchObject({ name: 'AbortError' });
    first.abort();
    await expect(a).rejects.toMatchObject({ name: 'AbortError' });
    expect(sites.count(sites.paths.page(1234567))).toBe(0);

    const done = new AbortController();
    done.abort();
    await expect(s.fetch(123456, done.signal)).rejects.toMatchObject({ name: 'AbortError' });
    await expect(s.fetchCover(123456, 'main', done.signal)).rejects.toMatchObject({ name: 'AbortError' });
    expect(sites.requests).toHaveLength(1);
  });

  it('stops a cover download', async () => {
    const w = fixtureWork('rj6');
    sites.override(sites.paths.image(w.id, 'main'), { delayMs: 120_000 });
    const controller = new AbortController();
    const pending = source().fetchCover(w.id, 'main', controller.signal);
    await until(() => sites.count(sites.paths.image(w.id, 'main')) === 1);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('rate limit', () => {
  it('keeps at most maxConcurrent requests per host in flight', async () => {
    const s = source({}, { rateLimit: { maxConcurrent: 2 } });
    for (const w of FIXTURE_WORKS) sites.override(sites.paths.dynamic(w.id), { delayMs: 40 });
    await Promise.all(FIXTURE_WORKS.map((w) => s.http.getText(sites.origin + sites.paths.dynamic(w.id), { site: 'DLsite' })));
    expect(sites.count(/product\/info\/ajax/)).toBe(FIXTURE_WORKS.length);
    expect(sites.maxInFlight).toBe(2);
  });

  it('spaces request starts by minIntervalMs', async () => {
    const s = source({}, { rateLimit: { maxConcurrent: 4, minIntervalMs: 60, spaceLoopback: true } });
    // The fake server runs in this process, so its arrival times share this clock. The limiter lets the
    // i-th request start no earlier than i × 60 ms after the first call: a lower bound, whatever the load.
    const t0 = performance.now();
    await Promise.all([123456, 1234567, 345678, 1100001].map((id) => s.http.getText(sites.origin + sites.paths.dynamic(id), { site: 'DLsite' })));
    const times = sites.requests.map((q) => q.at - t0).sort((a, b) => a - b);
    expect(times).toHaveLength(4);
    times.forEach((t, i) => expect(t).toBeGreaterThanOrEqual(i * 60 - 2)); // timers may fire ~1 ms early
  });
});

describe('proxy', () => {
  it('builds the proxy URL from httpProxyHost/httpProxyPort (port 0 = none)', () => {
    expect(proxyUrlFromConfig({ httpProxyHost: '127.0.0.1', httpProxyPort: 0 })).toBeNull();
    expect(proxyUrlFromConfig({ httpProxyHost: '', httpProxyPort: 0 })).toBeNull();
    expect(proxyUrlFromConfig({ httpProxyHost: '', httpProxyPort: 7890 })).toBe('http://localhost:7890');
    expect(proxyUrlFromConfig({ httpProxyHost: ' 192.168.1.2 ', httpProxyPort: 1080 })).toBe('http://192.168.1.2:1080');
    expect(proxyUrlFromConfig({ httpProxyHost: 'http://proxy.lan/', httpProxyPort: 3128 })).toBe('http://proxy.lan:3128');
    expect(proxyUrlFromConfig({ httpProxyHost: '::1', httpProxyPort: 8080 })).toBe('http://[::1]:8080');
    expect(proxyUrlFromConfig({ httpProxyHost: 'proxy.lan:9999', httpProxyPort: 8080 })).toBe('http://proxy.lan:8080');
  });

  it('sends every request through the configured proxy', async () => {
    const targets: string[] = [];
    const proxy = http.createServer((req, res) => {
      // Plain (non-tunnelled) proxying, should the client use it for http:// targets.
      targets.push(req.url ?? '');
      const upstream = http.request(req.url ?? '', { method: req.method, headers: req.headers }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      req.pipe(upstream);
    });
    proxy.on('connect', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
      targets.push(req.url ?? '');
      const [host, port] = (req.url ?? '').split(':');
      const upstream = net.connect(Number(port), host, () => {
        socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(socket);
        socket.pipe(upstream);
      });
      upstream.on('error', () => socket.destroy());
      socket.on('error', () => upstream.destroy());
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const port = (proxy.address() as net.AddressInfo).port;
      const s = source({ httpProxyHost: '127.0.0.1', httpProxyPort: port });
      const m = ok(await s.fetch(123456));
      expect(m.title).toBe(fixtureWork('rj6').title);
      expect(targets.length).toBeGreaterThan(0);
      expect(targets.every((t) => t.includes(new URL(sites.origin).host))).toBe(true);
      await s.close();
    } finally {
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
  });

  it('fails (not "not found") when the proxy is down, without reaching the sites', async () => {
    const r = await source({ httpProxyHost: '127.0.0.1', httpProxyPort: await closedPort(), retry: 0 }).fetch(123456);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.notFound).toBe(false);
    expect(sites.requests).toHaveLength(0);
  });
});

describe('covers', () => {
  const bytes = (file: string) => readFileSync(file);

  it('downloads main, sam and 240x240 of each work with a cover, byte for byte', async () => {
    const s = source();
    for (const w of FIXTURE_WORKS.filter((x) => x.coverFiles)) {
      for (const type of COVERS) {
        const got = await s.fetchCover(w.id, type);
        expect(got, `${w.code} ${type}`).not.toBeNull();
        expect(Buffer.compare(got as Buffer, bytes(w.coverFiles![type])), `${w.code} ${type}`).toBe(0);
      }
    }
  });

  it('takes a translated edition cover from the original, reading the page once', async () => {
    const w = fixtureWork('translated');
    const s = source();
    for (const type of COVERS) expect(Buffer.compare((await s.fetchCover(w.id, type)) as Buffer, bytes(fixtureWork('rj6').coverFiles![type]))).toBe(0);
    expect(sites.count(sites.paths.page(w.id))).toBe(1);
    expect(sites.count(sites.paths.image(123456, 'main'))).toBe(1);
    expect(sites.count(/RJ01101000/)).toBe(0);
    expect(w.coverFrom).toBe(123456);
  });

  it('reuses what fetch() learnt about the cover source', async () => {
    const w = fixtureWork('translated');
    const s = source();
    expect(ok(await s.fetch(w.id)).coverFrom).toBe(123456);
    await s.fetchCover(w.id, 'sam');
    expect(sites.count(sites.paths.page(w.id))).toBe(1);
  });

  it('answers null when DLsite shows its "no image" placeholder or nobody has the work', async () => {
    const s = source();
    const noImage = fixtureWork('json-only');
    expect(await s.fetchCover(noImage.id, 'main')).toBeNull();
    expect(sites.count(/^\/img\//)).toBe(0);
    expect(await s.fetchCover(fixtureWork('not-found').id, '240x240')).toBeNull();
  });

  it('treats a non-image answer as no cover, and a server error as a failure', async () => {
    const s = source();
    const one = fixtureWork('asmr-only');
    sites.override(sites.paths.asmrOneCover(one.id, 'sam'), { status: 200, body: '<html>maintenance</html>' });
    expect(await s.fetchCover(one.id, 'sam')).toBeNull();
    sites.override(sites.paths.image(123456, 'main'), { status: 500 });
    await expect(s.fetchCover(123456, 'main')).rejects.toThrow(/^DLsite 500 after 3 attempts/);
  });
});

describe('parsing details', () => {
  it('strips the " [circle] | DLsite" suffix only', () => {
    expect(stripTitleSuffix('作品 [ASMR] [月下工房] | DLsite', '月下工房')).toBe('作品 [ASMR]');
    expect(stripTitleSuffix('作品 [ASMR] [サークル] | DLsite', undefined)).toBe('作品 [ASMR]');
    expect(stripTitleSuffix('作品名', '月下工房')).toBe('作品名');
  });

  it('reads dates in the page and API formats', () => {
    expect(parseDate('2021年03月05日')).toBe('2021-03-05');
    expect(parseDate('2019-08-10 16:00:00')).toBe('2019-08-10');
    expect(parseDate('2019/8/1')).toBe('2019-08-01');
    expect(parseDate('未定')).toBe('');
    expect(parseDate('2019年13月40日')).toBe('');
  });

  it('rounds the image bucket up to the next 1000 (an exact multiple stays)', () => {
    const bases = { dlsiteBaseUrl: 'https://www.dlsite.com', dlsiteImageBaseUrl: 'https://img.dlsite.jp' };
    expect(coverUrl(bases, 124000, 'main')).toBe('https://img.dlsite.jp/modpub/images2/work/doujin/RJ124000/RJ124000_img_main.jpg');
    expect(coverUrl(bases, 124001, 'sam')).toBe('https://img.dlsite.jp/modpub/images2/work/doujin/RJ125000/RJ124001_img_sam.jpg');
    expect(coverUrl(bases, 999999, '240x240')).toBe('https://img.dlsite.jp/resize/images2/work/doujin/RJ01000000/RJ999999_img_main_240x240.jpg');
    expect(coverUrl(bases, 1_098_758, 'main')).toBe('https://img.dlsite.jp/modpub/images2/work/doujin/RJ01099000/RJ01098758_img_main.jpg');
  });
});
