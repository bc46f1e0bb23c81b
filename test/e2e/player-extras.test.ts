/**
 * End to end: picture-in-picture lyrics (prompt, play state both ways, closing turns the option off),
 * the equalizer/visualizer side of the cover, the playback speed remembered per user, and the Media
 * Session metadata, against the built `kikoplay serve` and a scanned work of generated WAV tracks with a
 * cover and a lyric file.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { tempDir } from '../helpers/app.js';
import { servedApp } from '../helpers/e2e.js';
import { playFromTree, RAIN_TRACKS, RAIN_WORK, writeRainWork } from '../helpers/playing.js';

// one scanned work for the file; each test plays it as a user of its own in a fresh page
const app = servedApp({
  async library() {
    const root = tempDir('kikoplay-extras-');
    await writeRainWork(root, 60);
    return { root };
  },
});

interface MediaLike {
  currentTime: number;
  paused: boolean;
  getAttribute(name: string): string | null;
}

async function media(page: Page): Promise<{ time: number; paused: boolean } | null> {
  return page.evaluate(() => {
    const doc = (globalThis as unknown as { document: { querySelectorAll(sel: string): ArrayLike<MediaLike> } }).document;
    const el = Array.from(doc.querySelectorAll('audio, video')).find((e) => e.getAttribute('src'));
    return el ? { time: el.currentTime, paused: el.paused } : null;
  });
}

describe('picture-in-picture lyrics, the equalizer, speed, the media session and the lyric bar', () => {
  let page: Page;
  let errors: string[];

  interface PipDoc {
    document: {
      pictureInPictureElement: { paused: boolean; play(): Promise<void> } | null;
      exitPictureInPicture(): Promise<void>;
    };
    navigator: { mediaSession: { metadata: { title: string; artist: string } | null; playbackState: string } };
  }
  const pip = (p: Page) =>
    p.evaluate(() => {
      const el = (globalThis as unknown as PipDoc).document.pictureInPictureElement;
      return el ? { paused: el.paused } : null;
    });

  beforeEach(async () => {
    ({ page, errors } = await app.open({ as: await app.addUser('user', 'listener') }));
    await playFromTree(page, RAIN_WORK, RAIN_TRACKS[0]);
  });

  it('tells the media session what plays', async () => {
    const session = await page.evaluate(() => {
      const m = (globalThis as unknown as PipDoc).navigator.mediaSession;
      return { title: m.metadata?.title, artist: m.metadata?.artist, state: m.playbackState };
    });
    expect(session).toEqual({ title: RAIN_TRACKS[0], artist: '雨の日のささやき', state: 'playing' });
  });

  it('opens the lyrics in a PIP window after asking, syncs play state both ways, and turns off when closed', async () => {
    await page.getByTestId('lyric-bar-text').waitFor();
    await page.getByTestId('player-bar-open').click();
    await page.getByTestId('player-more').click();
    await page.getByTestId('pref-pipLyrics').click();
    await page.getByText('桌面歌词', { exact: true }).waitFor(); // the prompt
    await page.getByRole('button', { name: '打开', exact: true }).click();
    await expect.poll(() => pip(page)).toEqual({ paused: false });
    expect(await page.getByTestId('lyric-bar').count()).toBe(0); // the page's own lyric bar steps aside

    // the player pauses → the PIP window shows paused; the PIP window plays → the player plays
    await page.keyboard.press('Escape'); // back to the page
    await page.getByTestId('expanded-player').waitFor({ state: 'hidden' });
    await page.getByTestId('player-toggle').first().click();
    await expect.poll(() => pip(page)).toEqual({ paused: true });
    await page.evaluate(() => (globalThis as unknown as PipDoc).document.pictureInPictureElement!.play());
    await expect.poll(async () => (await media(page))!.paused).toBe(false);

    // closing the window turns the option off and brings the lyric bar back
    await page.evaluate(() => (globalThis as unknown as PipDoc).document.exitPictureInPicture());
    await expect.poll(() => pip(page)).toBeNull();
    await page.getByTestId('lyric-bar').waitFor();
    await page.getByTestId('player-bar-open').click();
    await page.getByTestId('player-more').click();
    await expect.poll(() => page.getByTestId('pref-pipLyrics').isChecked()).toBe(false);
    await page.keyboard.press('Escape'); // the menu
    await page.getByTestId('player-collapse').click();
    await page.getByTestId('expanded-player').waitFor({ state: 'hidden' });
  });

  it('flips the cover to the equalizer and visualizer while playback goes on', async () => {
    await page.getByTestId('player-bar-open').click();
    await page.getByTestId('cover-flip').click();
    await expect.poll(() => page.getByTestId('cover-flip').getAttribute('data-flipped')).toBe('true');
    await page.getByTestId('visualizer').first().waitFor();
    await page.getByTestId('eq-swap').click();
    const t0 = (await media(page))!.time;
    await expect.poll(async () => (await media(page))!.time).toBeGreaterThan(t0 + 0.3);
    await page.getByTestId('cover-flip-back').click();
    await expect.poll(() => page.getByTestId('cover-flip').getAttribute('data-flipped')).toBeNull();
  });

  it('remembers the playback speed for the user across a reload', async () => {
    await page.getByTestId('player-bar-open').click();
    await page.getByTestId('player-speed').click();
    await page.getByRole('menuitem', { name: '1.5×' }).click();
    const rate = () => page.evaluate(() => (globalThis as unknown as { document: { querySelector(s: string): { playbackRate: number } | null } }).document.querySelector('audio')!.playbackRate);
    await expect.poll(rate).toBe(1.5);
    await page.reload();
    await page.getByTestId('player-bar').waitFor();
    await expect.poll(rate).toBe(1.5);
    await page.getByTestId('player-bar-open').click();
    expect(await page.getByTestId('player-speed').textContent()).toBe('1.5×');
    await page.getByTestId('player-speed').click();
    await page.getByRole('menuitem', { name: '1×', exact: true }).click();
    await expect.poll(rate).toBe(1);
    expect(errors).toEqual([]);
  });

  it('drags the lyric bar anywhere, remembers the place, and sizes its text from the settings', async () => {
    const bar = page.getByTestId('lyric-bar');
    await bar.waitFor();
    const box = (await bar.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 - 300, box.y + box.height / 2 - 400, { steps: 8 });
    await page.mouse.up();
    const stored = async () =>
      JSON.parse((await page.evaluate(() => (globalThis as unknown as { localStorage: { getItem(k: string): string | null } }).localStorage.getItem('kikoplay.lyricBar')))!) as {
        show: boolean;
        x: number;
        y: number;
      };
    await expect.poll(async () => (await stored()).y).toBeLessThan(0.4);
    expect((await stored()).x).toBeLessThan(0.4);
    const moved = (await bar.boundingBox())!;
    expect(moved.y).toBeLessThan(box.y - 300);

    // the font size slider (0.2–10 rem) resizes the bar's text
    const fontSize = () => bar.evaluate((el) => Number.parseFloat((el as unknown as { style: { fontSize: string } }).style.fontSize));
    expect(await fontSize()).toBe(1.5);
    await page.getByTestId('player-bar-open').click();
    await page.getByTestId('player-more').click();
    await page.getByTestId('lyric-font-size').getByRole('slider').focus();
    await page.keyboard.press('End');
    await page.keyboard.press('Escape');
    await page.getByTestId('player-collapse').click();
    await expect.poll(fontSize).toBe(10);
  });
});
