import { Agent, ProxyAgent, fetch, type Dispatcher, type Response as UndiciResponse } from 'undici';
import type { Config } from '../../config/schema.js';

/**
 * The HTTP client of the metadata scrapers :
 * - undici `fetch`, through a `ProxyAgent` when `httpProxyPort` is set (port 0 = no proxy);
 * - a per-attempt timeout (`hvdbTimeout` for HVDB, `dlsiteTimeout` for DLsite, its image host and asmr.one);
 * - `retry` retries spaced by `retryDelay` for network errors, timeouts, 429 and 5xx (never other 4xx);
 * - an AbortSignal that stops everything at once (in flight, waiting for a slot, or between retries) and
 *   rejects with `signal.reason`;
 * - a polite limit per host: at most `maxConcurrent` requests at a time and `minIntervalMs` between starts;
 * - clear errors: `DLsite 404 (<url>)`, `HVDB: timeout after 10000 ms after 6 attempts (<url>)`;
 * - an outage switch (option `unreachableAfter`): after that many network-level failures in a row (DNS,
 *   refused, reset, timeout) against one host, the host counts as unreachable for the client's lifetime
 *   (one scan): every later request to it fails at once with kind `unreachable`, and the outage is
 *   reported once through `takeOutages()`.
 * Config is read on every request, so live config changes (proxy, timeouts, retries) apply at once.
 */

export type Site = 'DLsite' | 'HVDB' | 'asmr.one';

export type FetchConfig = Pick<Config, 'dlsiteTimeout' | 'hvdbTimeout' | 'retry' | 'retryDelay' | 'httpProxyHost' | 'httpProxyPort'>;

export interface RateLimit {
  /** Requests in flight at once per host. */
  maxConcurrent: number;
  /** Minimum time between the starts of two requests to one host. */
  minIntervalMs: number;
  /**
   * Whether loopback hosts (a local mirror, the test doubles) are spaced too. Off by default: politeness is
   * for remote sites; the concurrency cap still applies.
   */
  spaceLoopback: boolean;
}

export const DEFAULT_RATE_LIMIT: RateLimit = { maxConcurrent: 4, minIntervalMs: 250, spaceLoopback: false };

export const DEFAULT_USER_AGENT = 'Mozilla/5.0 (compatible; kikoplay/0.1; self-hosted voice work library)';

/** Bodies larger than this are refused (a cover is ~100 KB, a product page ~300 KB). */
const MAX_BODY_BYTES = 32 * 1024 * 1024;
/** Longest wait a `Retry-After` header may impose. */
const MAX_RETRY_AFTER_MS = 60_000;

export type HttpErrorKind = 'status' | 'timeout' | 'network' | 'too_large' | 'invalid' | 'unreachable';

export class HttpFetchError extends Error {
  constructor(
    message: string,
    readonly site: Site,
    readonly url: string,
    readonly kind: HttpErrorKind,
    readonly status: number | null,
    readonly attempts: number,
  ) {
    super(message);
    this.name = 'HttpFetchError';
  }
}

/** True when the site answered 404 (no retry was made: a 404 is an answer, not a failure). */
export const isNotFoundError = (err: unknown): boolean => err instanceof HttpFetchError && err.status === 404;

