/**
 * Playing in the browser tests: the rain work of the player tests (a scanned work of two generated WAV
 * tracks, an LRC file for the first and a cover), the playing element's time, and starting a track from
 * its work page.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { coverJpeg } from './scanned-app.js';
import { synthWav } from '../../server/library/demo-library.js';

export const RAIN_WORK = 100005;
export const RAIN_TRACKS = ['01 雨の音.wav', '02 おやすみ.wav'];

/** Write the rain work into the library `root`: its tracks last `seconds` each. */
export async function writeRainWork(root: string, seconds: number): Promise<void> {
  const audio = path.join(root, `RJ${RAIN_WORK} 雨の日のささやき`);
  mkdirSync(audio, { recursive: true });
  RAIN_TRACKS.forEach((name, i) => writeFileSync(path.join(audio, name), synthWav([[392 + 98 * i, seconds]], 0.2)));
  writeFileSync(path.join(audio, '01 雨の音.lrc'), '[00:00.00]雨の音が聞こえる\n[00:05.00]ゆっくり休んでね\n');
  writeFileSync(path.join(audio, 'cover.jpg'), await coverJpeg());
}

interface MediaLike {
  currentTime: number;
  getAttribute(name: string): string | null;
}

/** The time of the player's media element with a source (0: none). */
export const playingTime = (page: Page): Promise<number> =>
  page.evaluate(() => {
    const doc = (globalThis as unknown as { document: { querySelectorAll(sel: string): ArrayLike<MediaLike> } }).document;
    return Array.from(doc.querySelectorAll('audio, video')).find((e) => e.getAttribute('src'))?.currentTime ?? 0;
  });

/** Open the work page of `work`, play the track titled `title` from its tree, and wait until it plays. */
export async function playFromTree(page: Page, work: number, title: string): Promise<void> {
  await page.goto(`/work/${work}`);
  await page.getByTestId('file-tree').waitFor();
  await page.locator(`[data-testid="tree-item"][data-title="${title}"] button`).first().click();
  await page.getByTestId('player-bar').waitFor();
  await expect.poll(() => playingTime(page), { timeout: 10_000 }).toBeGreaterThan(0.2);
}
