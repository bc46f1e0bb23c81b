/**
 * The one API client: JSON over fetch, the bearer token from local storage, and one error type.
 * A non-2xx answer becomes an `ApiError` whose message is the body's `code` said in the interface
 * language (error-sentence.ts), else the body's `error`, else the first `errors[].msg`, else
 * "status statusText"; `reportError` (errors.ts) shows it. A request that gets no answer — the server
 * is down or unreachable, the browser is offline, or no answer came within `REQUEST_TIMEOUT_MS` — rejects
 * with a `NetworkError` that says so in the interface language (never the browser's "Failed to fetch").
 */
import { t } from '../i18n/index.js';
import { errorSentence } from './error-sentence.js';
import { getToken } from './token.js';

/** A request with no answer after this long is given up as a network failure. */
export const REQUEST_TIMEOUT_MS = 60_000;

export type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];
export type Query = Record<string, QueryValue>;

export interface RequestOptions {
  query?: Query;
  /** Sent as JSON. */
  body?: unknown;
  signal?: AbortSignal;
  /** Give up after this many ms (default `REQUEST_TIMEOUT_MS`). */
  timeoutMs?: number;
}

export interface FieldError {
  /** The field's problem in the interface language. */
  msg: string;
  param?: string;
  code?: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly statusText: string,
    readonly body: unknown,
  ) {
    const text = serverText(status, statusText, body);
    super(isRecord(body) ? errorSentence(body, text) : text);
    this.name = 'ApiError';
    this.serverText = text;
  }

  /** What the server said (`error`), untranslated: for parsing details, never for display. */
  readonly serverText: string;

  /** The machine code of the answer (server/domain/error-codes.ts), if it has one. */
  get code(): string | undefined {
    return isRecord(this.body) && typeof this.body.code === 'string' ? this.body.code : undefined;
  }

  /** The request field at fault, if the answer names one. */
  get field(): string | undefined {
    return isRecord(this.body) && typeof this.body.field === 'string' ? this.body.field : undefined;
  }

  /** `errors[]` of a 422 answer (login, user management), each `msg` in the interface language. */
  get fieldErrors(): FieldError[] {
    const errors = isRecord(this.body) ? this.body.errors : undefined;
    if (!Array.isArray(errors)) return [];
    return errors
      .filter((e): e is Record<string, unknown> & { msg: string } => isRecord(e) && typeof e.msg === 'string')
      .map((e) => ({
        msg: errorSentence({ code: e.code, field: e.param, params: e.params }, e.msg),
        ...(typeof e.param === 'string' ? { param: e.param } : {}),
        ...(typeof e.code === 'string' ? { code: e.code } : {}),
      }));
  }
}

/** No answer from the server: it is unreachable (`kind: 'unreachable'`) or too slow (`'timeout'`). */
export class NetworkError extends Error {
  constructor(
    readonly kind: 'unreachable' | 'timeout',
    cause?: unknown,
  ) {
    super(kind === 'timeout' ? t.errors.timeout : t.errors.unreachable, { cause });
    this.name = 'NetworkError';
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function serverText(status: number, statusText: string, body: unknown): string {
  if (isRecord(body)) {
    if (typeof body.error === 'string' && body.error) return body.error;
    const first = Array.isArray(body.errors) ? body.errors[0] : undefined;
    if (isRecord(first) && typeof first.msg === 'string') return first.msg;
  }
  return `${status} ${statusText}`.trim();
}

/** `/api/...` plus a query string; arrays repeat the key; null/undefined are left out. */
export function apiPath(path: string, query?: Query): string {
  if (!path.startsWith('/api/')) throw new Error(`API paths start with /api/: ${path}`);
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const v of value) params.append(key, String(v));
    else params.append(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${path}${path.includes('?') ? '&' : '?'}${qs}` : path;
}

async function readBody(res: Response): Promise<unknown> {
  if (res.status === 204 || res.status === 304) return undefined;
  const text = await res.text();
  if (!text) return undefined;
  if ((res.headers.get('Content-Type') ?? '').includes('json')) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

/**
 * What a failed fetch becomes: the caller's own abort stays an AbortError (it is silent), the timeout
 * and a rejected fetch (a TypeError: refused, DNS, offline, reset) become a `NetworkError`.
 */
function noAnswer(err: unknown, aborted: boolean, timedOut: boolean): unknown {
  if (aborted) return err;
  if (timedOut) return new NetworkError('timeout', err);
  if (err instanceof TypeError) return new NetworkError('unreachable', err);
  return err;
}

/** Call the API. Resolves with the parsed body; rejects with `ApiError`, `NetworkError`, or the caller's AbortError. */
export async function api<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  let body: string | undefined;
  if (opts.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  // one controller for the caller's signal and the timeout (plain calls: older browsers lack AbortSignal.any)
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, opts.timeoutMs ?? REQUEST_TIMEOUT_MS);
  const own = opts.signal;
  const follow = () => controller.abort();
  if (own?.aborted) controller.abort();
  else own?.addEventListener('abort', follow, { once: true });
  let res: Response;
  let data: unknown;
  try {
    res = await fetch(apiPath(path, opts.query), { method, headers, body, signal: controller.signal, credentials: 'same-origin' });
    data = await readBody(res);
  } catch (err) {
    throw noAnswer(err, own?.aborted === true, timedOut);
  } finally {
    clearTimeout(timer);
    own?.removeEventListener('abort', follow);
  }
  if (!res.ok) throw new ApiError(res.status, res.statusText, data);
  return data as T;
}

export const apiGet = <T>(path: string, query?: Query, signal?: AbortSignal) => api<T>('GET', path, { query, signal });
