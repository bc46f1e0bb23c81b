import { describe, expect, it } from 'vitest';
import {
  clearQueue,
  currentEntry,
  cyclePlayMode,
  enqueue,
  enqueueNext,
  initialPlayerState,
  moveEntry,
  nextPlayMode,
  nextTrack,
  onTrackEnd,
  PLAY_MODES,
  playQueue,
  previousTrack,
  removeAt,
  setPlaying,
  setPlayMode,
  setTrack,
  togglePlaying,
  type PlayerState,
  type PlayMode,
} from '../../server/domain/player-queue.js';

type S = PlayerState<string>;

/** A frozen state: any mutation by the functions under test throws. */
function state(queue: string[], index = 0, mode: PlayMode = 'order', playing = true): S {
  return Object.freeze({ queue: Object.freeze([...queue]), index, mode, playing });
}

const ABCD = ['a', 'b', 'c', 'd'];

describe('play modes', () => {
  it('cycle order → all repeat → repeat once → shuffle → order', () => {
    expect(PLAY_MODES).toEqual(['order', 'allRepeat', 'repeatOnce', 'shuffle']);
    const seen: PlayMode[] = [];
    let s = state(ABCD);
    for (let i = 0; i < 5; i++) {
      seen.push(s.mode);
      s = cyclePlayMode(s);
    }
    expect(seen).toEqual(['order', 'allRepeat', 'repeatOnce', 'shuffle', 'order']);
    expect(nextPlayMode('shuffle')).toBe('order');
  });

  it('setPlayMode changes the mode and ignores unknown or unchanged ones', () => {
    const s = state(ABCD);
    expect(setPlayMode(s, 'shuffle').mode).toBe('shuffle');
    expect(setPlayMode(s, 'order')).toBe(s);
    expect(setPlayMode(s, 'bogus' as PlayMode)).toBe(s);
  });
});

describe('end of track', () => {
  it.each<[string, PlayMode, number, number | null, { index: number; playing: boolean; effect: string }]>([
    ['order: next track', 'order', 1, null, { index: 2, playing: true, effect: 'advance' }],
    ['order: pauses at the last track', 'order', 3, null, { index: 3, playing: false, effect: 'stop' }],
    ['all repeat: next track', 'allRepeat', 1, null, { index: 2, playing: true, effect: 'advance' }],
    ['all repeat: wraps to the first', 'allRepeat', 3, null, { index: 0, playing: true, effect: 'advance' }],
    ['repeat once: restarts the track', 'repeatOnce', 2, null, { index: 2, playing: true, effect: 'restart' }],
    ['repeat once at the last track', 'repeatOnce', 3, null, { index: 3, playing: true, effect: 'restart' }],
    ['shuffle: a random track', 'shuffle', 0, 0.6, { index: 2, playing: true, effect: 'advance' }],
    ['shuffle: the lowest draw', 'shuffle', 3, 0, { index: 0, playing: true, effect: 'advance' }],
    ['shuffle: the highest draw', 'shuffle', 0, 0.9999, { index: 3, playing: true, effect: 'advance' }],
    ['shuffle: same index restarts', 'shuffle', 1, 0.25, { index: 1, playing: true, effect: 'restart' }],
    ['shuffle: a broken source (1.0) stays in range', 'shuffle', 0, 1, { index: 3, playing: true, effect: 'advance' }],
  ])('%s', (_name, mode, index, draw, want) => {
    const random = () => {
      if (draw === null) throw new Error('random must not be used outside shuffle');
      return draw;
    };
    const out = onTrackEnd(state(ABCD, index, mode), random);
    expect({ index: out.state.index, playing: out.state.playing, effect: out.effect }).toEqual(want);
    expect(out.state.queue).toEqual(ABCD);
  });

  it('all repeat on a single track restarts it', () => {
    expect(onTrackEnd(state(['a'], 0, 'allRepeat')).effect).toBe('restart');
  });

  it('an empty queue stops', () => {
    expect(onTrackEnd(state([], 0, 'allRepeat', true))).toEqual({ state: { queue: [], index: 0, mode: 'allRepeat', playing: false }, effect: 'stop' });
  });

  it('uses Math.random by default and always lands in range', () => {
    for (let i = 0; i < 50; i++) {
      const { state: s } = onTrackEnd(state(ABCD, 0, 'shuffle'));
      expect(s.index).toBeGreaterThanOrEqual(0);
      expect(s.index).toBeLessThan(4);
    }
  });
});

