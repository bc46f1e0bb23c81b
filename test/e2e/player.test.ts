/**
 * End to end: the web player against the built `kikoplay serve` and a scanned library of generated WAV
 * tracks, in headless Chromium. Tracks start from the real work page; what the page plays is read
 * from its media element. Covers: playing (time advances), next/previous, every play mode at the end
 * of a track, reordering and removing in the queue, the sleep timer, resuming after a reload and
 * from the work page's play history, and the media token of media URLs (reloaded when it fails).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { VIEWPORTS } from '../helpers/browser.js';
import { tempDir } from '../helpers/app.js';
import { servedApp, type Account } from '../helpers/e2e.js';
import { synthWav } from '../../server/library/demo-library.js';

const WORK = 100001;
const TRACKS = ['01 はじめに.wav', '02 耳かき.wav', '03 おやすみ.wav'];
const TRACK_SECONDS = 6;

/** Track hash of each title (the scanner numbers the files). */
const hashOf: Record<string, string> = {};

/** A library with one work of three generated tracks. */
async function makeLibrary(): Promise<{ root: string }> {
  const root = tempDir('kikoplay-player-');
  const work = path.join(root, `RJ${WORK} プレイヤーテスト`, 'SE');
  mkdirSync(work, { recursive: true });
  TRACKS.forEach((name, i) => writeFileSync(path.join(work, name), synthWav([[440 + 110 * i, TRACK_SECONDS]], 0.2)));
  return { root };
}

// one scanned library for the file; the play state is per user: each test plays as a user of its own
const app = servedApp({
  library: makeLibrary,
  async seed({ api }) {
    const walk = (nodes: { title: string; hash?: string; children?: unknown[] }[]) => {
      for (const n of nodes) {
        if (n.hash) hashOf[n.title] = n.hash;
        if (n.children) walk(n.children as typeof nodes);
      }
    };
    walk(await api<{ title: string }[]>('GET', `/api/tracks/${WORK}`));
    if (TRACKS.some((t) => !hashOf[t])) throw new Error(`tracks not scanned: ${JSON.stringify(hashOf)}`);
  },
});

// ---- reading the page ----------------------------------------------------------------------------

interface MediaLike {
  currentTime: number;
  duration: number;
  paused: boolean;
  getAttribute(name: string): string | null;
}
interface PageDoc {
  playStartedAt?: number | null;
  document: {
    addEventListener(type: string, fn: (e: { target: unknown }) => void, capture: boolean): void;
    querySelectorAll(sel: string): ArrayLike<MediaLike & { dispatchEvent(e: unknown): boolean; addEventListener(type: string, fn: () => void, opts?: { once?: boolean }): void }>;
  };
  Event: new (type: string) => unknown;
  sessionStorage: { getItem(key: string): string | null };
  localStorage: { removeItem(key: string): void; setItem(key: string, value: string): void };
  Math: { random: () => number };
}

/**
 * From now on, note the media time at which playback next starts (the `playing` event, caught on its
 * way down to the element). Read with `playStartedAt`: where a resume put the track, however long the
 * test then took to look.
 */
async function recordPlayStart(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = globalThis as unknown as PageDoc;
    w.playStartedAt = null;
    w.document.addEventListener(
      'playing',
      (e) => {
        if (w.playStartedAt === null) w.playStartedAt = (e.target as MediaLike).currentTime;
      },
      true,
    );
  });
}

const playStartedAt = (page: Page) => page.evaluate(() => (globalThis as unknown as PageDoc).playStartedAt ?? null);

/** The player's media element with a source: its time, state and which track it plays. */
async function media(page: Page): Promise<{ time: number; paused: boolean; hash: string; duration: number } | null> {
  return page.evaluate(() => {
    const els = Array.from((globalThis as unknown as PageDoc).document.querySelectorAll('audio, video')).filter((e) => e.getAttribute('src'));
    const el = els[0];
    if (!el) return null;
    const m = /\/api\/media\/stream\/(\d+\/\d+)/.exec(el.getAttribute('src') ?? '');
    return { time: el.currentTime, paused: el.paused, hash: m ? m[1] : '', duration: el.duration };
  });
}

