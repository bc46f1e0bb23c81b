/**
 * End to end: lyrics in the web player against the built `kikoplay serve` and a scanned library of a
 * generated WAV track with an LRC file next to it and another lyric file elsewhere in the work.
 * Checks when each line shows on the on-screen lyric bar (±250 ms of its time, with and without an
 * offset), the sync helper, choosing another lyric file, the admin's lyric editor saving a .vtt, and
 * the desktop keyboard shortcuts.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { tempDir } from '../helpers/app.js';
import { servedApp, type E2eServer } from '../helpers/e2e.js';
import { synthWav } from '../../server/library/demo-library.js';

const WORK = 100003;
const WORK_DIR = `RJ${WORK} 歌詞テスト`;
const TRACK = '01 はじめに.wav';
/** A track with no lyric file: its lyric comes from a finished AI task. */
const AI_TRACK = '02 ささやき.wav';
const LINES = [1, 2, 3, 4, 5, 6].map((s) => ({ time: s, text: `第${s}行` }));
const LRC = LINES.map((l) => `[00:0${l.time}.00]${l.text}`).join('\n') + '\n';
const SRT = '1\n00:00:00,500 --> 00:00:07,000\n别的歌词\n';
/** A line must show within this much of its time. */
const TOLERANCE_S = 0.25;

/** A library of one work: the two tracks, the LRC file of the first, and an SRT file in a subfolder. */
function makeLibrary(): { root: string } {
  const root = tempDir('kikoplay-lyrics-');
  const work = path.join(root, WORK_DIR);
  mkdirSync(path.join(work, 'extra'), { recursive: true });
  writeFileSync(path.join(work, TRACK), synthWav([[440, 9]], 0.2));
  writeFileSync(path.join(work, AI_TRACK), synthWav([[523, 9]], 0.2));
  writeFileSync(path.join(work, '01 はじめに.lrc'), LRC);
  writeFileSync(path.join(work, 'extra', '其他歌词.srt'), SRT);
  return { root };
}

// one scanned library for the file; a test that adds a lyric (a saved file, an AI task) does it on a
// server (and, for a file, a library) of its own
const app = servedApp({ library: async () => makeLibrary() });

interface MediaLike {
  currentTime: number;
  duration: number;
  paused: boolean;
  volume: number;
  getAttribute(name: string): string | null;
}
interface Win {
  document: { querySelectorAll(sel: string): ArrayLike<MediaLike>; querySelector(sel: string): { textContent: string | null } | null };
  setTimeout(fn: () => void, ms: number): number;
  requestAnimationFrame(fn: () => void): number;
  lyricLog?: [number, number, string][];
  lyricFrames?: number[];
  lyricLogStop?: boolean;
}

async function media(page: Page): Promise<{ time: number; paused: boolean; volume: number; duration: number }> {
  return page.evaluate(() => {
    const w = globalThis as unknown as Win;
    const el = Array.from(w.document.querySelectorAll('audio, video')).find((e) => e.getAttribute('src'))!;
    return { time: el.currentTime, paused: el.paused, volume: el.volume, duration: el.duration };
  });
}

async function seekTo(page: Page, seconds: number): Promise<void> {
  await page.evaluate((s) => {
    const el = Array.from((globalThis as unknown as Win).document.querySelectorAll('audio, video')).find((e) => e.getAttribute('src'));
    if (el) el.currentTime = s;
  }, seconds);
}

/**
 * Records, sampling every few milliseconds, when the lyric bar's text changes, as [media time of the
 * last sample that showed the old text, media time of the first sample that shows the new one, text]:
 * the change happened in between. A timer, not animation frames, so no change is missed: a starved page
 * may draw no frame for a second or more while the player still updates on the media's time events.
 * Beside it, the media time of every frame the page draws while playing, to tell a line the user saw
 * late from one that reached the page late while nothing was drawn. Read back with `stopLyricLog`.
 */