describe('selecting tracks', () => {
  it('setTrack selects and plays an index in range', () => {
    const s = setTrack(state(ABCD, 0, 'order', false), 2);
    expect(s).toMatchObject({ index: 2, playing: true });
    expect(currentEntry(s)).toBe('c');
  });

  it.each([-1, 4, 1.5, Number.NaN])('setTrack(%s) out of range is ignored', (i) => {
    const s = state(ABCD, 1);
    expect(setTrack(s, i)).toBe(s);
  });

  it('next and previous move within bounds only', () => {
    expect(nextTrack(state(ABCD, 1)).index).toBe(2);
    expect(previousTrack(state(ABCD, 1)).index).toBe(0);
    const last = state(ABCD, 3);
    expect(nextTrack(last)).toBe(last);
    const first = state(ABCD, 0);
    expect(previousTrack(first)).toBe(first);
    const empty = state([]);
    expect(nextTrack(empty)).toBe(empty);
    expect(previousTrack(empty)).toBe(empty);
  });

  it('playQueue replaces the queue and plays; an out-of-range index is ignored', () => {
    const s = state(['x'], 0, 'shuffle', false);
    expect(playQueue(s, ABCD, 2)).toEqual({ queue: ABCD, index: 2, mode: 'shuffle', playing: true });
    expect(playQueue(s, ABCD, 4)).toBe(s);
    expect(playQueue(s, [], 0)).toMatchObject({ queue: [], index: 0, playing: false });
  });

  it('play/pause needs a queue', () => {
    expect(setPlaying(state(ABCD, 0, 'order', false), true).playing).toBe(true);
    const empty = state([], 0, 'order', false);
    expect(setPlaying(empty, true)).toBe(empty);
    expect(togglePlaying(state(ABCD)).playing).toBe(false);
  });
});

describe('editing the queue', () => {
  it('removing the current entry stops playback and selects index 0', () => {
    expect(removeAt(state(ABCD, 2), 2)).toEqual({ queue: ['a', 'b', 'd'], index: 0, mode: 'order', playing: false });
  });

  it('removing an earlier entry keeps the current track (index − 1)', () => {
    const s = removeAt(state(ABCD, 2), 0);
    expect(s).toMatchObject({ queue: ['b', 'c', 'd'], index: 1, playing: true });
    expect(currentEntry(s)).toBe('c');
  });

  it('removing a later entry changes nothing else', () => {
    expect(removeAt(state(ABCD, 1), 3)).toMatchObject({ queue: ['a', 'b', 'c'], index: 1, playing: true });
  });

  it('removing the only entry leaves an empty, stopped queue', () => {
    expect(removeAt(state(['a']), 0)).toMatchObject({ queue: [], index: 0, playing: false });
  });

  it.each([-1, 4])('removeAt(%s) out of range is ignored', (i) => {
    const s = state(ABCD, 1);
    expect(removeAt(s, i)).toBe(s);
  });

  it.each([
    ['current moved down', 1, 3, ['a', 'c', 'd', 'b'], 3],
    ['current moved up', 1, 0, ['b', 'a', 'c', 'd'], 0],
    ['earlier moved past current', 0, 2, ['b', 'c', 'a', 'd'], 0],
    ['later moved before current', 3, 0, ['d', 'a', 'b', 'c'], 2],
    ['later moved onto current position', 3, 1, ['a', 'd', 'b', 'c'], 2],
    ['earlier moved onto current position', 0, 1, ['b', 'a', 'c', 'd'], 0],
    ['unrelated entries swapped', 2, 3, ['a', 'b', 'd', 'c'], 1],
  ])('reorder keeps the current track: %s', (_name, from, to, queue, index) => {
    const s = moveEntry(state(ABCD, 1), from, to);
    expect(s.queue).toEqual(queue);
    expect(s.index).toBe(index);
    expect(currentEntry(s)).toBe('b');
  });

  it('reorder out of range or onto itself is ignored', () => {
    const s = state(ABCD, 1);
    expect(moveEntry(s, 0, 4)).toBe(s);
    expect(moveEntry(s, -1, 0)).toBe(s);
    expect(moveEntry(s, 2, 2)).toBe(s);
  });

  it('clear stops playback', () => {
    expect(clearQueue(state(ABCD, 2, 'shuffle'))).toEqual({ queue: [], index: 0, mode: 'shuffle', playing: false });
    const empty = initialPlayerState<string>();
    expect(clearQueue(empty)).toBe(empty);
  });

  it('enqueue appends; into an empty queue it selects the first entry without playing', () => {
    expect(enqueue(state(['a'], 0), ['b', 'c'])).toMatchObject({ queue: ['a', 'b', 'c'], index: 0 });
    expect(enqueue(initialPlayerState<string>(), ['x'])).toEqual({ queue: ['x'], index: 0, mode: 'order', playing: false });
    const s = state(['a']);
    expect(enqueue(s, [])).toBe(s);
  });

  it('enqueueNext inserts right after the current entry', () => {
    expect(enqueueNext(state(ABCD, 1), ['x', 'y'])).toMatchObject({ queue: ['a', 'b', 'x', 'y', 'c', 'd'], index: 1 });
    expect(enqueueNext(initialPlayerState<string>(), ['x']).queue).toEqual(['x']);
  });

  it('never mutates the input state', () => {
    const s = state(ABCD, 1);
    removeAt(s, 0);
    moveEntry(s, 0, 3);
    enqueue(s, ['x']);
    enqueueNext(s, ['y']);
    clearQueue(s);
    expect(s).toEqual({ queue: ABCD, index: 1, mode: 'order', playing: true });
  });
});

describe('initial state', () => {
  it('is empty, paused, in order mode', () => {
    expect(initialPlayerState()).toEqual({ queue: [], index: 0, mode: 'order', playing: false });
    expect(currentEntry(initialPlayerState())).toBeUndefined();
  });
});
