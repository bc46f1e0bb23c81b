/**
 * One loopback HTTP server standing in for DLsite (pages, dynamic info, product.json), DLsite's image host,
 * HVDB and asmr.one, serving the recorded-style fixtures of test/fixtures/sites/ (see works.ts there).
 *
 *   const sites = await startFakeSites();
 *   const config = { ...defaultConfig(), ...sites.config, ...FAST_SCRAPE_CONFIG };
 *   sites.override(sites.paths.page(123456), { status: 500, times: 2 });   // fail twice, then serve
 *   sites.count(sites.paths.page(123456));                                 // requests seen
 *
 * Each site lives under its own path prefix (`/dlsite`, `/img`, `/hvdb`, `/asmr`) so a scraper that uses the
 * wrong base URL is caught. Import `FIXTURE_WORKS` to assert what a scraper or the scanner must produce.
 */
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LANGS, WORK_DEFS, expectedSales, expectedTags, vaId, type CoverKind, type FixtureKey, type Lang, type WorkDef } from '../fixtures/sites/works.js';

export { ASMR_ONE_TAG_BASE, LANGS, WORK_DEFS, type CoverKind, type FixtureKey, type Lang } from '../fixtures/sites/works.js';

export const FIXTURE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/sites');

const PREFIX_BASE = 1e12;
const SECTIONS = ['maniax', 'books', 'pro'] as const;
const IMAGE_DIRS = ['doujin', 'books', 'professional'] as const;
const CODE_PREFIXES = ['RJ', 'BJ', 'VJ'] as const;

function codeOf(id: number): string {
  const index = Math.floor(id / PREFIX_BASE);
  const digits = id - index * PREFIX_BASE;
  return CODE_PREFIXES[index] + String(digits).padStart(digits >= 1e6 ? 8 : 6, '0');
}
const sectionOf = (code: string) => SECTIONS[CODE_PREFIXES.indexOf(code.slice(0, 2) as 'RJ')];
const imageDirOf = (code: string) => IMAGE_DIRS[CODE_PREFIXES.indexOf(code.slice(0, 2) as 'RJ')];
const bucketOf = (code: string) => {
  const digits = Math.ceil(Number(code.slice(2)) / 1000) * 1000;
  return code.slice(0, 2) + String(digits).padStart(digits >= 1e6 ? 8 : 6, '0');
};

/** Request paths (with the site prefix) of every fake endpoint, by work id. */
export const FAKE_PATHS = {
  page: (id: number) => `/dlsite/${sectionOf(codeOf(id))}/work/=/product_id/${codeOf(id)}.html`,
  dynamic: (id: number) => `/dlsite/${sectionOf(codeOf(id))}/product/info/ajax?product_id=${codeOf(id)}`,
  productJson: (id: number) => `/dlsite/${sectionOf(codeOf(id))}/api/=/product.json?workno=${codeOf(id)}`,
  hvdb: (id: number) => `/hvdb/Dashboard/WorkDetails/${id}`,
  asmrOne: (id: number) => `/asmr/api/workInfo/${codeOf(id)}`,
  image: (id: number, type: CoverKind) => {
    const code = codeOf(id);
    const folder = `images2/work/${imageDirOf(code)}/${bucketOf(code)}`;
    return type === '240x240' ? `/img/resize/${folder}/${code}_img_main_240x240.jpg` : `/img/modpub/${folder}/${code}_img_${type}.jpg`;
  },
  asmrOneCover: (id: number, type: CoverKind) => `/asmr/api/cover/${codeOf(id)}.jpg?type=${type}`,
};

export interface FixtureWork {
  key: FixtureKey;
  id: number;
  code: string;
  description: string;
  /** Which source the default chain (page → product.json → asmr.one) ends with; null = none. */
  source: 'dlsite' | 'dlsite-json' | 'asmr.one' | null;
  notFound: boolean;
  title: string;
  circle: { id: number; name: string } | null;
  nsfw: boolean;
  release: string;
  /** Tags in the default tagLanguage (zh-cn). */
  tags: { id: number; name: string }[];
  tagsByLanguage: Record<Lang, { id: number; name: string }[]>;
  vas: { id: string; name: string }[];
  dl_count: number;
  price: number;
  review_count: number;
  rate_count: number;
  rate_average_2dp: number;
  /** Language editions in zh-cn labels; null when there are none. */
  related: { id: number; name: string }[] | null;
  /** The cover files fetchCover must return (absolute paths), or null when the work has no cover anywhere. */
  coverFiles: Record<CoverKind, string> | null;
  /** The work whose DLsite images are the cover (a translation's original), or null. */
  coverFrom: number | null;
  def: WorkDef;
}

