/**
 * End to end: accessibility. axe-core (the WCAG 2.0/2.1 A and AA rules and its best practices) runs on
 * every screen of the web app, in the light and the dark theme, against the built `kikoplay serve` and a
 * scanned library of four works (the screens of test/e2e/language-tour.test.ts): login, the works list,
 * a work, search by keyword and advanced search, the circles / tags / voice actors lists, the favourites
 * modes, the AI lyric centre, About, the account page, the lyric bar, the expanded and the full-screen
 * player, the not-found page, every admin screen (folders, scanner, users, advanced settings, API) and
 * the empty library's first-run panel. No screen may have a serious or critical violation (contrast,
 * names of links and icon-only buttons, ARIA), nor a missing `main` landmark, content outside
 * landmarks, or a missing level-one heading.
 *
 * The keyboard: tabbing through the works page and the player bar, every focused element shows a focus
 * indicator; a work opens, and play/pause and next act, from the keyboard alone (Enter / Space).
 *
 * Every violation count is written to test-results/accessibility/<test>.json; screenshots
 * test-results/screenshots/a11y-<screen>-<width>-<scheme>.png.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { screenshot, toastsGone, VIEWPORTS, waitForColorScheme } from '../helpers/browser.js';
import { PACKAGE_ROOT } from '../helpers/cli-server.js';
import { loginThroughPage, servedApp } from '../helpers/e2e.js';
import { TOUR_LYRIC_LINE, TOUR_TRACK, tourLibrary } from '../helpers/tour-library.js';
import { zhCN as T } from '../../web/src/i18n/zh-CN.js';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const REPORT_DIR = path.join(PACKAGE_ROOT, 'test-results', 'accessibility');

/** The rule sets run: WCAG 2.0 and 2.1, levels A and AA, and axe's best practices. */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];
/** Moderate rules every screen must pass too: a `main` landmark, nothing outside landmarks, one h1. */
const REQUIRED_MODERATE = ['landmark-one-main', 'region', 'page-has-heading-one', 'heading-order', 'landmark-unique'];

const fourWorks = tourLibrary({ firstId: 210001, tempPrefix: 'kikoplay-a11y-', secondTrackSeconds: 30 });
const WORKS = fourWorks.works;
const PLAYED = WORKS[0];

const app = servedApp({ library: fourWorks.library, seed: fourWorks.seed });

const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 30_000, interval: 100 });
interface Violation {
  id: string;
  impact: string | null;
  nodes: number;
  /** The first few elements (CSS selectors) and what axe says about the first one. */
  targets: string[];
  summary: string;
}

interface AxeGlobal {
  axe?: {
    run(context: unknown, options: unknown): Promise<{ violations: { id: string; impact: string | null; nodes: { target: unknown[]; failureSummary?: string }[] }[] }>;
  };
  document: unknown;
}

/** axe-core's violations on the page as it is now (the script evaluated in the page: no CSP exception). */
async function axeViolations(page: Page): Promise<Violation[]> {
  if (!(await page.evaluate(() => !!(globalThis as unknown as AxeGlobal).axe))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (tags) => {
    const g = globalThis as unknown as AxeGlobal;
    const res = await g.axe!.run(g.document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return res.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.length,
      targets: v.nodes.slice(0, 4).map((n) => n.target.join(' ')),
      summary: (v.nodes[0]?.failureSummary ?? '').split('\n').slice(0, 3).join(' '),
    }));
  }, TAGS);
}

const SCHEMES = ['light', 'dark'] as const;

interface Audit {
  screen: string;
  scheme: (typeof SCHEMES)[number];
  violations: Violation[];
}

