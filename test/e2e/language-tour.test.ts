/**
 * End to end: a tour of every screen of the web app in each interface language (en, ja, zh-CN) at
 * 1280 px, against the built `kikoplay serve` and a scanned library of four works (generated WAV tracks,
 * a cover each, an LRC file for the first track). A listener picks the language on the login page (zh-CN:
 * the browser's, the default), logs in, browses the works, opens one, searches by keyword and by tag,
 * plays the track with lyrics and sees its line in the lyric bar, the expanded and the full-screen
 * player, and visits the label lists, the favourites modes, the AI lyric centre, About, the language menu
 * and the not-found page. An admin, on a server of the test's own, logs in in the browser's language
 * (zh-CN), opens some screens, switches language in the header's menu (en, ja), then sees the AI lyric
 * centre's filter, adds a library folder and a user and visits the scanner, advanced settings and API
 * screens: a screen whose code was loaded under Chinese must still speak the new language.
 *
 * Every screen: its heading or labels equal the language's catalogue (web/src/i18n), `<html lang>` is
 * the language, no Chinese-only catalogue text shows on an en or ja page, no page error; screenshots
 * test-results/screenshots/tour-<lang>-<screen>.png (the README's language pictures come from these).
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { tempDir } from '../helpers/app.js';
import { screenshot, toastsGone } from '../helpers/browser.js';
import { servedApp, uniqueName, type Account } from '../helpers/e2e.js';
import { playingTime } from '../helpers/playing.js';
import { TOUR_LYRIC_LINE, TOUR_TRACK, tourLibrary } from '../helpers/tour-library.js';
import { en } from '../../web/src/i18n/en.js';
import { ja } from '../../web/src/i18n/ja.js';
import { LANGUAGE_NAMES, type Locale } from '../../web/src/i18n/locale.js';
import { zhCN, type Messages } from '../../web/src/i18n/zh-CN.js';

const CATALOGUES: Record<Locale, Messages> = { en, ja, 'zh-CN': zhCN };

const fourWorks = tourLibrary({ firstId: 200001, tempPrefix: 'kikoplay-tour-', secondTrackSeconds: 6 });
const WORKS = fourWorks.works;
const PLAYED = WORKS[0];
const TAG = 'バイノーラル';

// the library is only read by the listeners' tours; the admin tours change folders and users on a
// server of their own (a copy of the scanned library)
const app = servedApp({ library: fourWorks.library, seed: fourWorks.seed });

const HAN = /[\u4e00-\u9fff]/;

/**
 * Text the server writes, left out of the check for Chinese text on en and ja pages: the API reference's
 * endpoints (route summaries and field notes from the server's route table; their labels are checked on
 * their own). The scanner's log lines are checked: they are said from their keys in the page's language.
 */
const SERVER_TEXT = '[data-testid="api-endpoint"]';

/** Every string of a catalogue (functions and their results left out). */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(strings);
  return [];
}

/**
 * The zh-CN catalogue texts another language does not use: Chinese strings found in no string of that
 * catalogue (a shared kanji word such as 音声 is not one). Empty for zh-CN itself.
 */
function chineseOnly(lang: Locale): string[] {
  if (lang === 'zh-CN') return [];
  const own = strings(CATALOGUES[lang]);
  return [...new Set(strings(zhCN))].filter((s) => HAN.test(s) && s.length >= 2 && !own.some((o) => o.includes(s)));
}

interface Win {
  document: {
    documentElement: { lang: string };
    body: { innerText: string };
    querySelectorAll(sel: string): ArrayLike<{ getAttribute(name: string): string | null; currentTime: number; innerText: string }>;
  };
}

const htmlLang = (page: Page) => page.evaluate(() => (globalThis as unknown as Win).document.documentElement.lang);

/** The text of the page and the accessible names and placeholders of its controls. */
const pageText = (page: Page) =>
  page.evaluate((logs) => {
    const doc = (globalThis as unknown as Win).document;
    let text = doc.body.innerText;
    for (const el of Array.from(doc.querySelectorAll(logs))) text = text.split(el.innerText).join('');
    const attrs = Array.from(doc.querySelectorAll('[aria-label], [placeholder], [title]')).flatMap((el) => ['aria-label', 'placeholder', 'title'].map((a) => el.getAttribute(a) ?? ''));
    return [text, ...attrs].join('\n');
  }, SERVER_TEXT);

/** expect.poll with room for a loaded machine (a list, a fetch, a debounce). */
const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 30_000, interval: 100 });

