/**
 * Pure support modules of the web player: the Safari/iOS detection behind the one-time warnings, the
 * lyric editor's times and save path, the playback clock store, and the reload-proof local session.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { hasIosBackgroundBug, iosVersion, isIos, isMobileSafari } from '../../web/src/features/player/warnings.js';
import { checkWritePath, defaultWritePath, formatEditTime, linesToSave, parseEditTime } from '../../web/src/features/lyrics/lyric-edit.js';
import { createClock } from '../../web/src/features/player/clock.js';
import { restoreLocalSession, saveLocalSession } from '../../web/src/features/player/local-session.js';
import type { PlayerEngine } from '../../web/src/features/player/engine.js';
import { usePlayer, type QueueEntry } from '../../web/src/features/player/store.js';
import { getPref, resetPref, setPref } from '../../web/src/lib/prefs.js';

const IPHONE_17_3 = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_3 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.3 Mobile/15E148 Safari/604.1';
const IPHONE_16 = 'Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1';
const IPAD_DESKTOP_UA = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15';
const CHROME_LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/139.0 Safari/537.36';

describe('Safari and iOS detection for the one-time warnings', () => {
  it('recognises iPhones, iPads that claim to be Macs, and not desktops', () => {
    expect(isIos(IPHONE_16, 5)).toBe(true);
    expect(isIos(IPAD_DESKTOP_UA, 5)).toBe(true);
    expect(isIos(IPAD_DESKTOP_UA, 0)).toBe(false); // a real Mac has no touch points
    expect(isIos(CHROME_LINUX, 0)).toBe(false);
    expect(isMobileSafari(IPHONE_16)).toBe(true);
    expect(isMobileSafari(CHROME_LINUX)).toBe(false);
  });

  it('warns about background playback from iOS 17.3 on', () => {
    expect(iosVersion(IPHONE_17_3)).toEqual([17, 3]);
    expect(hasIosBackgroundBug(IPHONE_17_3, 5)).toBe(true);
    expect(hasIosBackgroundBug(IPHONE_16, 5)).toBe(false);
    expect(hasIosBackgroundBug(IPAD_DESKTOP_UA, 5)).toBe(true); // iPadOS 18
    expect(hasIosBackgroundBug(CHROME_LINUX, 0)).toBe(false);
    expect(hasIosBackgroundBug('Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15', 5)).toBe(false);
  });
});

describe('lyric editor helpers', () => {
  it('writes and reads line times', () => {
    expect(formatEditTime(0)).toBe('00:00.000');
    expect(formatEditTime(62_505)).toBe('01:02.505');
    expect(formatEditTime(75 * 60_000 + 2100)).toBe('75:02.100');
    expect(parseEditTime('01:02.5')).toBe(62_500);
    expect(parseEditTime('1:02,05')).toBe(62_050);
    expect(parseEditTime('1:01:02.123')).toBe(3_662_123);
    expect(parseEditTime(' 00:07 ')).toBe(7000);
    for (const bad of ['', '7', '1:60', 'a:bc', '01:02.1234', '-1:00']) expect(parseEditTime(bad)).toBeNull();
    expect(parseEditTime(formatEditTime(123_456))).toBe(123_456);
  });

  it('saves next to the audio by default and insists on .vtt', () => {
    expect(defaultWritePath({ subtitle: 'mp3/SE', title: 'a.mp3' })).toBe('mp3/SE/a.mp3.vtt');
    expect(defaultWritePath({ subtitle: 'mp3\\SE\\', title: 'a.mp3' })).toBe('mp3/SE/a.mp3.vtt');
    expect(defaultWritePath({ subtitle: null, title: 'a.mp3' })).toBe('a.mp3.vtt');
    expect(checkWritePath(' sub/a.VTT ')).toBe('sub/a.VTT');
    expect(checkWritePath('sub\\a.vtt')).toBe('sub/a.vtt');
    for (const bad of ['', '.vtt', 'a.lrc', 'a.vtt/', 'sub/.vtt']) expect(checkWritePath(bad)).toBeNull();
  });

  it('saves the lines that are not deleted, in time order, without editor state', () => {
    expect(
      linesToSave([
        { time: 3000, text: 'c' },
        { time: 1000, text: 'a', timeEnd: 1500, deleted: false },
        { time: 2000, text: 'gone', deleted: true },
      ]),
    ).toEqual([
      { time: 1000, text: 'a', timeEnd: 1500 },
      { time: 3000, text: 'c' },
    ]);
  });
});

describe('the playback clock', () => {
  it('tells subscribers about changes only', () => {
    const clock = createClock();
    let calls = 0;
    const off = clock.subscribe(() => calls++);
    clock.set({ currentTime: 1 });
    clock.set({ currentTime: 1 });
    clock.set({ duration: 30 });
    expect(calls).toBe(2);
    expect(clock.get()).toEqual({ currentTime: 1, duration: 30, buffered: 0 });
    off();
    clock.set({ currentTime: 2 });
    expect(calls).toBe(2);
  });
});

describe('the local player session (reload)', () => {
  const entry = (n: number): QueueEntry => ({ hash: `7/${n}`, title: `t${n}.mp3`, subtitle: null, workTitle: 'W', workId: 7 });
  const engineAt = (seconds: number) => ({ currentTime: seconds }) as unknown as PlayerEngine;

  beforeEach(() => {
    usePlayer.setState({ queue: [], index: 0, mode: 'order', playing: false, resumePoint: null });
    resetPref('playerSession');
  });

  it('stores queue, index, mode and second per user, and restores them paused at that second', () => {
    usePlayer.getState().playTracks([entry(0), entry(1)], 1);
    usePlayer.getState().setMode('shuffle');
    saveLocalSession(engineAt(42.123), 'alice');
    expect(getPref('playerSession')).toMatchObject({ user: 'alice', mode: 'shuffle', index: 1, seconds: 42.12 });

    usePlayer.getState().clear();
    usePlayer.getState().setMode('order');
    expect(restoreLocalSession('bob')).toBe(false); // someone else's session stays put
    expect(restoreLocalSession('alice')).toBe(true);
    expect(usePlayer.getState()).toMatchObject({ index: 1, mode: 'shuffle', playing: false, resumePoint: { hash: '7/1', seconds: 42.12 } });
    expect(restoreLocalSession('alice')).toBe(false); // only into an empty player
  });

  it('keeps the resume second while the restored track has not seeked yet, and forgets an empty queue', () => {
    usePlayer.getState().resume({ queue: [entry(0)], index: 0, seconds: 99 }, { play: false });
    saveLocalSession(engineAt(0), 'alice');
    expect(getPref('playerSession')).toMatchObject({ seconds: 99 });
    usePlayer.getState().clear();
    saveLocalSession(engineAt(0), 'alice');
    expect(getPref('playerSession')).toBeNull();
    saveLocalSession(engineAt(0), null); // nobody signed in: nothing stored
    expect(getPref('playerSession')).toBeNull();
  });

  it('ignores a stored session it cannot use', () => {
    setPref('playerSession', { user: 'alice', queue: [{ nope: 1 }], index: 0, seconds: 3 });
    expect(restoreLocalSession('alice')).toBe(false);
    setPref('playerSession', { user: 'alice', queue: [entry(0)], index: 0, seconds: 3, mode: 'bogus' });
    expect(restoreLocalSession('alice')).toBe(true);
    expect(usePlayer.getState().mode).toBe('order');
  });
});
