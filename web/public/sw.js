/*
 * kikoplay's service worker: it keeps the app shell — the page, its hashed /assets/ files, the icons and
 * the manifest — so the app installs, opens offline and a tab opened before a new release keeps loading
 * its own code. It never touches /api/ (data, covers, media, lyrics) or range requests.
 *
 * Registered as /sw.js?build=<entry file of the page> (web/src/lib/pwa.ts): each release is a new
 * worker with its own cache. A new worker waits until the page tells it to take over (the page shows
 * '版本已更新' with a refresh action), then removes the caches of older releases.
 */
const BUILD = new URL(self.location.href).searchParams.get('build') || 'dev';
const PREFIX = 'kikoplay-shell-';
const CACHE = PREFIX + BUILD;
const SHELL_FILES = ['/manifest.webmanifest', '/favicon.svg', '/icons/icon-192.png', '/icons/icon-512.png'];
const SHELL_PAGE = '/';

self.addEventListener('install', (event) => {
  // /api/ (data, covers, media) goes straight to the network without waking this worker at all, where
  // the browser has the Static Routing API: a list of work cards asks for a cover per card, and each
  // request passed through the worker's thread first (the fetch handler below lets /api/ go too)
  if (typeof event.addRoutes === 'function') {
    const api = typeof URLPattern === 'function' ? new URLPattern({ pathname: '/api/*' }) : '/api/*';
    event.waitUntil(event.addRoutes([{ condition: { urlPattern: api }, source: 'network' }]).catch(() => undefined));
  }
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      const page = await fetch(SHELL_PAGE, { cache: 'no-store', headers: { Accept: 'text/html' } });
      if (!page.ok) throw new Error(`app shell: ${page.status}`);
      const html = await page.clone().text();
      await cache.put(SHELL_PAGE, page);
      // the entry script, its preloaded chunks and the CSS named in the page ...
      const named = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
      // ... and every route chunk the entry can load (its dependency map names them all), so the
      // release keeps working offline and after the server has moved on to a newer one
      const assets = new Set(named);
      for (const script of named.filter((n) => n.endsWith('.js'))) {
        const res = await fetch(script);
        if (!res.ok) continue;
        await cache.put(script, res.clone());
        for (const m of (await res.text()).matchAll(/["'`](?:\.?\/)?(assets\/[\w.-]+\.(?:js|css))["'`]/g)) assets.add('/' + m[1]);
      }
      await cache.addAll([...assets].filter((a) => !named.includes(a) || a.endsWith('.css')).concat(SHELL_FILES));
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys()) if (key.startsWith(PREFIX) && key !== CACHE) await caches.delete(key);
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('message', (event) => {
  if (event.data && event.data.type === 'SKIP_WAITING') self.skipWaiting();
});

/** Hashed assets never change: any release's cache will do; new ones are kept for offline use. */
async function cacheFirst(request) {
  const hit = await caches.match(request);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok) {
    const cache = await caches.open(CACHE);
    await cache.put(request, response.clone());
  }
  return response;
}

/** Pages come from the network (always the current release); offline, the cached shell. */
async function networkFirstPage(request) {
  try {
    return await fetch(request);
  } catch (err) {
    const cache = await caches.open(CACHE);
    const shell = await cache.match(SHELL_PAGE);
    if (shell) return shell;
    throw err;
  }
}

async function staleWhileRevalidate(request) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(request);
  const refresh = fetch(request)
    .then((response) => {
      if (response.ok) void cache.put(request, response.clone());
      return response;
    })
    .catch(() => hit);
  return hit || refresh;
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || request.headers.has('range')) return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname === '/api' || url.pathname.startsWith('/api/')) return;
  if (request.mode === 'navigate') {
    event.respondWith(networkFirstPage(request));
    return;
  }
  if (url.pathname.startsWith('/assets/')) {
    event.respondWith(cacheFirst(request));
    return;
  }
  if (SHELL_FILES.includes(url.pathname)) event.respondWith(staleWhileRevalidate(request));
});