/** A test's audits: `check(name)` runs axe on the screen in both themes and takes its screenshots. */
function auditor(page: Page, report: string) {
  const audits: Audit[] = [];
  return {
    audits,
    async check(screen: string, opts: { settled?: Locator; phone?: boolean } = {}) {
      await toastsGone(page, 30_000);
      if (opts.settled) await opts.settled.click({ trial: true });
      // the screen at rest: no tooltip of the control the last click left the pointer on (a tooltip
      // opens after a delay, and on a loaded machine it could open during the audit)
      await page.mouse.move(0, 0);
      await poll(() => page.locator('[role="tooltip"]').count()).toBe(0);
      for (const scheme of SCHEMES) {
        await page.emulateMedia({ colorScheme: scheme });
        await waitForColorScheme(page, scheme);
        // colours fade to the new scheme (Mantine's transitions): judge them once they have arrived
        await page.waitForFunction(() => (globalThis as unknown as { document: { getAnimations(): unknown[] } }).document.getAnimations().length === 0);
        audits.push({ screen, scheme, violations: await axeViolations(page) });
        await screenshot(page, `a11y-${screen}-1280-${scheme}`);
        if (opts.phone) {
          await page.setViewportSize(VIEWPORTS.phone);
          await screenshot(page, `a11y-${screen}-375-${scheme}`, opts.settled);
          await page.setViewportSize(VIEWPORTS.desktop);
        }
      }
      await page.emulateMedia({ colorScheme: 'light' });
      await waitForColorScheme(page, 'light');
    },
    /** Write the counts, then fail on any serious or critical violation and on the required moderate ones. */
    verdict() {
      mkdirSync(REPORT_DIR, { recursive: true });
      const table = audits.map((a) => ({
        screen: a.screen,
        scheme: a.scheme,
        serious: a.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').reduce((n, v) => n + v.nodes, 0),
        moderate: a.violations.filter((v) => v.impact === 'moderate' || v.impact === 'minor').reduce((n, v) => n + v.nodes, 0),
        rules: Object.fromEntries(a.violations.map((v) => [v.id, v.nodes])),
      }));
      writeFileSync(path.join(REPORT_DIR, `${report}.json`), JSON.stringify({ table, audits }, null, 2));
      const failing = audits.flatMap((a) =>
        a.violations
          .filter((v) => v.impact === 'serious' || v.impact === 'critical' || REQUIRED_MODERATE.includes(v.id))
          .map((v) => `${a.screen} (${a.scheme}): ${v.id} [${v.impact}] ×${v.nodes} — ${v.targets.join(', ')} — ${v.summary}`),
      );
      expect.soft(failing, `accessibility violations (${report})`).toEqual([]);
    },
  };
}

const TIMEOUT = 420_000;

