/**
 * End to end: the installable app (issue 6 "PWA") in headless Chromium against the real server serving
 * copies of the built web app — the manifest and icons, the service worker caching the app shell (never
 * /api/), the shell opening offline, and a new release deployed while a page is open: '版本已更新' with a
 * refresh action that hands over to the new worker and reloads into the new release. Also the 120 s
 * limit on route chunks (with a short limit).
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { createAppContext } from '../../server/app/create-app.js';
import { createLogger } from '../../server/app/logger.js';
import type { AppContext } from '../../server/app/services.js';
import { startHttpServer, type RunningServer } from '../../server/http/server.js';
import { launchChromium, openPage, screenshot } from '../helpers/browser.js';
import { PACKAGE_ROOT } from '../helpers/cli-server.js';
import { ChunkTimeoutError, withChunkTimeout, withTimeout } from '../../web/src/lib/pwa-chunks.js';
import { t } from '../../web/src/i18n/index.js';

const BUILT_WEB = path.join(PACKAGE_ROOT, 'dist', 'web');
const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 15_000, interval: 100 });

let tmp = '';
let app: AppContext;
let browser: Browser;
/** The HTTP servers the running test started (closed after it). */
const servers = new Set<RunningServer>();

/** The page's entry script, e.g. /assets/index-abc.js. */
const entryOf = (html: string) => /<script[^>]*type="module"[^>]*src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1] ?? null;

/**
 * A "new release" of the web app: every asset renamed (as a new build's hashes would be) and every
 * reference to it rewritten, so the two releases share no file name.
 */
function makeRelease(from: string, to: string, suffix: string): void {
  cpSync(from, to, { recursive: true });
  const assets = readdirSync(path.join(to, 'assets'));
  const renamed = new Map(assets.map((name) => [name, name.replace(/(\.[a-z]+)$/, `-${suffix}$1`)]));
  const pattern = new RegExp(
    [...renamed.keys()]
      .sort((a, b) => b.length - a.length)
      .map((n) => n.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&'))
      .join('|'),
    'g',
  );
  const rewrite = (file: string) =>
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace(pattern, (m) => renamed.get(m) ?? m),
    );
  rewrite(path.join(to, 'index.html'));
  for (const [name, next] of renamed) {
    const file = path.join(to, 'assets', name);
    if (/\.(js|css)$/.test(name)) rewrite(file);
    cpSync(file, path.join(to, 'assets', next));
    rmSync(file);
  }
}

/** Serve `webRoot` on `port` (an ephemeral one when not given) until the end of the running test. */
async function serve(webRoot: string, port = 0): Promise<RunningServer> {
  const running = await startHttpServer(app, { port, host: '127.0.0.1', webRoot });
  servers.add(running);
  return running;
}

/** Close a server now (and not again after the test). */
async function stop(running: RunningServer): Promise<void> {
  servers.delete(running);
  await running.close();
}

afterEach(async () => {
  const open = [...servers];
  servers.clear();
  await Promise.all(open.map((s) => s.close()));
});

