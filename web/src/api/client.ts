/**
 * The one API client: JSON over fetch, the bearer token from local storage, and one error type.
 * A non-2xx answer becomes an `ApiError` whose message is the body's `error`, else the first
 * `errors[].msg`, else "status statusText"; `reportError` (errors.ts) shows it.
 */
import { getToken } from './token.js';

export type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];
export type Query = Record<string, QueryValue>;

export interface RequestOptions {
  query?: Query;
  /** Sent as JSON. */
  body?: unknown;
  signal?: AbortSignal;
}

export interface FieldError {
  msg: string;
  param?: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly statusText: string,
    readonly body: unknown,
  ) {
    super(errorMessage(status, statusText, body));
    this.name = 'ApiError';
  }

  /** `errors[]` of a 422 answer (login, user management). */
  get fieldErrors(): FieldError[] {
    const errors = isRecord(this.body) ? this.body.errors : undefined;
    return Array.isArray(errors) ? errors.filter((e): e is FieldError => isRecord(e) && typeof e.msg === 'string') : [];
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function errorMessage(status: number, statusText: string, body: unknown): string {
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

/** Call the API. Resolves with the parsed body; rejects with `ApiError` (or the fetch error). */
export async function api<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  let body: string | undefined;
  if (opts.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  const res = await fetch(apiPath(path, opts.query), { method, headers, body, signal: opts.signal, credentials: 'same-origin' });
  const data = await readBody(res);
  if (!res.ok) throw new ApiError(res.status, res.statusText, data);
  return data as T;
}

export const apiGet = <T>(path: string, query?: Query, signal?: AbortSignal) => api<T>('GET', path, { query, signal });