function toFixtureWork(def: WorkDef): FixtureWork {
  const sales = expectedSales(def);
  const cover = def.expect.cover;
  const coverFiles = cover
    ? (Object.fromEntries(
        (['main', 'sam', '240x240'] as CoverKind[]).map((t) => {
          const coverDef = WORK_DEFS.find((w) => w.code === cover.code) as WorkDef;
          const rel = cover.from === 'dlsite' ? FAKE_PATHS.image(coverDef.id, t) : `/asmr-one/covers/${cover.code}_${t}.jpg`;
          return [t, path.join(FIXTURE_DIR, rel)];
        }),
      ) as Record<CoverKind, string>)
    : null;
  const found = def.expect.source !== null;
  return {
    key: def.key,
    id: def.id,
    code: def.code,
    description: def.description,
    source: def.expect.source,
    notFound: !found,
    title: def.title['zh-cn'],
    circle: found ? { id: def.circle.id, name: def.circle.name } : null,
    nsfw: def.age === 'adult',
    release: def.release,
    tags: expectedTags(def, 'zh-cn'),
    tagsByLanguage: Object.fromEntries(LANGS.map((l) => [l, expectedTags(def, l)])) as Record<Lang, { id: number; name: string }[]>,
    vas: def.expect.vas.map((name) => ({ id: vaId(name), name })),
    dl_count: Number(sales?.dl_count ?? 0),
    price: sales?.price ?? 0,
    review_count: sales?.review_count ?? 0,
    rate_count: sales?.rate_count ?? 0,
    rate_average_2dp: sales?.rate_average_2dp ?? 0,
    related: def.expect.source === 'asmr.one' || !def.editions.length ? null : def.editions.filter((e) => e.id !== def.id).map((e) => ({ id: e.id, name: e.label['zh-cn'] })),
    coverFiles,
    coverFrom: cover?.from === 'dlsite' ? (WORK_DEFS.find((w) => w.code === cover.code) as WorkDef).id : null,
    def,
  };
}

/** Every fixture work with what a scraper must make of it (tagLanguage zh-cn). */
export const FIXTURE_WORKS: FixtureWork[] = WORK_DEFS.map(toFixtureWork);

export const fixtureWork = (key: FixtureKey): FixtureWork => FIXTURE_WORKS.find((w) => w.key === key) as FixtureWork;

/** Scraper settings that keep tests quick (no politeness spacing, fast retries). */
export const FAST_SCRAPE_CONFIG = { retry: 2, retryDelay: 0, dlsiteTimeout: 5000, hvdbTimeout: 5000 } as const;

export interface Behaviour {
  /** Answer with this status (and `body`) instead of the fixture. */
  status?: number;
  body?: string;
  /** Wait this long before answering (a slow site). */
  delayMs?: number;
  /** Destroy the connection without an answer (a network error). */
  hangUp?: boolean;
  /** How many requests get this behaviour (default: all). */
  times?: number;
}

export interface SeenRequest {
  method: string;
  /** Path and query, with the site prefix: `/dlsite/maniax/work/=/product_id/RJ123456.html`. */
  path: string;
  cookie: string;
  userAgent: string;
  /** Arrival time (ms, monotonic). */
  at: number;
}

export interface FakeSites {
  origin: string;
  /** Config overrides pointing every metadata source at this server. */
  config: { dlsiteBaseUrl: string; dlsiteImageBaseUrl: string; hvdbBaseUrl: string; asmrOneBaseUrl: string };
  paths: typeof FAKE_PATHS;
  requests: SeenRequest[];
  /** Most requests in flight at once since the last reset. */
  maxInFlight: number;
  /** Requests whose path (with query) equals `match`, or whose path matches the RegExp. */
  count(match: string | RegExp): number;
  override(pathWithQuery: string, behaviour: Behaviour): void;
  /** Forget overrides and the request log. */
  reset(): void;
  close(): Promise<void>;
}

const localeOf = (cookie: string): Lang => {
  const m = /(?:^|;\s*)locale=([a-z-]+)/i.exec(cookie);
  const lang = m?.[1].toLowerCase() as Lang | undefined;
  return lang && LANGS.includes(lang) ? lang : 'ja-jp';
};

function fixture(rel: string): Buffer | null {
  const file = path.join(FIXTURE_DIR, rel);
  return file.startsWith(FIXTURE_DIR + path.sep) && existsSync(file) ? readFileSync(file) : null;
}

const CODE = '((?:RJ|BJ|VJ)(?:\\d{8}|\\d{6}))';
const SECTION = '(maniax|books|pro)';

interface Answer {
  status: number;
  type: string;
  body: Buffer | string;
}

const html404 = '<!DOCTYPE html><html><head><title>404 Not Found | DLsite</title></head><body><div class="error_box">お探しのページは見つかりませんでした。</div></body></html>';