async function startLyricLog(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = globalThis as unknown as Win;
    w.lyricLog = [];
    w.lyricFrames = [];
    w.lyricLogStop = false;
    let last: string | null = null;
    let before = -1;
    const playing = () => Array.from(w.document.querySelectorAll('audio, video')).find((e) => e.getAttribute('src') && !e.paused);
    const loop = () => {
      if (w.lyricLogStop) return;
      const el = playing();
      const text = w.document.querySelector('[data-testid="lyric-bar-text"]')?.textContent ?? '';
      if (el) {
        if (text !== last) {
          w.lyricLog!.push([before, el.currentTime, text]);
          last = text;
        }
        before = el.currentTime;
      }
      w.setTimeout(loop, 5);
    };
    const frame = () => {
      if (w.lyricLogStop) return;
      const el = playing();
      if (el) w.lyricFrames!.push(el.currentTime);
      w.requestAnimationFrame(frame);
    };
    loop();
    w.requestAnimationFrame(frame);
  });
}

async function stopLyricLog(page: Page): Promise<LyricLog> {
  return page.evaluate(() => {
    const w = globalThis as unknown as Win;
    w.lyricLogStop = true;
    return { changes: w.lyricLog ?? [], frames: w.lyricFrames ?? [] };
  });
}

interface LyricLog {
  changes: [number, number, string][];
  frames: number[];
}

/**
 * The line `text` showed within `TOLERANCE_S` of `time`: the first sample with it came no earlier, and
 * the last sample before it still showed the old text no later than that — or, if later, no frame was
 * drawn in between (the page was starved: nobody saw the old line late).
 */
function expectShownAt(log: LyricLog, text: string, time: number): void {
  const entry = log.changes.find(([, , t]) => t === text);
  expect(entry, `${text} in ${JSON.stringify(log.changes)}`).toBeDefined();
  const [before, at] = entry!;
  expect(at, `${text} shown at ${at} (expected ${time})`).toBeGreaterThanOrEqual(time - TOLERANCE_S);
  const lateFrames = log.frames.filter((f) => f > time + TOLERANCE_S && f < before);
  expect(lateFrames, `${text} not yet shown at ${before} (expected ${time}); frames drawn meanwhile at`).toEqual([]);
}

