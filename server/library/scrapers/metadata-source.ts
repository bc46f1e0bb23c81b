import type { Config } from '../../config/schema.js';
import { formatWorkCode } from '../../domain/work-code.js';
import { HttpClient, isNotFoundError, type FetchConfig, type RateLimit } from './http-fetch.js';
import type { CoverType, WorkMetadata } from '../../domain/work-metadata.js';
import type { MetadataResult, MetadataSource } from './metadata-types.js';
import { parseAsmrOneWork } from './asmr-one.js';
import { errorMessage } from './common.js';
import { EMPTY_DYNAMIC_INFO, parseDynamicInfo, type DynamicInfo } from './dlsite-dynamic.js';
import { parseDlsitePage, parsePageCoverInfo, type DlsitePageData } from './dlsite-page.js';
import { parseProductJson } from './dlsite-product-json.js';
import { asmrOneCoverUrl, asmrOneWorkInfoUrl, coverUrl, coverUrls, dynamicInfoUrl, hvdbWorkUrl, productJsonUrl, productPageUrl } from './dlsite-urls.js';
import { pickHvdbVas, parseHvdbVaNames } from './hvdb.js';

/**
 * The metadata source of the scanner (server/library/README.md#phases-of-a-library-scan):
 * 1. the DLsite product page in `tagLanguage` + the dynamic sales API (HVDB for the voice actors when the
 *    page lists none);
 * 2. DLsite's product.json API (+ the same dynamic API and HVDB fallback);
 * 3. asmr.one, last, with its tags moved to a reserved id range (see asmr-one.ts).
 * Each failed source adds a warning and the next is tried. `notFound` is set only when every source
 * answered "no such work" (404 / empty), so the scanner stops retrying; network trouble is never "not
 * found". A cancelled signal rejects at once with `signal.reason`.
 * A host that fails at the network level UNREACHABLE_AFTER times in a row (DNS, refused, timeout) is given
 * up for the source's lifetime (one scan): its requests fail at once, and `takeOutages()` reports it once.
 */

/** Network-level failures in a row after which a site is given up for the rest of a scan. */
export const UNREACHABLE_AFTER = 3;

export type ScraperConfig = FetchConfig & Pick<Config, 'tagLanguage' | 'dlsiteBaseUrl' | 'dlsiteImageBaseUrl' | 'hvdbBaseUrl' | 'asmrOneBaseUrl'>;

export interface MetadataSourceOptions {
  /** Share one client (and so one per-host rate limit) between sources. */
  http?: HttpClient;
  rateLimit?: Partial<RateLimit>;
  userAgent?: string;
  /** Network-level failures in a row that give a host up (default UNREACHABLE_AFTER). */
  unreachableAfter?: number;
}

/** A source that can also release its pooled connections. */
export interface ScrapingMetadataSource extends MetadataSource {
  readonly http: HttpClient;
  close(): Promise<void>;
}

const COVER_INFO_TTL_MS = 10 * 60_000;
const COVER_INFO_MAX = 500;

interface CoverInfo {
  coverFrom: number;
  noImage: boolean;
  at: number;
}

/** Answers with the work's data, "no such work" (null) or an error message. */
type Attempt<T> = { data: T } | { missing: true; error: string } | { missing: false; error: string };