/**
 * One language's checks and pictures: `screen(name)` asserts `<html lang>` and that no Chinese-only
 * catalogue text shows (en, ja), then saves tour-<lang>-<name>.png.
 */
function tour(lang: Locale, page: Page) {
  const forbidden = chineseOnly(lang);
  return {
    async screen(name: string, settled?: ReturnType<Page['getByTestId']>) {
      expect(await htmlLang(page), `<html lang> on ${name}`).toBe(lang);
      const text = await pageText(page);
      const leaked = forbidden.filter((s) => text.includes(s));
      expect(leaked, `Chinese-only catalogue text on the ${lang} ${name} screen`).toEqual([]);
      await screenshot(page, `tour-${lang}-${name}`, settled);
    },
  };
}

/** Log in on the login page in `lang`: picked in its language menu, unless it is the browser's (zh-CN). */
async function logIn(page: Page, lang: Locale, account: { name: string; password: string }, take?: (name: string) => Promise<void>): Promise<void> {
  const T = CATALOGUES[lang];
  await page.goto('/login');
  await page.getByRole('button', { name: zhCN.login.submit, exact: true }).waitFor();
  if (lang !== 'zh-CN') {
    await page.getByTestId('language-menu').click();
    await page.getByRole('menuitem', { name: LANGUAGE_NAMES[lang], exact: true }).click();
  }
  const submit = page.getByRole('button', { name: T.login.submit, exact: true });
  await submit.waitFor();
  await page.getByText(T.login.subtitle, { exact: true }).waitFor();
  await take?.('login');
  await page.getByLabel(T.login.name, { exact: true }).fill(account.name);
  await page.getByLabel(T.login.password, { exact: true }).fill(account.password);
  await submit.click();
}

const TIMEOUT = 300_000;

