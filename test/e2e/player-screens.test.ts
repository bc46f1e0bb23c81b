/**
 * Screenshots of the web player at 375 and 1280 px, light and dark (bottom bar with the lyric bar,
 * expanded player, queue, more settings, sleep timer, full-screen player), saved as test artifacts
 * under test-results/screenshots/player-*.png, against the built `kikoplay serve` and a scanned work of
 * generated WAV tracks with a cover and a lyric file.
 */
import { describe, expect, it } from 'vitest';
import { screenshot, VIEWPORTS } from '../helpers/browser.js';
import { tempDir } from '../helpers/app.js';
import { servedApp } from '../helpers/e2e.js';
import { playFromTree, RAIN_TRACKS, RAIN_WORK, writeRainWork } from '../helpers/playing.js';

// one scanned work for the file; each picture is taken by a user of its own in a fresh page
const app = servedApp({
  async library() {
    const root = tempDir('kikoplay-screens-');
    await writeRainWork(root, 20);
    return { root };
  },
});

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
    await playFromTree(page, RAIN_WORK, RAIN_TRACKS[0]);
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