beforeAll(async () => {
  if (!existsSync(path.join(BUILT_WEB, 'index.html'))) throw new Error('dist/web is missing: run `npm run build` first');
  tmp = mkdtempSync(path.join(os.tmpdir(), 'kikoplay-e2e-pwa-'));
  cpSync(BUILT_WEB, path.join(tmp, 'v1'), { recursive: true });
  makeRelease(path.join(tmp, 'v1'), path.join(tmp, 'v2'), 'v2');
  app = await createAppContext({ dataDir: path.join(tmp, 'data'), flags: { auth: false }, env: {}, logger: createLogger({ level: 'silent' }) });
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

interface SwGlobals {
  navigator: { serviceWorker: { controller: { scriptURL: string } | null } };
  caches: { keys(): Promise<string[]>; open(name: string): Promise<{ keys(): Promise<{ url: string }[]> }> };
  document: { querySelector(s: string): { getAttribute(n: string): string | null } | null; dispatchEvent(e: unknown): boolean };
  Event: new (type: string) => unknown;
}

describe('the installable app', { timeout: 90_000 }, () => {
  it('serves a manifest with the icons an install needs, linked from the page', async () => {
    const base = `http://127.0.0.1:${(await serve(path.join(tmp, 'v1'))).port}`;
    const html = await (await fetch(`${base}/works`, { headers: { Accept: 'text/html' } })).text();
    expect(html).toContain('<link rel="manifest" href="/manifest.webmanifest"');
    const res = await fetch(`${base}/manifest.webmanifest`);
    expect(res.status).toBe(200);
    const manifest = (await res.json()) as { name: string; start_url: string; display: string; icons: { src: string; sizes: string; purpose?: string }[] };
    expect(manifest).toMatchObject({ name: 'kikoplay', start_url: '/works', display: 'standalone' });
    for (const size of ['192x192', '512x512']) {
      const icon = manifest.icons.find((i) => i.sizes === size && i.purpose !== 'maskable');
      expect(icon, size).toBeDefined();
      const png = await fetch(base + icon!.src);
      expect([png.status, png.headers.get('content-type')]).toEqual([200, 'image/png']);
    }
    expect(manifest.icons.some((i) => i.purpose === 'maskable')).toBe(true);
  });

  it('caches the app shell (never /api/), opens offline, and offers "版本已更新" when a new release is deployed', async () => {
    // the first release, on a server of this test's own (it deploys the second one on the same address)
    const first = await serve(path.join(tmp, 'v1'));
    const { context, page, errors } = await openPage(browser, { baseURL: `http://127.0.0.1:${first.port}` });
    page.setDefaultTimeout(15_000);
    const v1 = entryOf(readFileSync(path.join(tmp, 'v1', 'index.html'), 'utf8'))!;
    const v2 = entryOf(readFileSync(path.join(tmp, 'v2', 'index.html'), 'utf8'))!;
    expect(v1).not.toBe(v2);

    await page.goto('/works');
    await page.getByTestId('works-page').waitFor();
    // the first install waits for a quiet moment after the load, precaches the release, then takes control
    await expect
      .poll(() => page.evaluate(() => (globalThis as unknown as SwGlobals).navigator.serviceWorker.controller?.scriptURL ?? null), { timeout: 30_000, interval: 100 })
      .toContain(`build=${encodeURIComponent(v1)}`);

    const cached = () =>
      page.evaluate(async () => {
        const out: string[] = [];
        for (const key of await (globalThis as unknown as SwGlobals).caches.keys())
          for (const req of await (await (globalThis as unknown as SwGlobals).caches.open(key)).keys()) out.push(`${key} ${new URL(req.url).pathname}`);
        return out;
      });
    await poll(async () => (await cached()).some((e) => e.endsWith(v1))).toBe(true);
    // browse a little (API calls, covers) under the worker's control
    await page.reload();
    await page.getByTestId('works-page').waitFor();
    await page.goto('/circles');
    await page.getByTestId('labels-page').waitFor();
    const entries = await cached();
    expect(entries.some((e) => / \/$/.test(e))).toBe(true); // the page
    expect(entries.some((e) => /\/assets\/WorksPage-[^/]+\.js$/.test(e))).toBe(true); // route chunks, for offline use
    expect(entries.some((e) => / \/manifest\.webmanifest$/.test(e))).toBe(true);
    expect(entries.filter((e) => e.includes(' /api'))).toEqual([]);

    // offline: the shell still opens (the API, of course, does not answer)
    await context.setOffline(true);
    await page.goto('/about');
    await page.getByTestId('menu-toggle').waitFor();
    await context.setOffline(false);
    await page.goto('/works');
    await page.getByTestId('works-page').waitFor();

    // a new release is deployed on the same address while the page is open
    await stop(first);
    await serve(path.join(tmp, 'v2'), first.port);
    await page.evaluate(() => (globalThis as unknown as SwGlobals).document.dispatchEvent(new (globalThis as unknown as SwGlobals).Event('visibilitychange')));
    const notice = page.getByTestId('sw-update-notice');
    await notice.waitFor();
    expect(await notice.textContent()).toContain('版本已更新');
    await screenshot(page, 'pwa-update-notice-1280-light', page.getByTestId('sw-refresh'));
    await page.getByTestId('sw-refresh').click();
    await poll(() => page.evaluate(() => (globalThis as unknown as SwGlobals).document.querySelector('script[type="module"][src*="/assets/"]')?.getAttribute('src') ?? null)).toBe(v2);
    await page.getByTestId('works-page').waitFor();
    await poll(() => page.evaluate(() => (globalThis as unknown as SwGlobals).navigator.serviceWorker.controller?.scriptURL ?? null)).toContain(`build=${encodeURIComponent(v2)}`);
    // the old release's cache is gone
    await poll(async () => (await page.evaluate(() => (globalThis as unknown as SwGlobals).caches.keys())).filter((k) => k.startsWith('kikoplay-shell-')).length).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('route chunks load under a time limit', { timeout: 90_000 }, () => {
  it('installs the worker for the first time only once the user stops scrolling', async () => {
    const { context, page } = await openPage(browser, { baseURL: `http://127.0.0.1:${(await serve(path.join(tmp, 'v1'))).port}` });
    page.setDefaultTimeout(15_000);
    /** The page's input events (with their scroll distance) and worker registrations, at page times. */
    const timeline = async () =>
      (await page.evaluate(() => (globalThis as unknown as { kikoplayTimeline: string[] }).kikoplayTimeline)).map((e) => {
        const [at, what, delta] = e.split(' ');
        return { at: Number(at), what, delta: Number(delta ?? 0) };
      });
    const registered = async () => (await timeline()).some((e) => e.what === 'register');
    const shown = async () => (await timeline()).map((e) => `${e.at} ${e.what}`).join(', ');
    try {
      await page.addInitScript(() => {
        const g = globalThis as unknown as {
          kikoplayTimeline: string[];
          addEventListener(type: string, fn: (e: { deltaY?: number }) => void, options: object): void;
          navigator: { serviceWorker: { register(...args: unknown[]): Promise<unknown> } };
        };
        const timeline: string[] = (g.kikoplayTimeline = []);
        const note = (what: string) => timeline.push(`${Math.round(performance.now())} ${what}`);
        for (const type of ['wheel', 'scroll']) g.addEventListener(type, (e) => note(`${type} ${e.deltaY ?? 0}`), { capture: true, passive: true });
        const sw = g.navigator.serviceWorker;
        const register = sw.register.bind(sw);
        sw.register = (...args) => (note('register'), register(...args));
      });
      // The page's clock stands still and moves only when the test says, so the times below are the
      // app's times whatever the machine's load (a stalled step would otherwise be a quiet moment).
      // While the page loads, the user already scrolls sideways: 20 ms of page time per step.
      const start = Date.now();
      await page.clock.install({ time: start });
      await page.clock.pauseAt(start + 1_000);
      await page.goto('/works', { waitUntil: 'commit' });
      await page.mouse.move(400, 300);
      const list = page.getByTestId('works-page');
      for (const end = Date.now() + 15_000; !(await list.isVisible()); await page.clock.runFor(20)) {
        if (Date.now() > end) throw new Error('the works page did not show in 15 s');
        await page.mouse.wheel(10, 0);
      }
      // scrolling for 6 s, a wheel step every 200 ms: well past the 1.5 s wait after the load event
      for (let i = 0; i < 30; i++) {
        await page.mouse.wheel(0, 100);
        await page.clock.runFor(200);
      }
      // Chromium hands wheel events to the page with a frame, possibly after the clock moved on: wait
      // until the page has had all 3000 px of them (events may merge; their distance adds up)
      const scrolled = async () => (await timeline()).filter((e) => e.what === 'wheel').reduce((sum, e) => sum + e.delta, 0);
      await poll(scrolled).toBe(3_000);
      expect(await registered(), await shown()).toBe(false);
      // 1.9 s without input is not yet a quiet moment
      const lastInput = Math.max(...(await timeline()).map((e) => e.at));
      const now = await page.evaluate(() => performance.now());
      await page.clock.runFor(Math.max(0, Math.round(lastInput + 1_900 - now)));
      expect(await registered(), await shown()).toBe(false);
      // a quiet moment (2 s) and the idle callback's longest wait, then the install, 2 s or more after
      // the last input
      await page.clock.runFor(3_200);
      await poll(registered).toBe(true);
      const events = await timeline();
      const install = events.findIndex((e) => e.what === 'register');
      expect(events[install].at - events[install - 1].at, await shown()).toBeGreaterThanOrEqual(2_000);
      type Sw = { navigator: { serviceWorker: { getRegistration(): Promise<unknown> } } };
      await poll(() => page.evaluate(async () => (await (globalThis as unknown as Sw).navigator.serviceWorker.getRegistration()) !== undefined)).toBe(true);
    } finally {
      await context.close();
    }
  });

  it('fails a chunk that does not arrive in time, and passes one that does', async () => {
    await expect(withTimeout(() => new Promise<never>(() => undefined), 20)).rejects.toBeInstanceOf(ChunkTimeoutError);
    await expect(withTimeout(() => new Promise<never>(() => undefined), 20)).rejects.toThrow(t.library.pwa.chunkTimeout);
    await expect(withTimeout(async () => 'ok', 1000)).resolves.toBe('ok');
    await expect(withTimeout(() => Promise.reject(new Error('404')), 1000)).rejects.toThrow('404');
  });

  it('puts every lazy route of the tree under the limit, nested ones too', async () => {
    const never = () => new Promise<never>(() => undefined);
    const routes = withChunkTimeout([{ path: '/', lazy: never, children: [{ path: 'a', lazy: never }, { path: 'b' }] }], 20);
    await expect(routes[0].lazy && (routes[0].lazy as () => Promise<unknown>)()).rejects.toBeInstanceOf(ChunkTimeoutError);
    await expect((routes[0].children![0].lazy as () => Promise<unknown>)()).rejects.toBeInstanceOf(ChunkTimeoutError);
    expect(routes[0].children![1].lazy).toBeUndefined();
  });
});
