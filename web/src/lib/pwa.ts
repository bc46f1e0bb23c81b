/**
 * The installable app (issue 6 "PWA"): registers the service worker (web/public/sw.js) under
 * this release's build id and watches for new releases. When a new release's worker is ready while an
 * older page is open, '版本已更新' is shown for 10 s with a refresh action that hands over to the new
 * worker and reloads. A page that already is the new release lets the new worker take over silently.
 *
 * New releases are noticed when the browser checks the worker, and — for tabs left open — by asking the
 * server for its page every 30 minutes and when the tab becomes visible again.
 */
import { showUpdateNotice } from './pwa-notice.js';

export const CHECK_INTERVAL_MS = 30 * 60_000;

/** The entry script of a page (`/assets/index-<hash>.js`): it changes with every release. */
export function entryOf(html: string): string | null {
  const m = /<script[^>]*type="module"[^>]*src="(\/assets\/[^"]+\.js)"/.exec(html) ?? /<script[^>]*src="(\/assets\/[^"]+\.js)"[^>]*type="module"/.exec(html);
  return m ? m[1] : null;
}

const runningBuild = (): string | null => document.querySelector<HTMLScriptElement>('script[type="module"][src*="/assets/"]')?.getAttribute('src') ?? null;

const workerUrl = (build: string) => `/sw.js?build=${encodeURIComponent(build)}`;

const buildOf = (worker: ServiceWorker): string | null => new URL(worker.scriptURL).searchParams.get('build');

let reloading = false;

function activate(worker: ServiceWorker, reload: boolean): void {
  if (reload) {
    navigator.serviceWorker.addEventListener('controllerchange', () => {
      if (reloading) return;
      reloading = true;
      window.location.reload();
    });
  }
  worker.postMessage({ type: 'SKIP_WAITING' });
}

/** A new worker is installed and waiting. */
function onWaiting(worker: ServiceWorker, current: string): void {
  if (buildOf(worker) === current) activate(worker, false);
  else showUpdateNotice(() => activate(worker, true));
}

function watch(registration: ServiceWorkerRegistration, current: string): void {
  if (registration.waiting && navigator.serviceWorker.controller) onWaiting(registration.waiting, current);
  registration.addEventListener('updatefound', () => {
    const worker = registration.installing;
    if (!worker) return;
    worker.addEventListener('statechange', () => {
      // with no controller this is the first install: it activates by itself
      if (worker.state === 'installed' && navigator.serviceWorker.controller) onWaiting(worker, current);
    });
  });
}

/** Ask the server which release it serves; register that release's worker when it is another one. */
async function checkForRelease(current: string): Promise<void> {
  try {
    const res = await fetch('/', { cache: 'no-store', headers: { Accept: 'text/html' } });
    if (!res.ok) return;
    const latest = entryOf(await res.text());
    if (latest && latest !== current) await navigator.serviceWorker.register(workerUrl(latest), { scope: '/', updateViaCache: 'none' });
  } catch (err) {
    console.warn('release check failed', err);
  }
}

/** How long after the load event the worker is registered, and the longest wait for an idle moment. */
const INSTALL_DELAY_MS = 1_500;
const IDLE_TIMEOUT_MS = 3_000;
/**
 * The first install also waits while someone is scrolling or typing (a quiet moment this long), but
 * not for ever: after the longest wait it goes ahead anyway.
 */
const QUIET_MS = 2_000;
const LONGEST_WAIT_MS = 60_000;

/**
 * Watches for scrolling, wheel, touch, pointer and key input from now on; `whenQuiet(fn)` calls `fn`
 * once there has been none for QUIET_MS (or LONGEST_WAIT_MS after it was asked), then stops watching.
 */
function watchActivity(): { whenQuiet(fn: () => void): void; stop(): void } {
  let last = -Infinity;
  const seen = () => void (last = performance.now());
  const events = ['scroll', 'wheel', 'touchmove', 'pointerdown', 'keydown'] as const;
  for (const e of events) window.addEventListener(e, seen, { passive: true, capture: true });
  const stop = () => {
    for (const e of events) window.removeEventListener(e, seen, { capture: true });
  };
  return {
    stop,
    whenQuiet(fn) {
      const giveUpAt = performance.now() + LONGEST_WAIT_MS;
      const check = () => {
        const now = performance.now();
        const quietFor = now - last;
        if (quietFor >= QUIET_MS || now >= giveUpAt) {
          stop();
          fn();
        } else {
          window.setTimeout(check, QUIET_MS - quietFor);
        }
      };
      check();
    },
  };
}

export function registerServiceWorker(): void {
  if (import.meta.env.DEV || !('serviceWorker' in navigator) || !window.isSecureContext) return;
  const current = runningBuild();
  if (!current) return;
  const activity = watchActivity();
  const start = () => {
    const registered = navigator.serviceWorker.register(workerUrl(current), { scope: '/', updateViaCache: 'none' });
    registered.then(
      (registration) => watch(registration, current),
      (err: unknown) => console.warn('service worker registration failed', err),
    );
    // listening from now on, so a tab shown again while the registration is under way is not missed;
    // a check runs once the registration is watched (the reactions run in the order they were added)
    const check = () =>
      void registered.then(
        () => checkForRelease(current),
        () => undefined,
      );
    window.setInterval(check, CHECK_INTERVAL_MS);
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') check();
    });
  };
  // The first install precaches every chunk of the release: not while the first screen is still
  // loading (its chunks, API requests and covers would queue behind ~40 precache requests), nor while
  // someone scrolls the list or types (the downloads and cache writes take CPU the page needs). After
  // the load event, a moment for the first screen's requests, then a quiet, idle moment. A page the
  // worker already controls registers at once (nothing to precache unless a release is out).
  const later = () => {
    if (navigator.serviceWorker.controller) {
      activity.stop();
      return start();
    }
    window.setTimeout(() => {
      activity.whenQuiet(() => {
        if ('requestIdleCallback' in window) window.requestIdleCallback(start, { timeout: IDLE_TIMEOUT_MS });
        else start();
      });
    }, INSTALL_DELAY_MS);
  };
  // loaded on demand by main.tsx, possibly after the load event
  if (document.readyState === 'complete') later();
  else window.addEventListener('load', later, { once: true });
}
