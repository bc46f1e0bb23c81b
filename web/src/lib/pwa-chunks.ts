/**
 * Route chunks load with a time limit: a lazy route
 * whose code has not arrived after 120 s fails, and the router's error page offers a reload, instead of
 * a page that waits forever on a stalled connection.
 */
import type { RouteObject } from 'react-router';
import { t } from '../i18n/index.js';

export const CHUNK_TIMEOUT_MS = 120_000;

export class ChunkTimeoutError extends Error {
  constructor() {
    super(t.library.pwa.chunkTimeout);
    this.name = 'ChunkTimeoutError';
  }
}

/** `load()`, or a ChunkTimeoutError after `ms`. */
export function withTimeout<T>(load: () => Promise<T>, ms = CHUNK_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkTimeoutError()), ms);
    load().then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}

type Lazy = NonNullable<RouteObject['lazy']>;

function wrapLazy(lazy: Lazy, ms: number): Lazy {
  if (typeof lazy === 'function') return (() => withTimeout(() => lazy(), ms)) as Lazy;
  const out: Record<string, unknown> = {};
  for (const [key, fn] of Object.entries(lazy)) out[key] = typeof fn === 'function' ? () => withTimeout(() => (fn as () => Promise<unknown>)(), ms) : fn;
  return out as Lazy;
}

/** The route tree with every `lazy` loader under the time limit. */
export function withChunkTimeout(routes: RouteObject[], ms = CHUNK_TIMEOUT_MS): RouteObject[] {
  return routes.map((route) => {
    const next = { ...route } as RouteObject;
    if (route.lazy) next.lazy = wrapLazy(route.lazy, ms);
    if (route.children) next.children = withChunkTimeout(route.children, ms);
    return next;
  });
}