describe('axe-core on every screen, light and dark', () => {
  it('a listener: login, the library screens, the players, favourites, AI centre, About, account, not-found', { timeout: TIMEOUT }, async () => {
    const user = await app.addUser('user', 'listener');
    await app.api('PUT', '/api/review?starOnly=false', { work_id: WORKS[2].id, rating: 4, review_text: 'ぐっすり眠れました。', progress: 'listening' }, user.token);
    const { page, errors } = await app.open({ timeout: 30_000 });
    const { check, verdict } = auditor(page, 'listener');
    const cards = page.getByTestId('work-card');
    const title = page.getByTestId('works-title');
    const heading = (name: string) => page.getByRole('heading', { name, exact: true });

    await page.goto('/login');
    await page.getByRole('button', { name: T.login.submit, exact: true }).waitFor();
    await check('login', { phone: true });
    await loginThroughPage(page, user.name, user.password);
    await page.waitForURL('**/works');
    await poll(() => cards.count()).toBe(WORKS.length);
    await check('works', { settled: cards.first(), phone: true });

    await page.goto('/works?keyword=' + encodeURIComponent('雨音'));
    await poll(() => title.textContent()).toBe(T.library.works.titleKeyword('雨音'));
    await poll(() => cards.count()).toBe(1);
    await check('search-keyword', { settled: cards.first() });

    await page.goto('/search');
    await poll(() => title.textContent()).toBe(T.library.works.titleAdvanced);
    await page.getByText(T.library.search.noConditions, { exact: true }).waitFor();
    await check('search-advanced');

    for (const kind of ['circles', 'tags', 'vas'] as const) {
      await page.goto(`/${kind}`);
      await heading(T.library.lists.titles[kind]).waitFor();
      await poll(() => page.getByTestId('label-item').count()).toBeGreaterThan(0);
      await check(kind, { settled: page.getByTestId('label-item').first() });
    }

    // the work, its track played with lyrics, the lyric bar and the players
    await page.goto(`/work/${PLAYED.id}`);
    await poll(() => page.getByTestId('work-detail-title').textContent()).toBe(PLAYED.title);
    await page.getByTestId('file-tree').waitFor();
    await check('work', { settled: page.getByTestId('file-tree'), phone: true });
    await page.locator(`[data-testid="tree-item"][data-title="${TOUR_TRACK}"] button`).first().click();
    const bar = page.getByTestId('player-bar');
    await poll(() => page.getByTestId('lyric-bar-text').textContent()).toBe(TOUR_LYRIC_LINE);
    await bar.getByRole('button', { name: T.player.pause, exact: true }).click();
    await bar.getByRole('button', { name: T.player.play, exact: true }).waitFor();
    await check('lyric-bar', { settled: bar });
    await page.getByTestId('player-bar-open').click();
    await page.getByTestId('expanded-player').waitFor();
    await poll(() => page.locator('[data-testid="lyric-list"] [data-active]').textContent()).toBe(TOUR_LYRIC_LINE);
    await check('player', { settled: page.getByTestId('expanded-title'), phone: true });
    await page.getByTestId('fullscreen-link').last().click();
    await page.getByTestId('fullscreen-player').waitFor();
    await page.getByTestId('fullscreen-lyric').filter({ hasText: TOUR_LYRIC_LINE }).waitFor();
    await check('fullscreen', { settled: page.getByTestId('fullscreen-lyric') });

    // favourites: a review, progress, the history of the play above
    await poll(async () => (await app.api<{ works: unknown[] }>('GET', '/api/histroy', undefined, user.token)).works.length).toBe(1);
    const item = (mode: string, id: number) => page.locator(`[data-testid="favourites-page"][data-mode="${mode}"] [data-testid="favourite-item"][data-work-id="${id}"]`);
    await page.goto('/favourites');
    await item('review', WORKS[2].id).waitFor();
    await check('favourites', { settled: item('review', WORKS[2].id) });
    await page.goto('/favourites/progress/listening');
    await item('progress', WORKS[2].id).waitFor();
    await check('favourites-progress', { settled: item('progress', WORKS[2].id) });
    await page.goto('/favourites/histroy');
    await item('histroy', PLAYED.id).waitFor();
    await check('favourites-histroy', { settled: item('histroy', PLAYED.id) });

    await page.goto('/ai_lyric');
    await heading(T.aiCentre.title).waitFor();
    await page.getByText(T.aiCentre.empty, { exact: true }).waitFor();
    await check('ai-lyric');
    await page.goto('/about');
    await heading(T.about.title).waitFor();
    await page.getByTestId('server-version').waitFor();
    await check('about');
    await page.goto('/account');
    await page.getByTestId('account-page').waitFor();
    await page.getByTestId('password-form').waitFor();
    await check('account', { phone: true });
    await page.goto('/no-such-screen');
    await heading(T.notFound.title).waitFor();
    await check('not-found');

    expect(errors).toEqual([]);
    verdict();
  });

  it('an admin: every admin screen, and the empty library of a first run', { timeout: TIMEOUT }, async () => {
    const { page, errors } = await app.open({ as: app.admin, timeout: 30_000 });
    const { check, verdict } = auditor(page, 'admin');
    const heading = (name: string) => page.getByRole('heading', { name, exact: true });
    const D = T.dashboard;

    await page.goto('/admin');
    await heading(D.folders.title).waitFor();
    await page.getByTestId('folder-row').first().waitFor();
    await check('admin-folders', { settled: page.getByTestId('folder-row').first(), phone: true });
    await page.goto('/admin/scanner');
    await heading(D.scanner.title).waitFor();
    await page.locator('[data-testid="scanner-status"][data-status="finished"]').waitFor();
    await check('admin-scanner');
    await page.goto('/admin/usermanage');
    await heading(D.users.title).waitFor();
    await page.getByTestId('user-row').first().waitFor();
    await check('admin-users', { settled: page.getByTestId('user-row').first() });
    await page.goto('/admin/advanced');
    await heading(D.advanced.title).waitFor();
    await page.getByTestId('tag-language-hint').waitFor();
    await check('admin-advanced');
    await page.goto('/admin/api');
    await heading(D.api.title).waitFor();
    await poll(() => page.getByTestId('api-endpoint').count()).toBeGreaterThan(10);
    await check('admin-api');

    // a first run: a server without library folders shows its admin the empty library's panel
    const own = await app.ownServer();
    const first = await app.open({ as: own.admin, on: own, timeout: 30_000 });
    const audit = auditor(first.page, 'first-run');
    await first.page.goto('/works');
    const empty = first.page.locator('[data-testid="empty-library"][data-admin="true"]');
    await empty.waitFor();
    await audit.check('first-run', { settled: empty, phone: true });

    expect([...errors, ...first.errors]).toEqual([]);
    verdict();
    audit.verdict();
  });
});

/** What the focused element is and whether it shows a focus indicator (an outline or a box shadow). */
interface Focused {
  tag: string;
  label: string;
  testid: string | null;
  outline: string;
  shadow: string;
  visible: boolean;
  inBar: boolean;
}