const looksLikeImage = (b: Buffer): boolean =>
  b.length > 3 &&
  ((b[0] === 0xff && b[1] === 0xd8) || // JPEG
    (b[0] === 0x89 && b[1] === 0x50) || // PNG
    (b[0] === 0x47 && b[1] === 0x49) || // GIF
    (b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP'));

export function createMetadataSource(config: ScraperConfig | (() => ScraperConfig), options: MetadataSourceOptions = {}): ScrapingMetadataSource {
  const cfg = typeof config === 'function' ? config : () => config;
  const http = options.http ?? new HttpClient(cfg, { rateLimit: options.rateLimit, userAgent: options.userAgent, unreachableAfter: options.unreachableAfter ?? UNREACHABLE_AFTER });
  const coverInfo = new Map<number, CoverInfo>();

  const rememberCover = (workId: number, coverFrom: number, noImage: boolean) => {
    coverInfo.delete(workId);
    coverInfo.set(workId, { coverFrom, noImage, at: Date.now() });
    if (coverInfo.size > COVER_INFO_MAX) coverInfo.delete(coverInfo.keys().next().value as number);
  };

  const localeHeaders = (c: ScraperConfig) => ({ Cookie: `locale=${c.tagLanguage}` });

  /** Runs one request + parse, sorting the outcome into data / missing / error. Aborts propagate. */
  async function attempt<T>(signal: AbortSignal | undefined, run: () => Promise<T | null>, missingMessage: string): Promise<Attempt<T>> {
    try {
      const data = await run();
      return data === null ? { missing: true, error: missingMessage } : { data };
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      return { missing: isNotFoundError(err), error: errorMessage(err) };
    }
  }

  async function fetchDynamic(workId: number, c: ScraperConfig, signal?: AbortSignal): Promise<{ info: DynamicInfo | null; warning?: string }> {
    const r = await attempt(signal, async () => parseDynamicInfo(await http.getJson(dynamicInfoUrl(c, workId), { site: 'DLsite', signal }), formatWorkCode(workId)), 'DLsite 没有该作品的销售信息');
    return 'data' in r ? { info: r.data } : { info: null, warning: `DLsite 动态信息获取失败: ${r.error}` };
  }

  /** HVDB voice actors for a work whose DLsite data lists none (RJ works only). */
  async function hvdbVas(workId: number, c: ScraperConfig, warnings: string[], signal?: AbortSignal): Promise<WorkMetadata['vas']> {
    const url = hvdbWorkUrl(c.hvdbBaseUrl, workId);
    if (!url) return [];
    const r = await attempt(signal, async () => pickHvdbVas(parseHvdbVaNames(await http.getText(url, { site: 'HVDB', signal }))), '');
    if ('data' in r) return r.data;
    warnings.push(`HVDB 获取声优失败: ${r.error}`);
    return [];
  }

  function fromDlsite(c: ScraperConfig, page: Omit<DlsitePageData, 'series'>, dynamic: DynamicInfo, source: WorkMetadata['source']): WorkMetadata {
    return {
      title: page.title,
      circle: page.circle,
      nsfw: page.nsfw,
      release: page.release,
      tags: page.tags,
      vas: page.vas,
      ...dynamic,
      related: page.related.length ? page.related : null,
      covers: page.noImage ? {} : coverUrls(c, page.coverFrom),
      coverFrom: page.coverFrom,
      source,
    };
  }

  async function fetchMetadata(workId: number, signal?: AbortSignal): Promise<MetadataResult> {
    signal?.throwIfAborted();
    const c = cfg();
    const warnings: string[] = [];
    const failures: string[] = [];
    let missing = 0;
    let dynamicOnce: ReturnType<typeof fetchDynamic> | null = null;
    const dynamic = async (fallback: DynamicInfo): Promise<DynamicInfo> => {
      dynamicOnce ??= fetchDynamic(workId, c, signal);
      const d = await dynamicOnce;
      if (d.warning && !warnings.includes(d.warning)) warnings.push(d.warning);
      return d.info ?? fallback;
    };

    // 1. DLsite product page + dynamic API, in parallel.
    dynamicOnce = fetchDynamic(workId, c, signal);
    dynamicOnce.catch(() => undefined); // an abort is rethrown where it is awaited
    let pageCover: { coverFrom: number; noImage: boolean } | null = null;
    const page = await attempt(
      signal,
      async () => {
        const html = await http.getText(productPageUrl(c, workId), { site: 'DLsite', signal, headers: localeHeaders(c) });
        pageCover = parsePageCoverInfo(html, workId);
        rememberCover(workId, pageCover.coverFrom, pageCover.noImage);
        return parseDlsitePage(html, workId);
      },
      '',
    );
    if ('data' in page) {
      const vas = page.data.vas.length ? page.data.vas : await hvdbVas(workId, c, warnings, signal);
      return { ok: true, metadata: fromDlsite(c, { ...page.data, vas }, await dynamic(EMPTY_DYNAMIC_INFO), 'dlsite'), warnings };
    }
    if (page.missing) {
      missing++;
      rememberCover(workId, workId, false); // no page: the work's own image folder is the only guess
    }
    failures.push(page.error);
    warnings.push(`DLSite获取元数据失败: ${page.error}`);

    // 2. DLsite product.json API.
    const json = await attempt(
      signal,
      async () => parseProductJson(await http.getJson(productJsonUrl(c, workId), { site: 'DLsite', signal, headers: localeHeaders(c) }), workId),
      `DLsite product.json: no such work ${formatWorkCode(workId)}`,
    );
    const jsonFailure = 'data' in json ? (json.data.tags.length || json.data.vas.length ? null : "Couldn't parse data from DLsite product.json.") : json.error;
    if ('data' in json && !jsonFailure) {
      const d = json.data;
      // The page (when it could be read) knows best which images are shown; else the API's image_main.
      const cover = pageCover ?? { coverFrom: d.coverFrom, noImage: false };
      if (!pageCover) rememberCover(workId, cover.coverFrom, cover.noImage);
      const vas = d.vas.length ? d.vas : await hvdbVas(workId, c, warnings, signal);
      const metadata = fromDlsite(c, { ...d, ...cover, vas }, await dynamic(d.dynamic), 'dlsite-json');
      return { ok: true, metadata, warnings };
    }
    if (!('data' in json) && json.missing) missing++;
    failures.push(jsonFailure as string);
    warnings.push(`DLSite json api获取元数据失败: ${jsonFailure}`);

    // 3. asmr.one.
    const one = await attempt(
      signal,
      async () => parseAsmrOneWork(await http.getJson(asmrOneWorkInfoUrl(c.asmrOneBaseUrl, workId), { site: 'asmr.one', signal }), workId, c.tagLanguage),
      `asmr.one: no such work ${formatWorkCode(workId)}`,
    );
    if ('data' in one) {
      const d = one.data;
      const metadata: WorkMetadata = {
        title: d.title,
        circle: d.circle,
        nsfw: d.nsfw,
        release: d.release,
        tags: d.tags,
        vas: d.vas,
        ...d.dynamic,
        related: d.related.length ? d.related : null,
        covers: {
          main: asmrOneCoverUrl(c.asmrOneBaseUrl, workId, 'main'),
          sam: asmrOneCoverUrl(c.asmrOneBaseUrl, workId, 'sam'),
          '240x240': asmrOneCoverUrl(c.asmrOneBaseUrl, workId, '240x240'),
        },
        source: 'asmr.one',
      };
      return { ok: true, metadata, warnings };
    }
    if (one.missing) missing++;
    failures.push(one.error);
    warnings.push(`AsmrOne获取元数据失败: ${one.error}`);

    const notFound = missing === 3;
    // the reason alone: the scan log puts it after its own "元数据获取失败: "
    const error = notFound ? `DLsite 与 asmr.one 上都没有作品 ${formatWorkCode(workId)}` : [...new Set(failures)].join('; ');
    return { ok: false, notFound, error, warnings };
  }

  /** Which work's images are this work's cover, from the product page (remembered from the last fetch). */
  async function coverInfoFor(workId: number, signal?: AbortSignal): Promise<Omit<CoverInfo, 'at'>> {
    const known = coverInfo.get(workId);
    if (known && Date.now() - known.at < COVER_INFO_TTL_MS) return known;
    const c = cfg();
    try {
      const html = await http.getText(productPageUrl(c, workId), { site: 'DLsite', signal, headers: localeHeaders(c) });
      const info = parsePageCoverInfo(html, workId);
      rememberCover(workId, info.coverFrom, info.noImage);
      return info;
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      // No page (or no answer): the work's own image folder is the best guess. A 404 is remembered.
      if (isNotFoundError(err)) rememberCover(workId, workId, false);
      return { coverFrom: workId, noImage: false };
    }
  }

  /** GET an image: its bytes, null on 404 or a non-image answer; other failures throw. */
  async function image(url: string, site: 'DLsite' | 'asmr.one', signal?: AbortSignal): Promise<Buffer | null> {
    try {
      const body = await http.getBuffer(url, { site, signal });
      return looksLikeImage(body) ? body : null;
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      if (isNotFoundError(err)) return null;
      throw err;
    }
  }

  async function fetchCover(workId: number, type: CoverType, signal?: AbortSignal): Promise<Buffer | null> {
    signal?.throwIfAborted();
    const c = cfg();
    const info = await coverInfoFor(workId, signal);
    // DLsite shows its "no image" placeholder: its image host has nothing; asmr.one may still have a copy.
    const ids = info.noImage ? [] : info.coverFrom === workId ? [workId] : [info.coverFrom, workId];
    for (const id of ids) {
      const bytes = await image(coverUrl(c, id, type), 'DLsite', signal);
      if (bytes) return bytes;
    }
    return image(asmrOneCoverUrl(c.asmrOneBaseUrl, workId, type), 'asmr.one', signal);
  }

  return {
    http,
    fetch: fetchMetadata,
    fetchCover,
    takeOutages: () => http.takeOutages(),
    unreachable: () => {
      const c = cfg();
      return !!http.outageOf(productPageUrl(c, 1)) && !!http.outageOf(asmrOneWorkInfoUrl(c.asmrOneBaseUrl, 1));
    },
    close: () => http.close(),
  };
}
