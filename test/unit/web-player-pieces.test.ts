/**
 * Pure pieces of the web player: queue entries and saved play states, the bar gestures, the keyboard
 * map, time formatting and the player store's resume / end-of-track actions.
 */
import { describe, expect, it } from 'vitest';
import { entryMediaPath, entryPath, isVideoEntry, normalizeEntry, parsePlayState, toPlayState, workIdOfHash } from '../../web/src/features/player/queue-entry.js';
import { dragSeconds, dragTarget, endGesture, holdGesture, IDLE, moveGesture, startGesture } from '../../web/src/features/player/bar-gesture.js';
import { commandForKey, stepVolume, VOLUME_STEP, type KeyPress } from '../../web/src/features/player/keyboard.js';
import { formatTime } from '../../web/src/i18n/format.js';
import { usePlayer, type QueueEntry } from '../../web/src/features/player/store.js';

const entry = (n: number, workId = 123456): QueueEntry => ({ hash: `${workId}/${n}`, title: `track${n}.mp3`, subtitle: null, workTitle: 'W', workId });

describe('queue entries', () => {
  it('reads the work id from a hash', () => {
    expect(workIdOfHash('123456/7')).toBe(123456);
    expect(workIdOfHash('1000000123456/0')).toBe(1000000123456);
    for (const bad of ['', '123456', '/7', 'a/1', '1/2/3', '12/x']) expect(workIdOfHash(bad)).toBeNull();
  });

  it('accepts anchor tree nodes and our own entries, dropping unknown fields', () => {
    const node = { type: 'audio', hash: '123456/3', title: 'a.mp3', workTitle: 'Work', mediaStreamUrl: '/api/media/stream/123456/3', duration: 12.5, status: 3, tasks: [] };
    expect(normalizeEntry(node)).toEqual({ hash: '123456/3', title: 'a.mp3', subtitle: null, workTitle: 'Work', workId: 123456, mediaStreamUrl: '/api/media/stream/123456/3', duration: 12.5 });
    expect(normalizeEntry({ ...entry(1), subtitle: 'mp3/SE' })).toMatchObject({ subtitle: 'mp3/SE', workId: 123456 });
    for (const bad of [null, 1, 'x', [], { title: 'a' }, { hash: '1/2' }, { hash: 'x', title: 'a' }, { hash: '1/2', title: '' }]) expect(normalizeEntry(bad)).toBeNull();
  });

  it('parses a saved play state, following the current entry when bad ones are dropped', () => {
    const good = [entry(0), entry(1), entry(2)];
    expect(parsePlayState({ queue: good, index: 2, seconds: 42.5 })).toEqual({ queue: good, index: 2, seconds: 42.5 });
    expect(parsePlayState({ queue: [entry(0), { bad: true }, entry(2)], index: 2, seconds: 9 })).toEqual({ queue: [entry(0), entry(2)], index: 1, seconds: 9 });
    // the current entry itself is unusable: start over at the first, from 0 s
    expect(parsePlayState({ queue: [entry(0), { bad: true }], index: 1, seconds: 9 })).toEqual({ queue: [entry(0)], index: 0, seconds: 0 });
    // index out of range or not a number → the first entry, from 0 s
    expect(parsePlayState({ queue: good, index: 7, seconds: 3 })).toMatchObject({ index: 0, seconds: 0 });
    expect(parsePlayState({ queue: good, index: '1', seconds: 3 })).toMatchObject({ index: 0, seconds: 3 });
    expect(parsePlayState({ queue: good, index: 1, seconds: -4 })).toMatchObject({ index: 1, seconds: 0 });
    for (const bad of [null, {}, { queue: 'x' }, { queue: [] }, { queue: [{}] }]) expect(parsePlayState(bad)).toBeNull();
  });

  it('knows paths, video entries and media URLs', () => {
    expect(entryPath({ subtitle: null, title: 'a.mp3' })).toBe('a.mp3');
    expect(entryPath({ subtitle: 'mp3\\SE', title: 'a.mp3' })).toBe('mp3/SE/a.mp3');
    expect(isVideoEntry({ title: 'movie.MP4' })).toBe(true);
    expect(isVideoEntry({ title: 'a.mp3' })).toBe(false);
    expect(entryMediaPath({ hash: '1/2' })).toBe('/api/media/stream/1/2');
    expect(entryMediaPath({ hash: '1/2', mediaStreamUrl: '/media/stream/lib/a.mp3' })).toBe('/media/stream/lib/a.mp3');
  });

  it('saves seconds with two decimals and never below 0', () => {
    expect(toPlayState([entry(0)], 0, 12.3456).seconds).toBe(12.35);
    expect(toPlayState([entry(0)], 0, -1).seconds).toBe(0);
  });
});