export interface RequestOptions {
  site: Site;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

export interface HttpResponse {
  status: number;
  url: string;
  headers: { get(name: string): string | null };
  body: Buffer;
}

export interface HttpClientOptions {
  rateLimit?: Partial<RateLimit>;
  userAgent?: string;
  /** Network-level failures in a row after which a host is given up (default: never). */
  unreachableAfter?: number;
}

/** A host given up after network-level failures in a row. */
export interface HostOutage {
  site: Site;
  /** host[:port] of the URL. */
  host: string;
  /** What failed last, e.g. `ENOTFOUND dlsite.invalid`, `ECONNREFUSED 127.0.0.1:9`, `timeout 10000 ms`. */
  reason: string;
}

/** The message of a request refused because its host was given up (Chinese, like the scan log). */
export const outageMessage = (o: Pick<HostOutage, 'site' | 'reason'>): string => `${o.site} 无法连接 (${o.reason})`;

/** The proxy URL the config asks for, or null (port 0 = no proxy; an empty host means localhost). */
export function proxyUrlFromConfig(config: Pick<Config, 'httpProxyHost' | 'httpProxyPort'>): string | null {
  if (!config.httpProxyPort) return null;
  let host = config.httpProxyHost
    .trim()
    .replace(/^[a-z]+:\/\//i, '')
    .replace(/\/.*$/, '');
  host = host.replace(/^([^:[\]]+):\d+$/, '$1'); // "proxy.lan:8080": the port comes from httpProxyPort
  if (!host) host = 'localhost';
  if (host.includes(':') && !host.startsWith('[')) host = `[${host}]`;
  return `http://${host}:${config.httpProxyPort}`;
}

/** Per-attempt timeout of a site. */
export function timeoutFor(site: Site, config: Pick<Config, 'dlsiteTimeout' | 'hvdbTimeout'>): number {
  return site === 'HVDB' ? config.hvdbTimeout : config.dlsiteTimeout;
}

const isLoopbackHost = (hostname: string): boolean => hostname === 'localhost' || hostname === '[::1]' || hostname === '::1' || /^127\.\d+\.\d+\.\d+$/.test(hostname);

/** Waits `ms`, or rejects with `signal.reason` as soon as the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Concurrency cap + start spacing for one host. */
class HostLimiter {
  private active = 0;
  private nextStartAt = 0;
  private readonly waiters: Array<() => void> = [];

  constructor(
    private readonly maxConcurrent: number,
    private readonly minIntervalMs: number,
  ) {}

  async acquire(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    if (this.active < this.maxConcurrent) {
      this.active++;
    } else {
      await new Promise<void>((resolve, reject) => {
        const onAbort = () => {
          const i = this.waiters.indexOf(grant);
          if (i >= 0) this.waiters.splice(i, 1);
          reject(signal?.reason);
        };
        // The releasing request hands its slot over: `active` stays as it is.
        const grant = () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        this.waiters.push(grant);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    }
    if (this.minIntervalMs <= 0) return;
    const now = performance.now();
    const startAt = Math.max(now, this.nextStartAt);
    this.nextStartAt = startAt + this.minIntervalMs;
    if (startAt > now) {
      try {
        await sleep(startAt - now, signal);
      } catch (err) {
        this.release();
        throw err;
      }
    }
  }

  release(): void {
    const next = this.waiters.shift();
    if (next) next();
    else this.active--;
  }
}

/** The message of a network failure, without undici's generic "fetch failed". */
function describeNetworkError(err: unknown): string {
  const cause = err instanceof Error ? (err as Error & { cause?: unknown }).cause : undefined;
  const pick = (e: unknown): string | undefined => {
    if (!(e instanceof Error)) return undefined;
    if (e instanceof AggregateError && e.errors.length) return pick(e.errors[0]);
    const code = (e as Error & { code?: string }).code;
    return e.message || code;
  };
  return pick(cause) ?? pick(err) ?? String(err);
}

/** The short reason of a network failure: its error code and the host, e.g. `ENOTFOUND dlsite.invalid`. */
function networkReason(err: unknown, url: string): string {
  const codeOf = (e: unknown): string | undefined => {
    if (!(e instanceof Error)) return undefined;
    if (e instanceof AggregateError && e.errors.length) return codeOf(e.errors[0]);
    return (e as Error & { code?: string }).code;
  };
  const cause = err instanceof Error ? (err as Error & { cause?: unknown }).cause : undefined;
  const code = codeOf(cause) ?? codeOf(err);
  return code ? `${code} ${new URL(url).host}` : describeNetworkError(err);
}

class AttemptTimeout extends Error {}

interface AttemptFailure {
  kind: HttpErrorKind;
  status: number | null;
  detail: string;
  /** Short reason of a network-level failure (for the outage message). */
  reason?: string;
  retryable: boolean;
  retryAfterMs: number;
}

function retryAfterMs(headers: HttpResponse['headers']): number {
  const value = headers.get('retry-after');
  if (!value) return 0;
  const seconds = Number(value);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(value) - Date.now();
  return Number.isFinite(ms) && ms > 0 ? Math.min(ms, MAX_RETRY_AFTER_MS) : 0;
}

async function readBody(res: UndiciResponse): Promise<Buffer> {
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) throw new RangeError(`body of ${declared} bytes is too large`);
  if (!res.body) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body) {
    size += chunk.byteLength;
    if (size > MAX_BODY_BYTES) throw new RangeError(`body larger than ${MAX_BODY_BYTES} bytes`);
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

export class HttpClient {
  private readonly rateLimit: RateLimit;
  private readonly userAgent: string;
  private readonly limiters = new Map<string, HostLimiter>();
  private dispatcher: { key: string; value: Dispatcher } | null = null;
  private readonly unreachableAfter: number;
  /** Network-level failures in a row per host. */
  private readonly failuresInRow = new Map<string, number>();
  private readonly outages = new Map<string, HostOutage>();
  private fresh: HostOutage[] = [];

  constructor(
    private readonly config: () => FetchConfig,
    options: HttpClientOptions = {},
  ) {
    this.rateLimit = { ...DEFAULT_RATE_LIMIT, ...options.rateLimit };
    if (!(this.rateLimit.maxConcurrent >= 1)) throw new RangeError('rateLimit.maxConcurrent must be at least 1');
    this.userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
    this.unreachableAfter = options.unreachableAfter ?? Infinity;
  }

  /** The outage of a URL's host, or null while it is still asked. */
  outageOf(url: string): HostOutage | null {
    return this.outages.get(new URL(url).host) ?? null;
  }

  /** Outages that began since the last call (each is returned once). */
  takeOutages(): HostOutage[] {
    const out = this.fresh;
    this.fresh = [];
    return out;
  }

  private unreachable(url: string, outage: HostOutage, attempts: number): HttpFetchError {
    return new HttpFetchError(outageMessage(outage), outage.site, url, 'unreachable', null, attempts);
  }

  /** Counts an attempt's outcome for its host; returns the outage it starts, if any. */
  private track(host: string, site: Site, failure: AttemptFailure | null): HostOutage | null {
    if (!failure || (failure.kind !== 'network' && failure.kind !== 'timeout')) {
      if (failure?.kind !== 'too_large') this.failuresInRow.delete(host);
      return null;
    }
    const n = (this.failuresInRow.get(host) ?? 0) + 1;
    this.failuresInRow.set(host, n);
    if (n < this.unreachableAfter) return null;
    const known = this.outages.get(host);
    if (known) return known;
    const outage: HostOutage = { site, host, reason: failure.reason ?? failure.detail };
    this.outages.set(host, outage);
    this.fresh.push(outage);
    return outage;
  }

  /** GET a URL: resolves with a 2xx response, rejects with `HttpFetchError` or the abort reason. */
  async get(url: string, opts: RequestOptions): Promise<HttpResponse> {
    const config = this.config();
    const timeoutMs = timeoutFor(opts.site, config);
    const maxAttempts = 1 + Math.max(0, config.retry);
    const limiter = this.limiterFor(url);
    const host = new URL(url).host;
    let last: AttemptFailure | null = null;
    let attempts = 0;
    while (attempts < maxAttempts) {
      if (attempts > 0 && last) await sleep(Math.max(config.retryDelay, last.retryAfterMs), opts.signal);
      const down = this.outages.get(host);
      if (down) throw this.unreachable(url, down, attempts);
      attempts++;
      await limiter.acquire(opts.signal);
      let outcome: HttpResponse | AttemptFailure;
      try {
        outcome = await this.attempt(url, opts, timeoutMs, config);
      } finally {
        limiter.release();
      }
      const outage = this.track(host, opts.site, 'kind' in outcome ? outcome : null);
      if (!('kind' in outcome)) return outcome;
      if (outage) throw this.unreachable(url, outage, attempts);
      last = outcome;
      if (!outcome.retryable) break;
    }
    throw this.toError(url, opts.site, last as AttemptFailure, attempts, timeoutMs);
  }

  async getText(url: string, opts: RequestOptions): Promise<string> {
    return (await this.get(url, opts)).body.toString('utf8');
  }

  async getJson(url: string, opts: RequestOptions): Promise<unknown> {
    const res = await this.get(url, opts);
    try {
      return JSON.parse(res.body.toString('utf8')) as unknown;
    } catch {
      throw new HttpFetchError(`${opts.site}: invalid JSON (${url})`, opts.site, url, 'invalid', res.status, 1);
    }
  }

  async getBuffer(url: string, opts: RequestOptions): Promise<Buffer> {
    return (await this.get(url, opts)).body;
  }

  /** Close pooled connections (the client stays usable: a new pool is made on the next request). */
  async close(): Promise<void> {
    const d = this.dispatcher;
    this.dispatcher = null;
    if (d) await d.value.close().catch(() => undefined);
  }

  private limiterFor(url: string): HostLimiter {
    const { host, hostname } = new URL(url);
    let limiter = this.limiters.get(host);
    if (!limiter) {
      const spaced = this.rateLimit.spaceLoopback || !isLoopbackHost(hostname);
      limiter = new HostLimiter(this.rateLimit.maxConcurrent, spaced ? this.rateLimit.minIntervalMs : 0);
      this.limiters.set(host, limiter);
    }
    return limiter;
  }

  private dispatcherFor(config: FetchConfig): Dispatcher {
    const proxy = proxyUrlFromConfig(config);
    const key = proxy ?? 'direct';
    if (this.dispatcher?.key === key) return this.dispatcher.value;
    const old = this.dispatcher;
    const value = proxy ? new ProxyAgent({ uri: proxy, keepAliveTimeout: 10_000 }) : new Agent({ keepAliveTimeout: 10_000 });
    this.dispatcher = { key, value };
    if (old) void old.value.close().catch(() => undefined);
    return value;
  }

  private async attempt(url: string, opts: RequestOptions, timeoutMs: number, config: FetchConfig): Promise<HttpResponse | AttemptFailure> {
    opts.signal?.throwIfAborted();
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new AttemptTimeout()), timeoutMs);
    const onAbort = () => controller.abort(opts.signal?.reason);
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const res = await fetch(url, {
        headers: { 'User-Agent': this.userAgent, ...opts.headers },
        signal: controller.signal,
        dispatcher: this.dispatcherFor(config),
        redirect: 'follow',
      });
      if (res.status < 200 || res.status > 299) {
        await res.body?.cancel().catch(() => undefined);
        const retryable = res.status === 429 || res.status >= 500;
        return { kind: 'status', status: res.status, detail: '', retryable, retryAfterMs: retryable ? retryAfterMs(res.headers) : 0 };
      }
      const body = await readBody(res);
      return { status: res.status, url: res.url || url, headers: res.headers, body };
    } catch (err) {
      if (opts.signal?.aborted) throw opts.signal.reason;
      if (controller.signal.aborted) return { kind: 'timeout', status: null, detail: '', reason: `timeout ${timeoutMs} ms ${new URL(url).host}`, retryable: true, retryAfterMs: 0 };
      if (err instanceof RangeError) return { kind: 'too_large', status: null, detail: err.message, retryable: false, retryAfterMs: 0 };
      return { kind: 'network', status: null, detail: describeNetworkError(err), reason: networkReason(err, url), retryable: true, retryAfterMs: 0 };
    } finally {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
    }
  }

  private toError(url: string, site: Site, failure: AttemptFailure, attempts: number, timeoutMs: number): HttpFetchError {
    const tries = attempts > 1 ? ` after ${attempts} attempts` : '';
    const what =
      failure.kind === 'status'
        ? `${site} ${failure.status}${tries}`
        : failure.kind === 'timeout'
          ? `${site}: timeout after ${timeoutMs} ms${tries}`
          : failure.kind === 'network'
            ? `${site}: network error: ${failure.detail}${tries}`
            : `${site}: ${failure.detail}`;
    return new HttpFetchError(`${what} (${url})`, site, url, failure.kind, failure.status, attempts);
  }
}