describe('lyrics in the player', () => {
  let page: Page;
  let errors: string[];

  /** A fresh page of an admin of its own (on `own`, or the file's server) playing TRACK. */
  async function playTrack(own?: E2eServer): Promise<void> {
    const admin = own ? own.admin : await app.addUser('admin');
    ({ page, errors } = await app.open({ as: admin, on: own }));
    await page.goto(`/work/${WORK}`);
    await page.getByTestId('file-tree').waitFor();
    await page.locator(`[data-testid="tree-item"][data-title="${TRACK}"] button`).first().click();
    await page.getByTestId('player-bar').waitFor();
    await expect.poll(async () => (await media(page)).time, { timeout: 10_000 }).toBeGreaterThan(0.2);
  }

  /** The expanded player, with the lyric list. */
  async function openExpanded(): Promise<void> {
    await page.getByTestId('player-bar-open').click();
    await page.getByTestId('lyric-list').waitFor();
  }

  /** Choose the SRT file as the lyric of the track playing. */
  async function chooseSrt(): Promise<void> {
    await page.getByTestId('lyric-select-open').click();
    const options = page.getByTestId('lyric-option');
    await expect.poll(() => options.count()).toBe(2);
    expect(await options.nth(0).textContent()).toContain('01 はじめに.lrc'); // the match comes first
    await options.filter({ hasText: '其他歌词.srt' }).click();
    await seekTo(page, 3);
    await expect.poll(() => page.getByTestId('lyric-bar-text').textContent()).toBe('别的歌词');
    expect(await page.getByTestId('lyric-select-open').textContent()).toContain('其他歌词.srt');
  }

  it('shows each line of the LRC file at its time (±250 ms)', async () => {
    await playTrack();
    await expect.poll(async () => (await media(page)).time, { timeout: 10_000 }).toBeGreaterThan(0.2);
    await page.getByTestId('lyric-bar-text').waitFor();
    await seekTo(page, 0.3);
    await page.getByTestId('lyric-bar').waitFor({ state: 'detached' }); // before the first line: nothing shows
    await startLyricLog(page);
    await expect.poll(async () => (await media(page)).time, { timeout: 8000 }).toBeGreaterThan(4.6);
    const log = await stopLyricLog(page);
    for (const line of LINES.slice(0, 4)) expectShownAt(log, line.text, line.time);
    // the expanded player's list highlights the current line too
    await page.getByTestId('player-bar-open').click();
    await page.getByTestId('lyric-list').waitFor();
    await expect.poll(() => page.locator('[data-testid="lyric-list"] [data-active]').textContent()).toMatch(/^第\d行$/);
    expect(errors).toEqual([]);
  });

  it('shifts every line by the offset', async () => {
    await playTrack();
    await openExpanded();
    const offset = page.getByTestId('lyric-offset');
    await offset.fill('0.8');
    await offset.blur();
    await seekTo(page, 0.3);
    await page.getByTestId('lyric-bar').waitFor({ state: 'detached' });
    await startLyricLog(page);
    await expect.poll(async () => (await media(page)).time, { timeout: 8000 }).toBeGreaterThan(5.2);
    const log = await stopLyricLog(page);
    for (const line of LINES.slice(0, 4)) expectShownAt(log, line.text, line.time + 0.8);
    // cleared means 0
    await offset.fill('');
    await offset.blur();
    await seekTo(page, 2.5);
    await expect.poll(() => page.getByTestId('lyric-bar-text').textContent()).toBe('第2行');
  });

  it('measures the offset with the sync helper: ready → measure → done, and resets', async () => {
    await playTrack();
    await openExpanded();
    await page.getByTestId('lyric-sync-open').click();
    const helper = page.getByTestId('sync-helper');
    await helper.waitFor();
    expect(await helper.getAttribute('data-phase')).toBe('ready');
    // the two presses happen somewhere between these playback times
    const a0 = (await media(page)).time;
    await page.getByTestId('sync-lyric-first').click();
    const a1 = (await media(page)).time;
    expect(await helper.getAttribute('data-phase')).toBe('measure');
    await expect.poll(async () => (await media(page)).time).toBeGreaterThan(a1 + 0.6);
    const b0 = (await media(page)).time;
    await page.getByTestId('sync-now').click();
    const b1 = (await media(page)).time;
    expect(await helper.getAttribute('data-phase')).toBe('done');
    await page.getByTestId('sync-result').waitFor();
    await page.getByTestId('sync-reset').click();
    expect(await helper.getAttribute('data-phase')).toBe('ready');
    await page.keyboard.press('Escape');
    await helper.waitFor({ state: 'hidden' });
    // the line came first by the time between the presses: lines now show that much later
    const value = Number((await page.getByTestId('lyric-offset').inputValue()).replace(/[^\d.-]/g, ''));
    expect(value).toBeGreaterThanOrEqual(b0 - a1 - 0.01);
    expect(value).toBeLessThanOrEqual(b1 - a0 + 0.01);
    expect(value).toBeGreaterThan(0.5);
  });

  it('loads another lyric file of the work chosen from the list', async () => {
    await playTrack();
    await openExpanded();
    await chooseSrt();
  });

  it('lets the admin edit the lines and save them as a .vtt file next to the audio', async () => {
    // the saved file becomes a lyric of the work: a library and a server of this test's own
    const { root } = makeLibrary();
    await playTrack(await app.ownServer({ scanned: root }));
    const file = path.join(root, WORK_DIR, `${TRACK}.vtt`);
    await openExpanded();
    await chooseSrt();
    await page.getByTestId('player-more').click();
    await page.getByTestId('lyric-edit-open').click();
    const editor = page.getByTestId('lyric-editor');
    await editor.waitFor();
    expect(await page.getByTestId('lyric-edit-path').inputValue()).toBe(`${TRACK}.vtt`);
    // a bad path is refused before anything is sent
    await page.getByTestId('lyric-edit-path').fill('notes.txt');
    await page.getByTestId('lyric-edit-save').click();
    await page.getByText('保存路径必须以 .vtt 结尾').first().waitFor();
    await page.getByTestId('lyric-edit-path').fill(`${TRACK}.vtt`);
    const row = page.getByTestId('lyric-edit-row').first();
    await row.getByRole('textbox', { name: '歌词' }).fill('改过的歌词');
    await page.getByTestId('lyric-edit-save').click();
    await page.getByText('歌词已保存').waitFor();
    await editor.waitFor({ state: 'hidden' });
    expect(existsSync(file)).toBe(true);
    const vtt = readFileSync(file, 'utf8');
    expect(vtt.startsWith('WEBVTT')).toBe(true);
    expect(vtt).toContain('00:00:00.500 --> 00:00:07.000\n改过的歌词');
    await seekTo(page, 2);
    await expect.poll(() => page.getByTestId('lyric-bar-text').textContent()).toBe('改过的歌词');
  });

  it('answers the desktop keyboard shortcuts', async () => {
    await playTrack();
    await page.evaluate(() => (globalThis as unknown as { document: { activeElement: { blur(): void } | null } }).document.activeElement?.blur());
    expect((await media(page)).paused).toBe(false);
    await page.keyboard.press('Space');
    await expect.poll(async () => (await media(page)).paused).toBe(true);
    await page.keyboard.press('Space');
    await expect.poll(async () => (await media(page)).paused).toBe(false);

    // ← rewinds by the shared seek time (5 s)
    await seekTo(page, 7);
    await page.keyboard.press('ArrowLeft');
    await expect.poll(async () => (await media(page)).time).toBeLessThan(3);

    // ↓/↑ change the volume by 0.04 and show it for a second
    const start = (await media(page)).volume;
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect.poll(async () => (await media(page)).volume).toBeCloseTo(start - 0.08, 5);
    await page.getByTestId('volume-indicator').waitFor();
    await page.keyboard.press('ArrowUp');
    await expect.poll(async () => (await media(page)).volume).toBeCloseTo(start - 0.04, 5);
    await page.getByTestId('volume-indicator').waitFor({ state: 'detached', timeout: 3000 });
    expect(errors).toEqual([]);
  });

  it('falls back to the AI lyric of the track when it has no lyric file', async () => {
    // the AI lyric is the whole server's: a server of this test's own
    const own = await app.ownServer({ scanned: app.libRoot });
    await playTrack(own);
    // an AI task for the track, taken and finished the way a worker does it
    const tracks = await own.api<{ title: string; hash?: string }[]>('GET', `/api/tracks/${WORK}`);
    const hash = tracks.find((t) => t.title === AI_TRACK)!.hash!;
    await own.api('PUT', `/api/lyric/translate/${hash}`);
    const held = await own.api<{ id: number; secret: string }>('POST', '/api/lyric/translate/acquire', { worker_name: 'e2e' });
    await own.api('POST', '/api/lyric/translate/finish', { id: held.id, secret: held.secret, success: true, lrc_content: '[00:00.50]AIが聞き取った歌詞\n' });

    await page.locator(`[data-testid="tree-item"][data-title="${AI_TRACK}"] button`).first().click();
    await expect.poll(() => page.getByTestId('player-bar-title').textContent()).toBe(AI_TRACK);
    await expect.poll(() => page.getByTestId('lyric-bar-text').textContent(), { timeout: 10_000 }).toBe('AIが聞き取った歌詞');
    await page.getByTestId('player-bar-open').click();
    expect(await page.getByTestId('lyric-select-open').textContent()).toContain(`AI · ${AI_TRACK}.lrc`);
    expect(errors).toEqual([]);
  });
});