describe('bar gestures (15 px vertical, 10 px horizontal, 500 ms hold)', () => {
  const at = startGesture(100, 100, 0);

  it('a short press without movement is a tap', () => {
    expect(endGesture(moveGesture(at, 104, 96, 100))).toEqual({ action: 'tap' });
    expect(endGesture(IDLE)).toEqual({ action: 'none' });
  });

  it('up shows the player, down hides the bar', () => {
    expect(moveGesture(at, 100, 86, 50).phase).toBe('pressed'); // 14 px: not yet
    expect(moveGesture(at, 100, 85, 50).phase).toBe('up');
    expect(endGesture(moveGesture(at, 103, 80, 50))).toEqual({ action: 'open' });
    expect(endGesture(moveGesture(at, 97, 120, 50))).toEqual({ action: 'hide' });
  });

  it('sideways seeks by dragging; the direction stays once chosen', () => {
    expect(moveGesture(at, 109, 100, 50).phase).toBe('pressed');
    const h = moveGesture(at, 110, 100, 50);
    expect(h.phase).toBe('horizontal');
    const later = moveGesture(h, 160, 160, 80); // moving down afterwards does not turn it into "down"
    expect(later.phase).toBe('horizontal');
    expect(endGesture(later)).toEqual({ action: 'seek', dx: 60 });
  });

  it('holding still for 500 ms enters horizontal', () => {
    expect(holdGesture(at, 499).phase).toBe('pressed');
    expect(holdGesture(at, 500).phase).toBe('horizontal');
    expect(moveGesture(at, 102, 101, 500).phase).toBe('horizontal');
    expect(holdGesture(moveGesture(at, 100, 70, 50), 600).phase).toBe('up'); // a swipe stays a swipe
    expect(endGesture(holdGesture(at, 800))).toEqual({ action: 'seek', dx: 0 });
  });

  it('maps drag distance to seconds: the bar spans the track, at most 3 minutes', () => {
    expect(dragSeconds(100, 400, 60)).toBe(15);
    expect(dragSeconds(200, 400, 3600)).toBe(90);
    expect(dragSeconds(50, 0, 60)).toBe(0);
    expect(dragTarget(10, -400, 400, 60)).toBe(0);
    expect(dragTarget(50, 400, 400, 60)).toBe(60);
  });
});

