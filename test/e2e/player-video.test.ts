/**
 * End to end: the full-screen player (a video file plays in it; the nothing-playing rules) and the
 * bottom bar's swipe gestures, against the built `kikoplay serve` and a scanned library (generated WAV
 * tracks with a cover, and the committed tiny H.264 video).
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { tempDir } from '../helpers/app.js';
import { PACKAGE_ROOT } from '../helpers/cli-server.js';
import { servedApp } from '../helpers/e2e.js';
import { playFromTree, RAIN_TRACKS, RAIN_WORK, writeRainWork } from '../helpers/playing.js';

const VIDEO_WORK = 100004;

// one scanned library for the file; each test plays as a user of its own in a fresh page
const app = servedApp({
  async library() {
    const root = tempDir('kikoplay-video-');
    await writeRainWork(root, 60);
    const video = path.join(root, `RJ${VIDEO_WORK} ビデオ作品`);
    mkdirSync(video, { recursive: true });
    copyFileSync(path.join(PACKAGE_ROOT, 'test/fixtures/audio/tiny-video.mp4'), path.join(video, 'movie.mp4'));
    return { root };
  },
});

interface MediaLike {
  currentTime: number;
  paused: boolean;
  videoWidth?: number;
  tagName: string;
  parentElement: { getAttribute(name: string): string | null } | null;
  getAttribute(name: string): string | null;
}
interface Win {
  document: { querySelectorAll(sel: string): ArrayLike<MediaLike>; fullscreenElement: unknown };
}

async function media(page: Page) {
  return page.evaluate(() => {
    const el = Array.from((globalThis as unknown as Win).document.querySelectorAll('audio, video')).find((e) => e.getAttribute('src'));
    return el ? { time: el.currentTime, paused: el.paused, tag: el.tagName, width: el.videoWidth ?? 0, stage: el.parentElement?.getAttribute('data-testid') ?? null } : null;
  });
}

describe('the full-screen player', () => {
  let page: Page;
  let errors: string[];

  beforeEach(async () => {
    ({ page, errors } = await app.open({ as: await app.addUser('user', 'listener') }));
  });

  it('sends to the work list, or to the work, when nothing plays', async () => {
    await page.goto('/fullScreenPlayer');
    await page.getByText('请先播放一部作品').waitFor();
    await page.waitForURL('**/works');
    await page.goto(`/fullScreenPlayer/${VIDEO_WORK}`);
    await page.waitForURL(`**/work/${VIDEO_WORK}`);
    await page.getByTestId('work-page').waitFor();
    expect(await page.getByTestId('fullscreen-link').count()).toBe(0); // the header link only shows while a work plays
  });

  it('plays a video file in the full-screen player, reached from the header link', async () => {
    await playFromTree(page, VIDEO_WORK, 'movie.mp4');
    // the clip is 2 s long: repeat it so it is playing whenever the test looks
    // (go round the modes to repeatOnce)
    await page.getByTestId('player-bar-open').click();
    const mode = page.getByTestId('player-mode');
    for (let i = 0; i < 4 && (await mode.getAttribute('data-mode')) !== 'repeatOnce'; i++) await mode.click();
    expect(await mode.getAttribute('data-mode')).toBe('repeatOnce');
    // on a slow machine the clip may have ended before the mode changed: start it again
    if ((await media(page))!.paused) await page.getByTestId('player-toggle').last().click();
    await expect.poll(async () => (await media(page))!.paused).toBe(false);
    await page.getByTestId('player-collapse').click();
    await page.getByTestId('expanded-player').waitFor({ state: 'hidden' });
    await page.getByTestId('fullscreen-link').first().click();
    await page.waitForURL(`**/fullScreenPlayer/${VIDEO_WORK}`);
    await page.getByTestId('fullscreen-video').waitFor();
    await expect.poll(async () => (await media(page))?.stage).toBe('fullscreen-video');
    const m = (await media(page))!;
    expect(m.tag).toBe('VIDEO');
    expect(m.width).toBe(32); // the picture track is decoded
    // (a loop passes through a paused end for a moment: look again rather than once)
    await expect.poll(async () => (await media(page))!.paused).toBe(false);
    const t0 = (await media(page))!.time;
    await expect.poll(async () => (await media(page))!.time).not.toBe(t0); // it plays (and loops)

    // a double click asks for the browser's fullscreen, another leaves it
    await page.getByTestId('fullscreen-player').dblclick({ position: { x: 200, y: 120 } });
    await expect.poll(() => page.evaluate(() => (globalThis as unknown as Win).document.fullscreenElement !== null)).toBe(true);
    await expect.poll(() => page.getByTestId('fullscreen-player').getAttribute('data-fullscreen')).toBe('true');
    await page.getByTestId('fullscreen-player').dblclick({ position: { x: 200, y: 120 } });
    await expect.poll(() => page.evaluate(() => (globalThis as unknown as Win).document.fullscreenElement !== null)).toBe(false);
    await expect.poll(() => page.getByTestId('fullscreen-player').getAttribute('data-fullscreen')).toBe(null);

    // leaving the page takes the video element back without stopping it
    await page.getByRole('link', { name: '回到首页' }).click();
    await page.waitForURL('**/works');
    await expect.poll(async () => (await media(page))?.stage).toBe('player-media');
    expect(errors).toEqual([]);
  });

  it('shows the cover, the lyric line and the seek bar for an audio track', async () => {
    await playFromTree(page, RAIN_WORK, RAIN_TRACKS[0]);
    await page.goto(`/fullScreenPlayer/${RAIN_WORK}`); // a reload: the queue comes back, paused
    await page.getByTestId('fullscreen-player').waitFor();
    await page.getByTestId('player-toggle').last().click();
    await expect.poll(() => page.getByTestId('fullscreen-lyric').textContent()).toMatch(/雨の音が聞こえる|ゆっくり休んでね/);
    expect(await page.getByTestId('lyric-bar').count()).toBe(0); // the page shows its own lyric line
    await page.getByTestId('player-progress').waitFor();
  });
});