/** Move the playing element to `seconds` (what dragging the seek bar does). */
async function seekTo(page: Page, seconds: number): Promise<void> {
  await page.evaluate((s) => {
    const el = Array.from((globalThis as unknown as PageDoc).document.querySelectorAll('audio, video')).find((e) => e.getAttribute('src'));
    if (el) el.currentTime = s;
  }, seconds);
}

const barTitle = (page: Page) => page.getByTestId('player-bar-title').textContent();
const isPlaying = async (page: Page) => (await page.getByTestId('player-toggle').first().getAttribute('data-playing')) === 'true';

async function playFromWorkPage(page: Page, title: string): Promise<void> {
  await page.goto(`/work/${WORK}`);
  await page.getByTestId('file-tree').waitFor();
  await page.locator(`[data-testid="tree-item"][data-title="${title}"] button`).first().click();
  await expect.poll(() => barTitle(page)).toBe(title);
  await expect.poll(async () => (await media(page))?.time ?? 0, { timeout: 10_000 }).toBeGreaterThan(0.3);
}

async function setMode(page: Page, mode: 'order' | 'allRepeat' | 'repeatOnce' | 'shuffle'): Promise<void> {
  await openExpanded(page);
  const button = page.getByTestId('player-mode');
  for (let i = 0; i < 4 && (await button.getAttribute('data-mode')) !== mode; i++) await button.click();
  expect(await button.getAttribute('data-mode')).toBe(mode);
}

async function openExpanded(page: Page): Promise<void> {
  if (await page.getByTestId('expanded-player').isVisible()) return;
  await page.getByTestId('player-bar-open').click();
  await page.getByTestId('expanded-player').waitFor();
}

async function closeExpanded(page: Page): Promise<void> {
  if (!(await page.getByTestId('expanded-player').isVisible())) return;
  await page.getByTestId('player-collapse').click();
  await page.getByTestId('expanded-player').waitFor({ state: 'hidden' });
}

async function openQueue(page: Page): Promise<void> {
  await openExpanded(page);
  await page.getByTestId('queue-open').click();
  await page.getByTestId('queue-list').waitFor();
}

const queueTitles = (page: Page) => page.getByTestId('queue-title').allTextContents();
const currentQueueTitle = (page: Page) => page.locator('[data-testid="queue-item"][data-current] [data-testid="queue-title"]').textContent();

// ---- tests --------------------------------------------------------------------------------------