describe('keyboard shortcuts', () => {
  const press = (key: string, extra: Partial<KeyPress> = {}): KeyPress => ({ key, shiftKey: false, ctrlKey: false, metaKey: false, altKey: false, editable: false, ...extra });

  it('maps keys to player commands', () => {
    expect(commandForKey(press(' '))).toEqual({ type: 'toggle' });
    expect(commandForKey(press('K'))).toEqual({ type: 'toggle' });
    expect(commandForKey(press('ArrowLeft'))).toEqual({ type: 'seek', direction: -1 });
    expect(commandForKey(press('ArrowRight'))).toEqual({ type: 'seek', direction: 1 });
    expect(commandForKey(press('ArrowUp'))).toEqual({ type: 'volume', delta: 0.04 });
    expect(commandForKey(press('ArrowDown'))).toEqual({ type: 'volume', delta: -0.04 });
    expect(commandForKey(press('ArrowRight', { shiftKey: true }))).toEqual({ type: 'next' });
    expect(commandForKey(press('ArrowLeft', { shiftKey: true }))).toEqual({ type: 'previous' });
    expect(commandForKey(press('n'))).toEqual({ type: 'next' });
    expect(commandForKey(press('p'))).toEqual({ type: 'previous' });
  });

  it('leaves fields, modifier chords, auto-repeated toggles and other keys alone', () => {
    expect(commandForKey(press(' ', { editable: true }))).toBeNull();
    expect(commandForKey(press('ArrowLeft', { ctrlKey: true }))).toBeNull();
    expect(commandForKey(press('k', { metaKey: true }))).toBeNull();
    expect(commandForKey(press('ArrowUp', { altKey: true }))).toBeNull();
    expect(commandForKey(press(' ', { repeat: true }))).toBeNull();
    expect(commandForKey(press('ArrowUp', { repeat: true }))).toEqual({ type: 'volume', delta: VOLUME_STEP });
    expect(commandForKey(press('x'))).toBeNull();
    expect(commandForKey(press('Enter'))).toBeNull();
  });

  it('steps the volume by 0.04 within 0..1 without float dust', () => {
    let v = 0;
    for (let i = 0; i < 25; i++) v = stepVolume(v, VOLUME_STEP);
    expect(v).toBe(1);
    expect(stepVolume(1, VOLUME_STEP)).toBe(1);
    expect(stepVolume(0.02, -VOLUME_STEP)).toBe(0);
    expect(stepVolume(0.5, -VOLUME_STEP)).toBe(0.46);
  });
});

describe('time formatting', () => {
  it('shows m:ss, h:mm:ss from an hour, 0:00 for unknown', () => {
    expect(formatTime(0)).toBe('0:00');
    expect(formatTime(61.9)).toBe('1:01');
    expect(formatTime(3600 + 62)).toBe('1:01:02');
    expect(formatTime(Number.NaN)).toBe('0:00');
    expect(formatTime(-5)).toBe('0:00');
  });
});

describe('player store: resume and track end', () => {
  const reset = () => usePlayer.setState({ queue: [], index: 0, mode: 'order', playing: false, resumePoint: null });

  it('resumes a saved state at its second, playing or paused', () => {
    reset();
    const ok = usePlayer.getState().resumeHistory({ queue: [entry(0), entry(1)], index: 1, seconds: 33 });
    expect(ok).toBe(true);
    expect(usePlayer.getState()).toMatchObject({ index: 1, playing: true, resumePoint: { hash: '123456/1', seconds: 33 } });
    usePlayer.getState().resumeHistory({ queue: [entry(0)], index: 0, seconds: 0 }, { play: false });
    expect(usePlayer.getState()).toMatchObject({ index: 0, playing: false, resumePoint: null });
    expect(usePlayer.getState().resumeHistory({ queue: [] })).toBe(false);
    expect(usePlayer.getState().queue).toHaveLength(1); // nothing playable: unchanged
    usePlayer.getState().clearResume();
  });

  it('applies the play mode when a track ends and tells the engine what to do', () => {
    reset();
    const p = () => usePlayer.getState();
    p().playTracks([entry(0), entry(1)], 0);
    expect(p().trackEnded()).toBe('advance');
    expect(p().index).toBe(1);
    expect(p().trackEnded()).toBe('stop'); // order: pause at the last
    expect(p().playing).toBe(false);
    p().setMode('allRepeat');
    expect(p().trackEnded()).toBe('advance');
    expect(p()).toMatchObject({ index: 0, playing: true });
    p().setMode('repeatOnce');
    expect(p().trackEnded()).toBe('restart');
    expect(p().index).toBe(0);
    p().setMode('shuffle');
    expect(p().trackEnded(() => 0.99)).toBe('advance');
    expect(p().index).toBe(1);
    expect(p().trackEnded(() => 0.99)).toBe('restart'); // drew the same track
    p().clear();
    expect(p().trackEnded()).toBe('stop');
  });
});
