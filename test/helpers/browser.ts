/**
 * Headless Chromium for end-to-end tests, driven by playwright-core (no bundled browser: the system
 * Chromium, `apt-get install -y chromium`). Screenshots go to test-results/screenshots/.
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type ConsoleMessage, type Locator, type Page } from 'playwright-core';
import { PACKAGE_ROOT } from './cli-server.js';

/**
 * Content-Security-Policy violations of every page the helpers opened (the server sends the policy on
 * the web app, server/http/spa.ts). Under vitest any violation fails the test it happened in (or the
 * file's last hook, for one after the last test), so the whole e2e suite proves the policy.
 */
const cspViolations: string[] = [];

/** Violations seen since the last call (and forgets them). */
export const takeCspViolations = (): string[] => cspViolations.splice(0);

if (process.env.VITEST) {
  const { afterEach, afterAll } = await import('vitest');
  const check = () => {
    const seen = takeCspViolations();
    if (seen.length) throw new Error(`Content-Security-Policy violation(s) in the page:\n${seen.join('\n')}`);
  };
  afterEach(check);
  afterAll(check);
}

const isCspMessage = (msg: ConsoleMessage) => /Content Security Policy/i.test(msg.text());

/** Record the page's CSP violations (the DOM event, and the console line Chromium writes for each). */
async function watchCsp(context: BrowserContext, errors: string[]): Promise<void> {
  const record = (text: string) => {
    cspViolations.push(text);
    errors.push(`CSP: ${text}`);
  };
  await context.exposeBinding('__kikoplayCspViolation', (_source, text: string) => record(text));
  await context.addInitScript(() => {
    const g = globalThis as unknown as {
      __kikoplayCspViolation(text: string): void;
      addEventListener(type: string, fn: (e: { violatedDirective: string; blockedURI: string; sourceFile: string; lineNumber: number; sample: string }) => void): void;
    };
    g.addEventListener('securitypolicyviolation', (e) => {
      void g.__kikoplayCspViolation(`${e.violatedDirective} refused ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber}) ${e.sample}`);
    });
  });
  const onConsole = (msg: ConsoleMessage) => {
    if (isCspMessage(msg)) record(msg.text());
  };
  context.on('page', (page) => page.on('console', onConsole));
}

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOT_DIR = path.join(PACKAGE_ROOT, 'test-results', 'screenshots');

