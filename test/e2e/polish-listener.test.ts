/**
 * End to end: the listener's polish of issue 22 against the built `kikoplay serve` and a scanned library
 * of three works of generated WAV tracks — the `?` shortcut overlay, skeleton placeholders while lists
 * load, network failures said in words in one toast, the lyric offset's visible label, the search
 * heading that follows the results, elapsed / total time in the player bar, and the lyric bar leaving
 * when the track ends. Screenshots of the changed screens at 375 and 1280 px, light and dark.
 *
 * A held answer (a request the test answers later through `page.route`) keeps a list loading as long
 * as the test needs; an aborted one is a server that cannot be reached.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page, Route } from 'playwright-core';
import { tempDir } from '../helpers/app.js';
import { shots, toasts, VIEWPORTS, writeLocal } from '../helpers/browser.js';
import { servedApp } from '../helpers/e2e.js';
import { playFromTree } from '../helpers/playing.js';
import { synthWav } from '../../server/library/demo-library.js';

/** A work of one 8-second track whose LRC file's last line starts well before its end. */
const SHORT_WORK = 100301;
const SHORT_TRACK = '01 みじかい.wav';
const LAST_LINE = '最后一行';
/** A work of one 20-second track. */
const LONG_WORK = 100302;
const LONG_TRACK = '01 雨の音.wav';
const LONG_TITLE = '雨の日のささやき';
const STAR_TITLE = '星空の下で';

const app = servedApp({
  async library() {
    const root = tempDir('kikoplay-polish-');
    const short = path.join(root, `RJ${SHORT_WORK} 短い作品`);
    const long = path.join(root, `RJ${LONG_WORK} ${LONG_TITLE}`);
    const star = path.join(root, `RJ100303 ${STAR_TITLE}`);
    for (const dir of [short, long, star]) mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(short, SHORT_TRACK), synthWav([[440, 8]], 0.2));
    writeFileSync(path.join(short, '01 みじかい.lrc'), `[00:00.30]第一行\n[00:01.00]${LAST_LINE}\n`);
    writeFileSync(path.join(long, LONG_TRACK), synthWav([[392, 20]], 0.2));
    writeFileSync(path.join(star, '01 星.wav'), synthWav([[523, 2]], 0.2));
    return { root };
  },
});

interface MediaLike {
  currentTime: number;
  ended: boolean;
  getAttribute(name: string): string | null;
}

const media = (page: Page) =>
  page.evaluate(() => {
    const doc = (globalThis as unknown as { document: { querySelectorAll(sel: string): ArrayLike<MediaLike> } }).document;
    const el = Array.from(doc.querySelectorAll('audio, video')).find((e) => e.getAttribute('src'));
    return { time: el?.currentTime ?? 0, ended: el?.ended ?? false };
  });

/** Answers to requests matching `match` wait until `release()` (then they go on to the server). */
async function hold(page: Page, match: (url: URL) => boolean): Promise<{ seen: () => number; release(): void }> {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let seen = 0;
  await page.route(
    (url) => match(url),
    async (route: Route) => {
      seen++;
      await gate;
      await route.continue();
    },
  );
  return { seen: () => seen, release: () => open() };
}

/** The bar's play / pause button. */
const barToggle = (page: Page) => page.getByTestId('player-bar').getByTestId('player-toggle');