interface FocusEl {
  tagName: string;
  getAttribute(n: string): string | null;
  textContent: string | null;
  closest(sel: string): unknown;
}
interface FocusGlobals {
  document: { activeElement: FocusEl | null; body: FocusEl };
  getComputedStyle(el: FocusEl): { outlineStyle: string; outlineWidth: string; outlineColor: string; boxShadow: string };
}

const focused = (page: Page): Promise<Focused | null> =>
  page.evaluate(() => {
    const g = globalThis as unknown as FocusGlobals;
    const el = g.document.activeElement;
    if (!el || el === g.document.body) return null;
    const s = g.getComputedStyle(el);
    const outline = s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0 && s.outlineColor !== 'rgba(0, 0, 0, 0)';
    const shadow = s.boxShadow !== 'none' && s.boxShadow !== '';
    return {
      tag: el.tagName.toLowerCase(),
      label: el.getAttribute('aria-label') ?? (el.textContent ?? '').trim().slice(0, 40),
      testid: el.getAttribute('data-testid'),
      outline: `${s.outlineStyle} ${s.outlineWidth} ${s.outlineColor}`,
      shadow: s.boxShadow,
      visible: outline || shadow,
      inBar: !!el.closest('[data-testid="player-bar"]'),
    };
  });

describe('the keyboard', () => {
  it('tabs through the works page and the player bar with a visible focus; opens a work, plays, pauses and skips by keys', { timeout: TIMEOUT }, async () => {
    const user = await app.addUser('user', 'keys');
    const { page, errors } = await app.open({ as: user, timeout: 30_000 });
    const bar = page.getByTestId('player-bar');

    // a work opened by Enter on its card's title link, reached by Tab
    await page.goto('/works');
    await poll(() => page.getByTestId('work-card').count()).toBe(WORKS.length);
    const seen: Focused[] = [];
    let opened = false;
    for (let i = 0; i < 80 && !opened; i++) {
      await page.keyboard.press('Tab');
      const f = await focused(page);
      if (!f) continue;
      seen.push(f);
      if (f.testid === 'work-title' && f.label === PLAYED.title) {
        // the rest of the page first: tab on through every card, then come back
        opened = true;
      }
    }
    expect(opened, 'the played work title link is reachable by Tab').toBe(true);
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      const f = await focused(page);
      if (f) seen.push(f);
    }
    expect(
      seen.filter((f) => !f.visible),
      'focused elements without a visible focus indicator on the works page',
    ).toEqual([]);

    await page.locator(`[data-testid="work-card"][data-work-id="${PLAYED.id}"] [data-testid="work-title"]`).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/work/${PLAYED.id}`);
    await page.getByTestId('file-tree').waitFor();

    // play all by Tab and Enter
    const playAll = page.getByTestId('play-all');
    await expect.poll(() => playAll.isEnabled()).toBe(true);
    let reached = false;
    for (let i = 0; i < 80 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = (await focused(page))?.testid === 'play-all';
    }
    expect(reached, 'play all is reachable by Tab').toBe(true);
    await page.keyboard.press('Enter');
    await bar.waitFor();
    await bar.getByRole('button', { name: T.player.pause, exact: true }).waitFor();

    // the player bar: Tab reaches its controls, each with a visible focus
    const barSeen: Focused[] = [];
    for (let i = 0; i < 120 && !barSeen.some((f) => f.testid === 'player-next'); i++) {
      await page.keyboard.press('Tab');
      const f = await focused(page);
      if (f) {
        seen.push(f);
        if (f.inBar) barSeen.push(f);
      }
    }
    expect(barSeen.map((f) => f.testid)).toEqual(expect.arrayContaining(['player-toggle', 'player-next']));
    expect(
      seen.filter((f) => !f.visible),
      'focused elements without a visible focus indicator (work page, player bar)',
    ).toEqual([]);

    // next by Enter: the second track; pause and play by Space on the play button
    const playing = () => bar.textContent();
    expect(await playing()).toContain('はじめに');
    await page.keyboard.press('Enter');
    await poll(playing).toContain('おやすみ');
    await bar.getByTestId('player-toggle').focus();
    await page.keyboard.press('Space');
    await bar.getByRole('button', { name: T.player.play, exact: true }).waitFor();
    await page.keyboard.press('Space');
    await bar.getByRole('button', { name: T.player.pause, exact: true }).waitFor();
    await page.keyboard.press('Enter');
    await bar.getByRole('button', { name: T.player.play, exact: true }).waitFor();

    expect(errors).toEqual([]);
  });
});