describe.each(['en', 'ja', 'zh-CN'] as const)('the tour in %s at 1280 px', (lang) => {
  const T = CATALOGUES[lang];
  const W = T.library.works;

  it('a listener logs in, browses, searches, plays with lyrics and visits every screen', { timeout: TIMEOUT }, async () => {
    const user: Account = await app.addUser('user', 'listener');
    const { page, errors } = await app.open({ timeout: 30_000 });
    const { screen } = tour(lang, page);
    const nav = page.getByTestId('nav-drawer');
    const navLink = (name: string) => nav.getByRole('link', { name, exact: true });
    const title = page.getByTestId('works-title');
    const cards = page.getByTestId('work-card');

    await logIn(page, lang, user, (name) => screen(name));

    // the works list: the drawer's links and the heading in the language
    await page.waitForURL('**/works');
    await poll(() => title.textContent()).toBe(W.titleAll);
    await poll(() => cards.count()).toBe(WORKS.length);
    for (const label of [T.nav.works, T.nav.favourites, T.nav.circles, T.nav.tags, T.nav.vas, T.nav.aiLyric, T.nav.about]) await navLink(label).waitFor();
    expect(await navLink(T.nav.admin).count()).toBe(0); // a listener has no admin link
    expect(await page.getByTestId('works-total').textContent()).toBe(W.total(WORKS.length));
    await screen('works', cards.first());

    // the display settings popover
    await page.getByTestId('display-settings').click();
    await page.getByText(W.listMode, { exact: true }).waitFor();
    await screen('works-settings');
    await page.keyboard.press('Escape');
    await page.getByText(W.listMode, { exact: true }).waitFor({ state: 'hidden' });

    // the header's language menu: the languages and what the interface language is not
    await page.getByTestId('language-menu').click();
    await page.getByText(T.language.hint, { exact: true }).waitFor();
    for (const l of ['en', 'ja', 'zh-CN'] as const) await page.getByRole('menuitem', { name: LANGUAGE_NAMES[l], exact: true }).waitFor();
    await screen('language-menu');
    await page.keyboard.press('Escape');
    await page.getByText(T.language.hint, { exact: true }).waitFor({ state: 'hidden' });

    // search by keyword in the header
    await page.getByRole('searchbox', { name: T.header.keywordPlaceholder }).fill('雨音');
    await page.waitForURL((url) => url.searchParams.get('keyword') === '雨音');
    await poll(() => title.textContent()).toBe(W.titleKeyword('雨音'));
    await poll(() => cards.count()).toBe(1);
    await screen('search-keyword', cards.first());

    // advanced search: a tag picked from the candidates
    await page.getByRole('link', { name: T.header.advancedSearch, exact: true }).click();
    await page.waitForURL('**/search');
    await poll(() => title.textContent()).toBe(W.titleAdvanced);
    await page.getByText(T.library.search.noConditions, { exact: true }).waitFor();
    await page.getByTestId('search-type').click();
    await page.getByRole('option', { name: T.library.search.types.tag, exact: true }).click();
    await page.getByTestId('search-input').fill(TAG);
    await page.getByTestId('search-candidate').filter({ hasText: TAG }).click();
    await poll(() => page.getByTestId('search-term').textContent()).toBe(T.punctuation.labelled(T.library.search.types.tag, TAG));
    await poll(() => cards.count()).toBe(WORKS.filter((w) => w.tags.includes(TAG)).length);
    await screen('search-advanced', cards.first());

    // the label lists, and a tag's works
    for (const kind of ['circles', 'tags', 'vas'] as const) {
      await navLink(T.nav[kind]).click();
      await page.waitForURL(`**/${kind}`);
      await page.getByRole('heading', { name: T.library.lists.titles[kind], exact: true }).waitFor();
      await poll(() => page.getByTestId('label-item').count()).toBeGreaterThan(0);
      await screen(kind, page.getByTestId('label-item').first());
    }
    await navLink(T.nav.tags).click();
    await page.getByTestId('label-item').filter({ hasText: TAG }).first().click();
    await poll(() => title.textContent()).toBe(W.titleTag(TAG));
    await poll(() => cards.count()).toBe(WORKS.filter((w) => w.tags.includes(TAG)).length);
    await screen('works-tag', cards.first());

    // open a work from the list
    await navLink(T.nav.works).click();
    await page.waitForURL('**/works');
    // the tag's list (which holds this work too) is replaced by the whole library's: click a card of the
    // new list, not one about to be swapped out under the click
    await poll(() => title.textContent()).toBe(W.titleAll);
    await poll(() => cards.count()).toBe(WORKS.length);
    await page.locator(`[data-testid="work-card"][data-work-id="${PLAYED.id}"]`).getByRole('link').first().click();
    await page.waitForURL(`**/work/${PLAYED.id}`);
    await poll(() => page.getByTestId('work-detail-title').textContent()).toBe(PLAYED.title);
    await page.getByTestId('file-tree').waitFor();
    await page.getByRole('button', { name: T.library.detail.review, exact: true }).waitFor();
    await screen('work', page.getByTestId('file-tree'));

    // play the track with lyrics: its line in the lyric bar
    await page.locator(`[data-testid="tree-item"][data-title="${TOUR_TRACK}"] button`).first().click();
    await page.getByTestId('player-bar').waitFor();
    await poll(() => playingTime(page)).toBeGreaterThan(0.3);
    await poll(() => page.getByTestId('lyric-bar-text').textContent()).toBe(TOUR_LYRIC_LINE);
    await screen('lyric-bar', page.getByTestId('player-bar'));
    // paused on the line: the players below show it however slow the machine is
    await page.getByTestId('player-bar').getByRole('button', { name: T.player.pause, exact: true }).click();
    await page.getByTestId('player-bar').getByRole('button', { name: T.player.play, exact: true }).waitFor();

    // the expanded player: the current line of the lyric list
    await page.getByTestId('player-bar-open').click();
    await page.getByTestId('expanded-player').waitFor();
    await poll(() => page.locator('[data-testid="lyric-list"] [data-active]').textContent()).toBe(TOUR_LYRIC_LINE);
    await page.getByRole('button', { name: T.player.collapse, exact: true }).waitFor();
    await screen('player', page.getByTestId('expanded-title'));

    // the full-screen player
    await page.getByTestId('fullscreen-link').last().click();
    await page.getByTestId('fullscreen-player').waitFor();
    await page.getByTestId('fullscreen-lyric').filter({ hasText: TOUR_LYRIC_LINE }).waitFor();
    await screen('fullscreen', page.getByTestId('fullscreen-lyric'));

    // favourites: a rating with a review and progress, the history of the play above
    await app.api('PUT', '/api/review?starOnly=false', { work_id: WORKS[2].id, rating: 4, review_text: 'ぐっすり眠れました。', progress: 'listening' }, user.token);
    await poll(async () => (await app.api<{ works: unknown[] }>('GET', '/api/histroy', undefined, user.token)).works.length).toBe(1);
    const F = T.library.favourites;
    const item = (mode: string, id: number) => page.locator(`[data-testid="favourites-page"][data-mode="${mode}"] [data-testid="favourite-item"][data-work-id="${id}"]`);
    const modes = page.getByTestId('favourites-mode');
    /** The mode picked, once the sliding indicator has reached it. */
    const modeShown = () =>
      poll(async () => {
        const [at, active] = await Promise.all([
          modes.locator('.mantine-SegmentedControl-indicator').boundingBox(),
          modes.locator('.mantine-SegmentedControl-control[data-active="true"]').boundingBox(),
        ]);
        return !!at && !!active && Math.abs(at.x - active.x) < 1 && Math.abs(at.width - active.width) < 1;
      }).toBe(true);
    await navLink(T.nav.favourites).click();
    await page.waitForURL('**/favourites');
    await page.getByRole('heading', { name: F.title, exact: true }).waitFor();
    await item('review', WORKS[2].id).getByText('ぐっすり眠れました。', { exact: true }).waitFor();
    await modeShown();
    await screen('favourites');
    await modes.getByText(F.modes.progress, { exact: true }).click();
    await page.waitForURL('**/favourites/progress/marked');
    await page.getByText(F.empty, { exact: true }).waitFor();
    await page.getByTestId('favourites-progress-filter').getByText(T.library.progress.listening, { exact: true }).click();
    await page.waitForURL('**/favourites/progress/listening');
    await item('progress', WORKS[2].id).waitFor();
    await modeShown();
    await screen('favourites-progress');
    await modes.getByText(F.modes.histroy, { exact: true }).click();
    await page.waitForURL('**/favourites/histroy');
    await item('histroy', PLAYED.id).waitFor(); // the one work played above
    await modeShown();
    await toastsGone(page, 30_000);
    await screen('favourites-histroy');

    // the AI lyric centre, About, and a page that is not there
    await navLink(T.nav.aiLyric).click();
    await page.waitForURL('**/ai_lyric');
    await page.getByRole('heading', { name: T.aiCentre.title, exact: true }).waitFor();
    await page.getByText(T.aiCentre.empty, { exact: true }).waitFor();
    await screen('ai-lyric');
    await navLink(T.nav.about).click();
    await page.waitForURL('**/about');
    await page.getByRole('heading', { name: T.about.title, exact: true }).waitFor();
    await page.getByTestId('server-version').waitFor();
    await screen('about');
    await page.goto('/no-such-screen');
    await page.getByRole('heading', { name: T.notFound.title, exact: true }).waitFor();
    await page.getByRole('link', { name: T.notFound.back }).waitFor();
    await screen('not-found');

    expect(errors).toEqual([]);
  });

  it('an admin switches from Chinese in the header, adds a library folder and a user, and visits every admin screen', { timeout: TIMEOUT }, async () => {
    const own = await app.ownServer({ scanned: app.libRoot });
    const { page, errors } = await app.open({ on: own, timeout: 30_000 });
    const { screen } = tour(lang, page);
    const D = T.dashboard;
    const navLink = (name: string) => page.getByTestId('nav-drawer').getByRole('link', { name, exact: true });
    const adminLink = (name: string) => page.getByTestId('admin-nav').getByRole('link', { name, exact: true });
    const heading = (name: string, level = 2) => page.getByRole('heading', { name, level, exact: true });

    // first in the browser's language: the screens' code is loaded while Chinese is active, and what
    // they show must follow the switch below (in-app links only: a reload would load the code again)
    await logIn(page, 'zh-CN', own.admin);
    await page.waitForURL('**/works');
    await navLink(zhCN.nav.admin).click();
    await heading(zhCN.dashboard.folders.title).waitFor();
    await page.getByTestId('menu-toggle').click(); // the admin drawer with its labels
    await adminLink(zhCN.admin.users).click();
    await heading(zhCN.dashboard.users.title).waitFor();
    await adminLink(zhCN.admin.scanner).click();
    await heading(zhCN.dashboard.scanner.title).waitFor();
    await adminLink(zhCN.admin.backHome).click();
    await navLink(zhCN.nav.aiLyric).click();
    await heading(zhCN.aiCentre.title, 1).waitFor();
    if (lang !== 'zh-CN') {
      const saved = page.waitForResponse((res) => res.request().method() === 'PUT' && res.url().endsWith('/api/auth/me/locale'));
      await page.getByTestId('language-menu').click();
      await page.getByRole('menuitem', { name: LANGUAGE_NAMES[lang], exact: true }).click();
      expect((await saved).status()).toBe(200);
    }

    // the AI lyric centre, its status filter open
    await heading(T.aiCentre.title, 1).waitFor();
    await page.getByText(T.aiCentre.empty, { exact: true }).waitFor();
    await page.getByTestId('ai-filter-status').click();
    for (const status of ['pending', 'transcribing', 'success', 'error'] as const) await page.getByRole('option', { name: T.aiCentre.statuses[status], exact: true }).waitFor();
    await screen('ai-lyric-filter');
    await page.keyboard.press('Escape');
    await page.getByRole('option', { name: T.aiCentre.statuses.pending, exact: true }).waitFor({ state: 'hidden' });

    // the admin drawer: every screen under its name
    await navLink(T.nav.admin).click();
    await page.waitForURL('**/admin');
    for (const label of [T.admin.folders, T.admin.scanner, T.admin.users, T.admin.advanced, T.admin.api, T.admin.backHome]) await adminLink(label).waitFor();
    await page.getByText(T.admin.title, { exact: true }).waitFor();

    // library folders: add one
    await heading(D.folders.title).waitFor();
    const extra = tempDir('kikoplay-tour-extra-');
    const form = page.getByTestId('add-folder');
    await form.getByLabel(D.folders.alias, { exact: true }).fill('extra');
    await form.getByLabel(D.folders.path, { exact: true }).fill(extra);
    await form.getByRole('button', { name: D.folders.add, exact: true }).click();
    const row = page.getByTestId('folder-row').filter({ hasText: 'extra' });
    await row.getByText(extra, { exact: true }).waitFor();
    expect((await own.api<{ folders: { name: string }[] }>('GET', '/api/config/folders')).folders.map((f) => f.name)).toEqual(['lib', 'extra']);
    await toastsGone(page, 30_000);
    await screen('admin-folders', row);

    // the scanner: the state of the last run (the offline scan the library was made with)
    await adminLink(T.admin.scanner).click();
    await page.waitForURL('**/admin/scanner');
    await heading(D.scanner.title).waitFor();
    await page.locator('[data-testid="scanner-status"][data-status="finished"]').waitFor();
    expect(await page.getByTestId('scanner-status').textContent()).toBe(D.scanner.state.finished);
    await page.getByTestId('PERFORM_SCAN').getByText(D.scanner.scan, { exact: true }).waitFor();
    await screen('admin-scanner');

    // users: add one
    await adminLink(T.admin.users).click();
    await page.waitForURL('**/admin/usermanage');
    await heading(D.users.title).waitFor();
    const name = uniqueName('member');
    const users = page.getByTestId('add-user');
    await users.getByLabel(D.users.name, { exact: true }).fill(name);
    await users.getByLabel(D.users.password, { exact: true }).fill(`${name}-pass`);
    await users.getByRole('button', { name: D.users.add, exact: true }).click();
    const added = page.locator(`[data-testid="user-row"][data-name="${name}"]`);
    await added.waitFor();
    expect(await added.getByLabel(`${D.users.role} ${name}`).inputValue()).toBe(D.users.roles.user);
    const me = page.locator(`[data-testid="user-row"][data-name="${own.admin.name}"]`);
    await me.getByText(D.users.you, { exact: true }).waitFor();
    expect(await me.getByLabel(`${D.users.role} ${own.admin.name}`).inputValue()).toBe(D.users.roles.admin);
    expect((await own.api<{ users: { name: string }[] }>('GET', '/api/credentials/users')).users.map((u) => u.name)).toContain(name);
    await toastsGone(page, 30_000);
    await screen('admin-users', added);

    // advanced settings: the metadata language is told apart from the interface language
    await adminLink(T.admin.advanced).click();
    await page.waitForURL('**/admin/advanced');
    await heading(D.advanced.title).waitFor();
    expect(await page.getByTestId('tag-language-hint').textContent()).toBe(D.advanced.tagLanguageHint);
    await heading(D.advanced.groups.language, 3).waitFor();
    await screen('admin-advanced');

    // the API reference
    await adminLink(T.admin.api).click();
    await page.waitForURL('**/admin/api');
    await heading(D.api.title).waitFor();
    await poll(() => page.getByTestId('api-endpoint').count()).toBeGreaterThan(10);
    await heading(D.api.areas.works, 3).waitFor();
    expect(await page.locator('[data-testid="api-endpoint"][data-path="/api/health"]').getByTestId('api-access').textContent()).toBe(D.api.access.public);
    const works = page.locator('[data-testid="api-endpoint"][data-method="GET"][data-path="/api/works"]');
    await works.getByRole('columnheader', { name: D.api.name, exact: true }).waitFor();
    await screen('admin-api');

    expect(errors).toEqual([]);
  });
});