describe("the listener's polish", () => {
  it('opens the keyboard shortcuts with ? (not while typing) and closes them with Esc', async () => {
    const user = await app.addUser('user');
    const { page, errors } = await app.open({ as: user });
    await page.goto('/works');
    await page.getByTestId('work-card').first().waitFor();

    const help = page.getByRole('dialog', { name: '键盘快捷键' });
    await page.keyboard.press('Shift+Slash');
    await help.waitFor();
    // grouped, with the player's real keys and the server's seek times
    await expect
      .poll(() => help.getByTestId('shortcut-group').allTextContents())
      .toEqual([expect.stringContaining('播放'), expect.stringContaining('搜索与列表'), expect.stringContaining('图片预览'), expect.stringContaining('通用')]);
    const playback = help.getByTestId('shortcut-group').first();
    for (const text of ['空格', '播放 / 暂停', '后退 5 秒', '前进 30 秒', '上一首', '下一首', '音量加大']) expect(await playback.textContent()).toContain(text);
    await shots(page, 'shortcut-help', help);

    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });

    // typed into the search box, ? is a character
    const box = page.getByTestId('keyword-box');
    await box.click();
    await page.keyboard.type('a?');
    await expect.poll(() => box.inputValue()).toBe('a?');
    expect(await help.count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('draws placeholders shaped like the list while the works, labels and history load', async () => {
    const user = await app.addUser('user');
    const { page, errors } = await app.open({ as: user });

    // the works grid: cards in the grid's columns
    const works = await hold(page, (u) => u.pathname === '/api/works');
    await page.goto('/works');
    const skeleton = page.getByTestId('list-skeleton');
    await skeleton.waitFor();
    expect(await skeleton.getAttribute('data-kind')).toBe('cards');
    const columns = Number(await page.getByTestId('works-list').getAttribute('data-columns'));
    expect(await skeleton.getByTestId('skeleton-item').count()).toBeGreaterThanOrEqual(columns);
    expect(await skeleton.getAttribute('role')).toBe('status');
    await shots(page, 'works-skeleton', skeleton);
    await page.setViewportSize(VIEWPORTS.desktop);
    works.release();
    await page.getByTestId('work-card').first().waitFor();
    await skeleton.waitFor({ state: 'detached' });

    // the tags: label buttons
    const tags = await hold(page, (u) => u.pathname === '/api/tags');
    await page.goto('/tags');
    await skeleton.waitFor();
    expect(await skeleton.getAttribute('data-kind')).toBe('labels');
    tags.release();
    await skeleton.waitFor({ state: 'detached' });

    // the play history: rows
    const history = await hold(page, (u) => u.pathname === '/api/histroy');
    await page.goto('/favourites/histroy');
    await skeleton.waitFor();
    expect(await skeleton.getAttribute('data-kind')).toBe('rows');
    history.release();
    await page.getByTestId('favourites-empty').waitFor();
    expect(await skeleton.count()).toBe(0);
    expect(errors).toEqual([]);
  }, 150_000);

  it('says an unreachable server in words, once, however many requests fail', async () => {
    const user = await app.addUser('user');
    const { page } = await app.open({ as: user });
    await page.goto('/search');
    await writeLocal(page, 'kikoplay.locale', 'en');
    await page.reload();
    const input = page.getByRole('textbox', { name: 'Keyword or work code' });
    await input.waitFor();

    // the server goes away: every API request fails as it would offline
    let aborted = 0;
    await page.route(
      (u) => u.pathname.startsWith('/api/'),
      async (route) => {
        aborted++;
        await route.abort('internetdisconnected');
      },
    );
    // focusing the advanced search asks for the voice actors, tags and circles at once
    await input.click();
    // three lists, each tried three times (two retries)
    await expect.poll(() => aborted, { timeout: 20_000 }).toBeGreaterThanOrEqual(9);
    const sentence = "Can't reach the server — check your connection";
    await toasts(page).filter({ hasText: sentence }).first().waitFor();
    await expect.poll(() => toasts(page).count()).toBe(1);
    expect(await page.getByText('Failed to fetch').count()).toBe(0);

    // a list that cannot load says the same in its panel
    await page.getByRole('link', { name: 'Tags' }).first().click();
    await page.getByRole('alert').filter({ hasText: sentence }).waitFor({ timeout: 20_000 });
    expect(await page.getByText('Failed to fetch').count()).toBe(0);
  });

  it('labels the lyric offset box', async () => {
    const user = await app.addUser('user');
    const { page, errors } = await app.open({ as: user });
    await playFromTree(page, LONG_WORK, LONG_TRACK);
    await page.getByTestId('player-bar-open').click();
    const label = page.getByTestId('lyric-offset-label');
    await label.waitFor();
    expect(await label.textContent()).toBe('歌词偏移');
    // the visible label names the box
    const box = page.getByLabel('歌词偏移', { exact: true });
    expect(await box.getAttribute('data-testid')).toBe('lyric-offset');
    await shots(page, 'lyric-offset', label);
    expect(errors).toEqual([]);
  });

  it('keeps the search heading on the results shown until the new results arrive', async () => {
    const user = await app.addUser('user');
    const { page, errors } = await app.open({ as: user });
    await page.goto(`/works?keyword=${encodeURIComponent('雨の日')}`);
    const title = page.getByTestId('works-title');
    await expect.poll(() => title.textContent()).toBe('搜索：雨の日');
    await expect.poll(() => page.getByTestId('work-card').count()).toBe(1);

    const star = await hold(page, (u) => u.pathname === '/api/search' && u.searchParams.get('keyword') === '星空');
    const box = page.getByTestId('keyword-box');
    await box.fill('星空');
    // the address follows the box, and the list asks for the new results …
    await page.waitForURL((u) => u.searchParams.get('keyword') === '星空');
    await expect.poll(() => star.seen()).toBeGreaterThan(0);
    // the page has taken the new search in: its list is loading (the cards of the old one are gone)
    await page.locator('[data-testid="works-list"][data-loaded="0"]').waitFor();
    // … while the heading still names what was shown
    expect(await title.textContent()).toBe('搜索：雨の日');
    const cardTitles = () => page.locator('[data-testid="work-card"] [data-testid="work-title"]').allTextContents();

    star.release();
    await expect.poll(() => title.textContent()).toBe('搜索：星空');
    await expect.poll(cardTitles).toEqual([expect.stringContaining(STAR_TITLE)]);
    expect(errors).toEqual([]);
  });

  it('shows elapsed and total time in the player bar, fitting 375 and 1280 px', async () => {
    const user = await app.addUser('user');
    const { page, errors } = await app.open({ as: user });
    await playFromTree(page, LONG_WORK, LONG_TRACK);
    const time = page.getByTestId('player-bar-time');
    await expect.poll(() => time.textContent(), { timeout: 10_000 }).toMatch(/^0:0[1-9] \/ 0:20$/);
    await barToggle(page).click();

    for (const viewport of Object.values(VIEWPORTS)) {
      await page.setViewportSize(viewport);
      // within the bar, left of the transport buttons, on the screen
      const bar = (await page.getByTestId('player-bar').boundingBox())!;
      const box = (await time.boundingBox())!;
      const controls = (await page.locator('[data-bar-controls]').boundingBox())!;
      expect(box.width).toBeGreaterThan(0);
      expect(box.x + box.width).toBeLessThanOrEqual(controls.x);
      expect(box.y).toBeGreaterThanOrEqual(bar.y);
      expect(box.y + box.height).toBeLessThanOrEqual(bar.y + bar.height);
    }
    await shots(page, 'player-bar-time', page.getByTestId('player-bar'));
    expect(errors).toEqual([]);
  });

  it('takes the lyric bar away when the track ends', async () => {
    const user = await app.addUser('user');
    const { page, errors } = await app.open({ as: user });
    await playFromTree(page, SHORT_WORK, SHORT_TRACK);
    await page.getByTestId('lyric-bar-text').filter({ hasText: LAST_LINE }).waitFor();
    await expect.poll(async () => (await media(page)).ended, { timeout: 20_000 }).toBe(true);
    await page.getByTestId('lyric-bar').waitFor({ state: 'detached', timeout: 10_000 });
    // played again, it comes back with the lines
    await barToggle(page).click();
    await page.getByTestId('lyric-bar').waitFor();
    expect(errors).toEqual([]);
  }, 150_000);
});