describe('the player', () => {
  let user: Account;
  let page: Page;
  let errors: string[];

  beforeEach(async () => {
    user = await app.addUser('user', 'listener');
    ({ page, errors } = await app.open({ as: user }));
  });

  it('plays a track from the work page and its time advances', async () => {
    await playFromWorkPage(page, TRACKS[0]);
    const first = (await media(page))!;
    expect(first.hash).toBe(hashOf[TRACKS[0]]);
    expect(first.paused).toBe(false);
    await expect.poll(async () => (await media(page))!.time).toBeGreaterThan(first.time + 0.5);
    expect(await isPlaying(page)).toBe(true);
    // the pause button pauses the element
    await page.getByTestId('player-toggle').click();
    await expect.poll(async () => (await media(page))!.paused).toBe(true);
    await page.getByTestId('player-toggle').click();
    await expect.poll(async () => (await media(page))!.paused).toBe(false);
    expect(errors).toEqual([]);
  });

  it('goes to the next and previous track', async () => {
    await playFromWorkPage(page, TRACKS[0]);
    await page.getByTestId('player-next').click();
    await expect.poll(() => barTitle(page)).toBe(TRACKS[1]);
    await expect.poll(async () => (await media(page))!.hash).toBe(hashOf[TRACKS[1]]);
    await expect.poll(async () => (await media(page))!.time).toBeGreaterThan(0.2);
    await page.getByTestId('player-previous').click();
    await expect.poll(() => barTitle(page)).toBe(TRACKS[0]);
    await expect.poll(async () => (await media(page))!.hash).toBe(hashOf[TRACKS[0]]);
    expect(await page.getByTestId('player-previous').isDisabled()).toBe(true); // first track: no previous
  });

  it('applies each play mode when a track ends', async () => {
    await playFromWorkPage(page, TRACKS[0]);
    await openExpanded(page);
    const ending = async () => {
      await expect.poll(async () => (await media(page))?.duration ?? Number.NaN).toBeGreaterThan(1);
      await seekTo(page, (await media(page))!.duration - 0.4);
    };

    // order: the next track…
    await setMode(page, 'order');
    await ending();
    await expect.poll(() => page.getByTestId('expanded-title').textContent()).toBe(TRACKS[1]);
    // …and a pause after the last one
    await page.getByTestId('player-next').last().click();
    await expect.poll(() => page.getByTestId('expanded-title').textContent()).toBe(TRACKS[2]);
    await ending();
    await expect.poll(() => isPlaying(page)).toBe(false);
    expect(await page.getByTestId('expanded-title').textContent()).toBe(TRACKS[2]);

    // all repeat: the last track wraps to the first
    await setMode(page, 'allRepeat');
    await page.getByTestId('player-toggle').last().click();
    await ending();
    await expect.poll(() => page.getByTestId('expanded-title').textContent()).toBe(TRACKS[0]);
    await expect.poll(() => isPlaying(page)).toBe(true);

    // repeat once: the same track from the start
    await setMode(page, 'repeatOnce');
    await ending();
    await expect.poll(async () => (await media(page))!.time, { timeout: 5000 }).toBeLessThan(1.5);
    expect(await page.getByTestId('expanded-title').textContent()).toBe(TRACKS[0]);
    await expect.poll(async () => (await media(page))!.time).toBeGreaterThan(0.1);
    expect(await isPlaying(page)).toBe(true);

    // shuffle: a random track (made predictable here), or the same one again from the start
    await setMode(page, 'shuffle');
    await page.evaluate(() => ((globalThis as unknown as PageDoc).Math.random = () => 0.99));
    await ending();
    await expect.poll(() => page.getByTestId('expanded-title').textContent()).toBe(TRACKS[2]);
    await page.evaluate(() => ((globalThis as unknown as PageDoc).Math.random = () => 0.99));
    await expect.poll(async () => (await media(page))!.time).toBeGreaterThan(0.2);
    await ending();
    await expect.poll(async () => (await media(page))!.time, { timeout: 5000 }).toBeLessThan(1.5);
    expect(await page.getByTestId('expanded-title').textContent()).toBe(TRACKS[2]);
    expect(await isPlaying(page)).toBe(true);
  });

  it('reorders and removes entries in the queue', async () => {
    await playFromWorkPage(page, TRACKS[1]);
    // the track is 6 s long: repeat it, so it is still the current one however slow the machine is
    await setMode(page, 'repeatOnce');
    await openQueue(page);
    expect(await queueTitles(page)).toEqual(TRACKS);
    expect(await currentQueueTitle(page)).toBe(TRACKS[1]);

    // drag the last entry to the top: the current track stays selected
    const handle = page.getByTestId('queue-drag').nth(2);
    const target = page.getByTestId('queue-item').nth(0);
    const from = (await handle.boundingBox())!;
    const to = (await target.boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2, from.y - 10, { steps: 4 });
    await page.mouse.move(from.x + from.width / 2, to.y + 4, { steps: 8 });
    await page.mouse.up();
    await expect.poll(() => queueTitles(page)).toEqual([TRACKS[2], TRACKS[0], TRACKS[1]]);
    expect(await currentQueueTitle(page)).toBe(TRACKS[1]);
    expect(await barTitle(page)).toBe(TRACKS[1]);
    expect(await isPlaying(page)).toBe(true);

    // removing an earlier entry keeps the current track playing
    await page.getByTestId('queue-remove').nth(0).click();
    await expect.poll(() => queueTitles(page)).toEqual([TRACKS[0], TRACKS[1]]);
    expect(await currentQueueTitle(page)).toBe(TRACKS[1]);
    expect(await isPlaying(page)).toBe(true);

    // removing the current entry stops playback and selects the first
    await page.getByTestId('queue-remove').nth(1).click();
    await expect.poll(() => queueTitles(page)).toEqual([TRACKS[0]]);
    await expect.poll(() => isPlaying(page)).toBe(false);
    expect(await currentQueueTitle(page)).toBe(TRACKS[0]);

    // clearing empties the queue and the bottom bar goes away
    await page.getByTestId('queue-clear').click();
    await page.getByTestId('queue-clear-confirm').click();
    await page.getByTestId('player-bar').waitFor({ state: 'detached' });
    await page.keyboard.press('Escape');
    expect(await media(page)).toBeNull();
  });

  it('pauses when the sleep timer is due, and refuses a countdown of 0', async () => {
    await playFromWorkPage(page, TRACKS[0]);
    await setMode(page, 'allRepeat'); // keeps playing whatever the timer needs
    await closeExpanded(page);
    await page.getByTestId('sleep-timer-entry').click();
    const dialog = page.getByTestId('sleep-dialog');
    await dialog.waitFor();
    await page.getByTestId('sleep-slider').getByRole('slider').focus();
    await page.keyboard.press('Home'); // slider at 0 → 0 minutes
    await page.getByTestId('sleep-set').click();
    await page.getByText('倒计时失败，时长不能小于0').waitFor();
    expect(await page.evaluate(() => (globalThis as unknown as PageDoc).sessionStorage.getItem('kikoplay.sleepTimer'))).toBeNull();

    await page.getByTestId('sleep-minutes').fill('0.05'); // 3 seconds
    await page.getByTestId('sleep-set').click();
    await dialog.waitFor({ state: 'hidden' });
    const stored = JSON.parse((await page.evaluate(() => (globalThis as unknown as PageDoc).sessionStorage.getItem('kikoplay.sleepTimer')))!) as { mode: string; stopAt: number };
    expect(stored.mode).toBe('countdown');
    expect(await isPlaying(page)).toBe(true);
    // the notice says the timer fired (the button alone also shows "not playing" for a moment between
    // two tracks of the repeated list, which a loaded machine can catch)
    await page.getByText('睡眠定时已到，已暂停播放').waitFor({ timeout: 10_000 });
    await expect.poll(async () => (await media(page))!.paused).toBe(true);
    expect(await isPlaying(page)).toBe(false);
    expect(await page.evaluate(() => (globalThis as unknown as PageDoc).sessionStorage.getItem('kikoplay.sleepTimer'))).toBeNull();
  });

  it('resumes at the saved second after a reload', async () => {
    await playFromWorkPage(page, TRACKS[1]);
    await seekTo(page, 3.5);
    await page.getByTestId('player-toggle').click();
    await expect.poll(async () => (await media(page))!.paused).toBe(true);
    const saved = (await media(page))!.time;
    expect(saved).toBeGreaterThan(3.4);

    // the server has the play state too (saved 500 ms after the pause)
    await expect
      .poll(async () => {
        const work = await app.api<{ state: { index: number; seconds: number; queue: { hash: string }[] } | null }>('GET', `/api/work/${WORK}`, undefined, user.token);
        return work.state && { index: work.state.index, near: Math.abs(work.state.seconds - saved) < 0.05, hash: work.state.queue[work.state.index]?.hash };
      })
      .toEqual({ index: 1, near: true, hash: hashOf[TRACKS[1]] });

    await page.reload();
    await page.getByText('已恢复播放历史').waitFor();
    expect(await barTitle(page)).toBe(TRACKS[1]);
    const resumed = (await media(page))!;
    expect(resumed.hash).toBe(hashOf[TRACKS[1]]);
    expect(Math.abs(resumed.time - saved)).toBeLessThan(0.3);
    expect(resumed.paused).toBe(true);

    // "play history of this work" for the track that is loaded already seeks it back too
    await seekTo(page, 0.5);
    await recordPlayStart(page);
    await page.getByTestId('action-resume').click();
    await expect.poll(() => isPlaying(page)).toBe(true);
    expect(Math.abs((await playStartedAt(page))! - saved)).toBeLessThan(0.3);
    await page.getByTestId('player-toggle').first().click();

    expect(errors).toEqual([]);
  });

  it('resumes the play history saved on the server from the work page, in another browser', async () => {
    // the play state another browser saved: the second track, paused at 3.6 s
    const queue = TRACKS.map((title) => ({ hash: hashOf[title], title, subtitle: null, workTitle: 'プレイヤーテスト', workId: WORK }));
    await app.api('PUT', '/api/histroy', { work_id: WORK, state: { queue, index: 1, seconds: 3.6 } }, user.token);
    const other = await app.open({ as: user, viewport: VIEWPORTS.phone });
    const p = other.page;
    await p.goto(`/work/${WORK}`);
    await p.getByTestId('work-page').waitFor();
    expect(await p.getByTestId('player-bar').count()).toBe(0); // nothing kept locally in this browser
    await recordPlayStart(p);
    await p.getByTestId('action-resume').click();
    await p.getByText('已恢复播放历史').waitFor();
    await expect.poll(async () => (await media(p))?.hash).toBe(hashOf[TRACKS[1]]);
    await expect.poll(() => isPlaying(p)).toBe(true);
    expect(Math.abs((await playStartedAt(p))! - 3.6)).toBeLessThan(0.3);
    expect(other.errors).toEqual([]);
  });
});