describe('swipe gestures on the bottom bar', () => {
  let page: Page;

  beforeEach(async () => {
    ({ page } = await app.open({ as: await app.addUser('user', 'listener') }));
    await playFromTree(page, RAIN_WORK, RAIN_TRACKS[0]);
  });

  /** Press on the bar's title, move by (dx, dy) in small steps (after `holdMs`), release. */
  async function swipe(dx: number, dy: number, holdMs = 0, check?: () => Promise<void>) {
    // the bar slides in as the first track starts: press once it has stopped moving (trial: the checks only)
    await page.getByTestId('player-bar-title').click({ trial: true });
    const box = (await page.getByTestId('player-bar-title').boundingBox())!;
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 2;
    await page.mouse.move(x, y);
    await page.mouse.down();
    if (holdMs) await page.waitForTimeout(holdMs);
    // a swipe decides its direction on the first move (a slow first step on a busy machine would let the
    // 500 ms hold turn it into a drag); a drag after a hold moves in small steps
    await page.mouse.move(x + dx, y + dy, { steps: holdMs ? 10 : 2 });
    await check?.();
    await page.mouse.up();
  }

  it('up shows the player', async () => {
    await swipe(0, -40);
    await page.getByTestId('expanded-player').waitFor();
    await page.getByTestId('player-collapse').click();
    await page.getByTestId('expanded-player').waitFor({ state: 'hidden' });
  });

  it('sideways seeks by dragging, with a preview; so does a 500 ms hold', async () => {
    const width = (await page.getByTestId('player-bar').boundingBox())!.width;
    const before = (await media(page))!.time;
    // the whole bar spans the 60 s track: a quarter of it is 15 s
    await swipe(width / 4, 0, 0, () => page.getByTestId('player-seek-preview').waitFor());
    await page.getByTestId('player-seek-preview').waitFor({ state: 'detached' });
    const after = (await media(page))!.time;
    expect(after - before).toBeGreaterThan(13);
    expect(after - before).toBeLessThan(18);
    expect(await page.getByTestId('expanded-player').isVisible()).toBe(false); // no click slipped through

    // hold still for 600 ms: horizontal already, a small move back seeks back
    await swipe(-width / 8, 0, 600, () => page.getByTestId('player-seek-preview').waitFor());
    const back = (await media(page))!.time;
    expect(after - back).toBeGreaterThan(5); // an eighth of the bar: 7.5 s back
  });

  it('down hides the bar; the music button brings it back', async () => {
    await swipe(0, 30); // (the bar is at the bottom: 40 px down would let go outside the page)
    await page.getByTestId('player-bar-restore').waitFor();
    expect(await page.getByTestId('player-bar').count()).toBe(0);
    expect((await media(page))!.paused).toBe(false); // playback goes on
    await page.getByTestId('player-bar-restore').click();
    await page.getByTestId('player-bar').waitFor();
  });
});