export const VIEWPORTS = {
  phone: { width: 375, height: 740 },
  desktop: { width: 1280, height: 800 },
} as const;

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium not found at ${CHROMIUM_PATH}: install it (apt-get update && apt-get install -y chromium) or set CHROMIUM_PATH`);
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    // media may start without a click (a track that follows another, a resumed queue)
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--autoplay-policy=no-user-gesture-required',
    ],
  });
}

export interface PageOptions {
  baseURL: string;
  viewport?: { width: number; height: number };
  colorScheme?: 'light' | 'dark';
  /** The browser's time zone (the machine's when not given), e.g. 'Asia/Tokyo' to check times shown in the viewer's zone. */
  timezoneId?: string;
}

/**
 * A fresh context (empty local storage) and a page in it. Page errors fail loudly via `errors`; so do
 * Content-Security-Policy violations, which also fail the running test by themselves.
 */
export async function openPage(browser: Browser, opts: PageOptions): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({
    baseURL: opts.baseURL,
    viewport: opts.viewport ?? VIEWPORTS.desktop,
    colorScheme: opts.colorScheme ?? 'light',
    locale: 'zh-CN',
    reducedMotion: 'reduce',
    timezoneId: opts.timezoneId,
  });
  const errors: string[] = [];
  await watchCsp(context, errors);
  await recordToasts(context);
  const page = await context.newPage();
  page.on('pageerror', (err) => errors.push(err.message));
  return { context, page, errors };
}

/**
 * Save a screenshot of the viewport once `settled` (if given) has stopped moving (drawers slide in).
 * Focus is dropped first so a focus ring left by a key press does not end up in the picture.
 */
export async function screenshot(page: Page, name: string, settled?: Locator): Promise<string> {
  if (settled) await settled.click({ trial: true }); // trial: only the actionability checks, incl. "stable"
  await page.evaluate(() => (globalThis as unknown as PageGlobals).document.activeElement?.blur());
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  return file;
}

/**
 * The few browser globals the tests read inside `page.evaluate` (the test code is compiled without the
 * DOM library; these functions run in the page).
 */
interface PageGlobals {
  localStorage: { getItem(key: string): string | null; setItem(key: string, value: string): void; removeItem(key: string): void };
  document: { documentElement: { getAttribute(name: string): string | null; scrollWidth: number }; activeElement: { blur(): void } | null };
}

export const readLocal = (page: Page, key: string) => page.evaluate((k) => (globalThis as unknown as PageGlobals).localStorage.getItem(k), key);

export const writeLocal = (page: Page, key: string, value: string | null) =>
  page.evaluate(
    ([k, v]) => {
      const storage = (globalThis as unknown as PageGlobals).localStorage;
      if (v === null) storage.removeItem(k);
      else storage.setItem(k, v);
    },
    [key, value] as const,
  );

/** Width of the page's content: more than the viewport means something sticks out sideways. */
export const scrollWidthOf = (page: Page) => page.evaluate(() => (globalThis as unknown as PageGlobals).document.documentElement.scrollWidth);

/** The local-storage key of the web app's bearer token (web/src/lib/prefs.ts). */
export const TOKEN_KEY = 'kikoplay.token';

/** A page that starts logged in: the token is put in local storage before the app loads. */
export async function openLoggedInPage(browser: Browser, token: string, opts: PageOptions): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const opened = await openPage(browser, opts);
  await opened.context.addInitScript(([key, value]) => (globalThis as unknown as PageGlobals).localStorage.setItem(key, value), [TOKEN_KEY, token] as const);
  return opened;
}

/** Log in through the API (for tests about something else than the login page). */
export async function apiLogin(baseURL: string, name: string, password: string): Promise<string> {
  const res = await fetch(`${baseURL}/api/auth/me`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name, password }) });
  const body = (await res.json()) as { token?: string; error?: string };
  if (res.status !== 200 || !body.token) throw new Error(`login ${name} failed: ${res.status} ${JSON.stringify(body)}`);
  return body.token;
}

/** The colour scheme Mantine applied to the page. */
export const colorSchemeOf = (page: Page) => page.evaluate(() => (globalThis as unknown as PageGlobals).document.documentElement.getAttribute('data-mantine-color-scheme'));

/** Wait until Mantine has applied `scheme` (it follows system changes asynchronously). */
export async function waitForColorScheme(page: Page, scheme: 'light' | 'dark'): Promise<void> {
  await page.waitForFunction((s) => (globalThis as unknown as PageGlobals).document.documentElement.getAttribute('data-mantine-color-scheme') === s, scheme, {
    timeout: 5_000,
  });
}

/** The toasts (Mantine notifications) on the page. */
export const toasts = (page: Page): Locator => page.locator('.mantine-Notification-root');

interface ToastGlobals {
  /** Toasts shown and not yet taken by a wait. */
  kikoplayToasts?: string[];
  /** Every toast shown since the page loaded, for the message of a failed wait. */
  kikoplayToastLog?: string[];
}

/**
 * Every page of the context records the text of each toast it shows, as it appears. A success toast
 * closes after half a second: on a loaded machine a test looking for it on the screen could look too
 * late, so tests wait on this record instead (`toastShown`).
 */
async function recordToasts(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    type El = { matches(s: string): boolean; querySelectorAll(s: string): Iterable<El>; textContent: string | null; nodeType: number };
    const g = globalThis as unknown as ToastGlobals & {
      MutationObserver: new (fn: (records: { addedNodes: Iterable<El> }[]) => void) => { observe(target: unknown, options: object): void };
      document: unknown;
    };
    const shown: string[] = (g.kikoplayToasts = []);
    const log: string[] = (g.kikoplayToastLog = []);
    const note = (el: El) => {
      shown.push(el.textContent ?? '');
      log.push(el.textContent ?? '');
    };
    new g.MutationObserver((records) => {
      for (const r of records)
        for (const node of r.addedNodes) {
          if (node.nodeType !== 1) continue;
          if (node.matches('.mantine-Notification-root')) note(node);
          else for (const el of node.querySelectorAll('.mantine-Notification-root')) note(el);
        }
    }).observe(g.document, { childList: true, subtree: true });
  });
}

/**
 * Wait until the page has shown a toast containing `text` since it loaded, whether or not it is still
 * on the screen. Each call takes one toast: waiting twice for the same text needs two such toasts.
 */
export async function toastShown(page: Page, text: string, timeout = 20_000): Promise<void> {
  try {
    await page.waitForFunction(
      (wanted) => {
        const shown = (globalThis as unknown as ToastGlobals).kikoplayToasts ?? [];
        const i = shown.findIndex((s) => s.includes(wanted));
        if (i >= 0) shown.splice(i, 1);
        return i >= 0;
      },
      text,
      { timeout, polling: 50 },
    );
  } catch (err) {
    const log = await page.evaluate(() => (globalThis as unknown as ToastGlobals).kikoplayToastLog ?? null).catch(() => null);
    throw new Error(`no toast with "${text}" within ${timeout} ms on ${page.url()}; the page showed ${JSON.stringify(log)}`, { cause: err });
  }
}

/** A toast with `text`, shown at some moment since the page loaded (see toastShown). */
export const notice = (page: Page, text: string) => ({ waitFor: () => toastShown(page, text) });

/** Screenshots show the screen, not the last action's toast: wait for the toasts to close. */
export async function toastsGone(page: Page, timeout = 10_000): Promise<void> {
  const { expect } = await import('vitest');
  await expect.poll(() => toasts(page).count(), { timeout }).toBe(0);
}

/**
 * Once the toasts have closed, each of VIEWPORTS in the light and the dark scheme: nothing sticks out
 * sideways, and a screenshot `<name>-<width>-<scheme>` once `settled` stands still. The page is left at
 * the desktop viewport in the light scheme.
 */
export async function shots(page: Page, name: string, settled?: Locator): Promise<void> {
  const { expect } = await import('vitest');
  await toastsGone(page);
  for (const viewport of Object.values(VIEWPORTS)) {
    await page.setViewportSize(viewport);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await waitForColorScheme(page, colorScheme);
      expect(await scrollWidthOf(page), `${name} at ${viewport.width}`).toBeLessThanOrEqual(viewport.width);
      await screenshot(page, `${name}-${viewport.width}-${colorScheme}`, settled);
    }
  }
  await page.setViewportSize(VIEWPORTS.desktop);
  await page.emulateMedia({ colorScheme: 'light' });
}