describe('the media token of media URLs', () => {
  let user: Account;
  let page: Page;
  let errors: string[];

  beforeEach(async () => {
    user = await app.addUser('user', 'listener');
    ({ page, errors } = await app.open({ as: user }));
  });

  const srcToken = (p: Page) =>
    p.evaluate(() => {
      const el = Array.from((globalThis as unknown as PageDoc).document.querySelectorAll('audio, video')).find((e) => e.getAttribute('src'));
      return new URL(el?.getAttribute('src') ?? '', 'http://x').searchParams.get('token');
    });

  it('puts a media-only token into the stream URL, never the login token', async () => {
    await playFromWorkPage(page, TRACKS[0]);
    const inUrl = await srcToken(page);
    expect(inUrl).toBeTruthy();
    expect(inUrl).not.toBe(user.token);
    expect((await fetch(`${app.url}/api/media/stream/${hashOf[TRACKS[0]]}?token=${encodeURIComponent(inUrl!)}`)).status).toBe(200);
    expect((await fetch(`${app.url}/api/works`, { headers: { Authorization: `Bearer ${inUrl}` } })).status).toBe(401);
    expect(errors).toEqual([]);
  });

  it('reloads a track whose token the server refuses with a fresh one, and plays on', async () => {
    await playFromWorkPage(page, TRACKS[0]);
    const good = await srcToken(page);
    expect(good).not.toBe(user.token);
    // a stored token the server no longer takes (as one past its expiry): the next track's URL gets it
    await page.evaluate(() => (globalThis as unknown as PageDoc).localStorage.setItem('kikoplay.mediaToken', JSON.stringify({ token: 'no.longer.good', expiresAt: Date.now() + 3 * 3_600_000 })));
    await page.getByTestId('player-next').first().click();
    await expect.poll(() => barTitle(page)).toBe(TRACKS[1]);
    await expect.poll(() => srcToken(page), { timeout: 10_000 }).toBe(good);
    await expect.poll(async () => (await media(page))?.time ?? 0, { timeout: 10_000 }).toBeGreaterThan(0.3);
    expect(await isPlaying(page)).toBe(true);
    expect(errors).toEqual([]);
  });

  it('a failure mid-track resumes at the same time', async () => {
    await playFromWorkPage(page, TRACKS[0]);
    await expect.poll(async () => (await media(page))?.time ?? 0, { timeout: 10_000 }).toBeGreaterThan(1.5);
    const before = (await media(page))!;
    // the element fails (as when its URL's token expired during a long track): where does the reload seek to?
    await page.evaluate(() => {
      const g = globalThis as unknown as PageDoc & { seekedAt?: number };
      const el = Array.from(g.document.querySelectorAll('audio, video')).find((e) => e.getAttribute('src'))!;
      el.addEventListener('seeked', () => (g.seekedAt = el.currentTime), { once: true });
      el.dispatchEvent(new g.Event('error'));
    });
    await expect.poll(() => page.evaluate(() => (globalThis as unknown as { seekedAt?: number }).seekedAt ?? -1), { timeout: 10_000 }).toBeGreaterThanOrEqual(before.time - 0.05);
    await expect.poll(async () => (await media(page))!.time, { timeout: 10_000 }).toBeGreaterThan(before.time + 0.3);
    expect((await media(page))!.hash).toBe(before.hash);
    expect(await isPlaying(page)).toBe(true);
    expect(errors).toEqual([]);
  });
});
