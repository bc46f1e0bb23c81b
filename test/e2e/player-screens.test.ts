/**
 * Screenshots of the web player at 375 and 1280 px, light and dark (bottom bar with the lyric bar,
 * expanded player, queue, more settings, sleep timer, full-screen player), saved as test artifacts
 * under test-results/screenshots/player-*.png, against the built `kikoplay serve` and a scanned work of
 * generated WAV tracks with a cover and a lyric file.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot, VIEWPORTS } from '../helpers/browser.js';
import { tempDir } from '../helpers/app.js';
import { servedApp } from '../helpers/e2e.js';
import { synthWav } from '../../server/library/demo-library.js';
import { coverJpeg } from '../helpers/scanned-app.js';

const AUDIO_WORK = 100005;
const TRACKS = ['01 雨の音.wav', '02 おやすみ.wav'];

// one scanned work for the file; each picture is taken by a user of its own in a fresh page
const app = servedApp({
  async library() {
    const root = tempDir('kikoplay-screens-');
    const audio = path.join(root, `RJ${AUDIO_WORK} 雨の日のささやき`);
    mkdirSync(audio, { recursive: true });
    TRACKS.forEach((name, i) => writeFileSync(path.join(audio, name), synthWav([[392 + 98 * i, 20]], 0.2)));
    writeFileSync(path.join(audio, '01 雨の音.lrc'), '[00:00.00]雨の音が聞こえる\n[00:05.00]ゆっくり休んでね\n');
    writeFileSync(path.join(audio, 'cover.jpg'), await coverJpeg());
    return { root };
  },
});

interface MediaLike {
  currentTime: number;
  getAttribute(name: string): string | null;
}

const playingTime = (page: Page) =>
  page.evaluate(() => {
    const doc = (globalThis as unknown as { document: { querySelectorAll(sel: string): ArrayLike<MediaLike> } }).document;
    return Array.from(doc.querySelectorAll('audio, video')).find((e) => e.getAttribute('src'))?.currentTime ?? 0;
  });

async function play(page: Page, work: number, title: string): Promise<void> {
  await page.goto(`/work/${work}`);
  await page.getByTestId('file-tree').waitFor();
  await page.locator(`[data-testid="tree-item"][data-title="${title}"] button`).first().click();
  await page.getByTestId('player-bar').waitFor();
  await expect.poll(() => playingTime(page), { timeout: 10_000 }).toBeGreaterThan(0.2);
}

describe('screenshots', () => {
  const variants = [
    { viewport: VIEWPORTS.desktop, scheme: 'light' as const },
    { viewport: VIEWPORTS.desktop, scheme: 'dark' as const },
    { viewport: VIEWPORTS.phone, scheme: 'light' as const },
    { viewport: VIEWPORTS.phone, scheme: 'dark' as const },
  ];

  async function shoot({ viewport, scheme }: (typeof variants)[number]): Promise<string[]> {
    const { page, errors } = await app.open({ as: await app.addUser('user', 'listener'), viewport, colorScheme: scheme });
    const name = (what: string) => `player-${what}-${viewport.width}-${scheme}`;
    await play(page, AUDIO_WORK, TRACKS[0]);
    await page.getByTestId('lyric-bar-text').waitFor();
    await screenshot(page, name('bar'), page.getByTestId('player-bar'));
    await page.getByTestId('player-bar-open').click();
    await page.getByTestId('expanded-player').waitFor();
    await screenshot(page, name('expanded'), page.getByTestId('expanded-title'));
    await page.getByTestId('queue-open').click();
    await page.getByTestId('queue-list').waitFor();
    await screenshot(page, name('queue'), page.getByTestId('queue-list'));
    await page.keyboard.press('Escape');
    await page.getByTestId('queue-list').waitFor({ state: 'detached' });
    await page.getByTestId('player-more').click();
    await page.getByTestId('player-more-panel').waitFor();
    await screenshot(page, name('more'), page.getByTestId('pref-lyricBar'));
    await page.getByRole('button', { name: '睡眠模式' }).last().click();
    await page.getByTestId('sleep-dialog').waitFor();
    await screenshot(page, name('sleep'), page.getByTestId('sleep-mode'));
    await page.keyboard.press('Escape');
    await page.getByTestId('sleep-dialog').waitFor({ state: 'hidden' });
    await page.getByTestId('fullscreen-link').last().click(); // the expanded player's link
    await page.getByTestId('fullscreen-player').waitFor();
    await page
      .getByTestId('fullscreen-lyric')
      .filter({ hasText: /雨|ゆっくり/ })
      .waitFor();
    await screenshot(page, name('fullscreen'), page.getByTestId('fullscreen-lyric'));
    return errors;
  }

  for (const variant of variants) {
    it(`of the player at ${variant.viewport.width} px, ${variant.scheme}`, async () => {
      expect(await shoot(variant)).toEqual([]);
    });
  }
});