/** The fixture answer of a request, as the real site would give it. */
function route(pathname: string, query: URLSearchParams, cookie: string): Answer {
  const json = (body: Buffer | string) => ({ status: 200, type: 'application/json; charset=utf-8', body });
  const jpeg = (body: Buffer | null): Answer => (body ? { status: 200, type: 'image/jpeg', body } : { status: 404, type: 'text/html', body: '<h1>404 Not Found</h1>' });
  let m: RegExpExecArray | null;

  if ((m = new RegExp(`^/dlsite/${SECTION}/work/=/product_id/${CODE}\\.html$`).exec(pathname))) {
    const body = sectionOf(m[2]) === m[1] ? fixture(`dlsite/pages/${m[2]}.${localeOf(cookie)}.html`) : null;
    return body ? { status: 200, type: 'text/html; charset=utf-8', body } : { status: 404, type: 'text/html; charset=utf-8', body: html404 };
  }
  if ((m = new RegExp(`^/dlsite/${SECTION}/product/info/ajax$`).exec(pathname))) {
    const code = query.get('product_id') ?? '';
    // DLsite answers [] for products it does not sell.
    return json((new RegExp(`^${CODE}$`).test(code) && sectionOf(code) === m[1] && fixture(`dlsite/info/${code}.json`)) || '[]');
  }
  if ((m = new RegExp(`^/dlsite/${SECTION}/api/=/product\\.json$`).exec(pathname))) {
    const code = query.get('workno') ?? '';
    return json((new RegExp(`^${CODE}$`).test(code) && sectionOf(code) === m[1] && fixture(`dlsite/product/${code}.${localeOf(cookie)}.json`)) || '[]');
  }
  if ((m = /^\/img\/((?:modpub|resize)\/images2\/work\/[a-z]+\/[A-Z]{2}\d+\/[A-Z]{2}\d+_img_[a-z0-9_]+\.jpg)$/.exec(pathname))) {
    return jpeg(fixture(`img/${m[1]}`));
  }
  if ((m = /^\/hvdb\/Dashboard\/WorkDetails\/(\d+)$/.exec(pathname))) {
    const body = fixture(`hvdb/${m[1]}.html`);
    return body ? { status: 200, type: 'text/html; charset=utf-8', body } : { status: 404, type: 'text/html', body: '<h1>Not Found</h1>' };
  }
  if ((m = new RegExp(`^/asmr/api/workInfo/${CODE}$`).exec(pathname))) {
    const body = fixture(`asmr-one/${m[1]}.json`);
    return body ? json(body) : { status: 404, type: 'application/json', body: '{"error":"Work not found"}' };
  }
  if ((m = new RegExp(`^/asmr/api/cover/${CODE}\\.jpg$`).exec(pathname))) {
    const type = query.get('type') ?? 'main';
    return jpeg(/^(main|sam|240x240)$/.test(type) ? fixture(`asmr-one/covers/${m[1]}_${type}.jpg`) : null);
  }
  return { status: 404, type: 'text/plain', body: `no fake route for ${pathname}` };
}

export async function startFakeSites(): Promise<FakeSites> {
  const overrides = new Map<string, Behaviour & { left: number }>();
  const requests: SeenRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let inFlight = 0;

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const pathWithQuery = url.pathname + url.search;
    const cookie = String(req.headers.cookie ?? '');
    requests.push({ method: req.method ?? 'GET', path: pathWithQuery, cookie, userAgent: String(req.headers['user-agent'] ?? ''), at: performance.now() });
    inFlight++;
    sites.maxInFlight = Math.max(sites.maxInFlight, inFlight);
    let done = false;
    const finish = () => {
      if (!done) {
        done = true;
        inFlight--;
      }
    };
    res.on('close', finish);

    const o = overrides.get(pathWithQuery) ?? overrides.get(url.pathname);
    let behaviour: Behaviour | undefined;
    if (o && o.left > 0) {
      o.left--;
      behaviour = o;
    }
    const answer = (): void => {
      if (behaviour?.hangUp) {
        req.socket.destroy();
        return;
      }
      const a: Answer = behaviour?.status
        ? { status: behaviour.status, type: 'text/plain; charset=utf-8', body: behaviour.body ?? `fake ${behaviour.status}` }
        : route(url.pathname, url.searchParams, cookie);
      res.writeHead(a.status, { 'Content-Type': a.type, 'Content-Length': Buffer.byteLength(a.body) });
      res.end(a.body);
    };
    if (behaviour?.delayMs) {
      const t = setTimeout(() => {
        timers.delete(t);
        if (!res.destroyed) answer();
      }, behaviour.delayMs);
      timers.add(t);
      res.on('close', () => {
        clearTimeout(t);
        timers.delete(t);
      });
    } else {
      answer();
    }
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const sites: FakeSites = {
    origin,
    config: {
      dlsiteBaseUrl: `${origin}/dlsite`,
      dlsiteImageBaseUrl: `${origin}/img`,
      hvdbBaseUrl: `${origin}/hvdb`,
      asmrOneBaseUrl: `${origin}/asmr`,
    },
    paths: FAKE_PATHS,
    requests,
    maxInFlight: 0,
    count(match) {
      return requests.filter((r) => (typeof match === 'string' ? r.path === match : match.test(r.path))).length;
    },
    override(pathWithQuery, behaviour) {
      overrides.set(pathWithQuery, { ...behaviour, left: behaviour.times ?? Number.POSITIVE_INFINITY });
    },
    reset() {
      overrides.clear();
      requests.length = 0;
      sites.maxInFlight = 0;
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return sites;
}

/** The bytes of a fixture cover file. */
export const readCover = (file: string): Buffer => readFileSync(file);
