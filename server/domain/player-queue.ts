/**
 * The player's queue and play-mode state machine, as pure functions
 * over an immutable state. Every function returns a new state, or the very same object when the
 * request is ignored (out of range, nothing to do), so callers can compare by identity.
 */
export type PlayMode = 'order' | 'allRepeat' | 'repeatOnce' | 'shuffle';

/** Order of the play-mode button: order → all repeat → repeat once → shuffle → order. */
export const PLAY_MODES: readonly PlayMode[] = ['order', 'allRepeat', 'repeatOnce', 'shuffle'];

export interface PlayerState<T> {
  readonly queue: readonly T[];
  /** Index of the current entry; 0 when the queue is empty. */
  readonly index: number;
  readonly mode: PlayMode;
  readonly playing: boolean;
}

/** A source of numbers in [0, 1) — `Math.random` unless a test injects its own. */
export type RandomSource = () => number;

export function initialPlayerState<T>(mode: PlayMode = 'order'): PlayerState<T> {
  return { queue: [], index: 0, mode, playing: false };
}

export const currentEntry = <T>(state: PlayerState<T>): T | undefined => state.queue[state.index];

const inRange = <T>(state: PlayerState<T>, i: number): boolean => Number.isInteger(i) && i >= 0 && i < state.queue.length;

/** The next play mode in the button's cycle. */
export function nextPlayMode(mode: PlayMode): PlayMode {
  return PLAY_MODES[(PLAY_MODES.indexOf(mode) + 1) % PLAY_MODES.length];
}

export function cyclePlayMode<T>(state: PlayerState<T>): PlayerState<T> {
  return { ...state, mode: nextPlayMode(state.mode) };
}

export function setPlayMode<T>(state: PlayerState<T>, mode: PlayMode): PlayerState<T> {
  return state.mode === mode || !PLAY_MODES.includes(mode) ? state : { ...state, mode };
}

/** Replaces the queue and starts playing at `index` (a history resume, "play this folder"). Out of range → ignored. */
export function playQueue<T>(state: PlayerState<T>, queue: readonly T[], index = 0): PlayerState<T> {
  if (queue.length === 0) return clearQueue(state);
  if (!Number.isInteger(index) || index < 0 || index >= queue.length) return state;
  return { ...state, queue: [...queue], index, playing: true };
}

/** Selects track `index` and plays it. Out of range → ignored. */
export function setTrack<T>(state: PlayerState<T>, index: number): PlayerState<T> {
  if (!inRange(state, index)) return state;
  if (index === state.index && state.playing) return state;
  return { ...state, index, playing: true };
}

/** Plays or pauses. Playing needs a non-empty queue. */
export function setPlaying<T>(state: PlayerState<T>, playing: boolean): PlayerState<T> {
  if (state.playing === playing || (playing && state.queue.length === 0)) return state;
  return { ...state, playing };
}

export const togglePlaying = <T>(state: PlayerState<T>): PlayerState<T> => setPlaying(state, !state.playing);

/** The next button: one step forward, only within the queue. */
export function nextTrack<T>(state: PlayerState<T>): PlayerState<T> {
  return inRange(state, state.index + 1) ? { ...state, index: state.index + 1 } : state;
}

/** The previous button: one step back, only within the queue. */
export function previousTrack<T>(state: PlayerState<T>): PlayerState<T> {
  return inRange(state, state.index - 1) ? { ...state, index: state.index - 1 } : state;
}

/** What the engine must do after a track ended. */
export type TrackEndEffect =
  /** Load and play `state.index` (a different track). */
  | 'advance'
  /** Seek the current track to 0 and play it again. */
  | 'restart'
  /** Stay paused on the current track. */
  | 'stop';

/**
 * End-of-track rules:
 * - order: next track, or pause on the last one;
 * - all repeat: next track, wrapping to the first;
 * - repeat once: the same track again;
 * - shuffle: a random track; when the draw is the current one, it restarts.
 */
export function onTrackEnd<T>(state: PlayerState<T>, random: RandomSource = Math.random): { state: PlayerState<T>; effect: TrackEndEffect } {
  const n = state.queue.length;
  if (n === 0) return { state: setPlaying(state, false), effect: 'stop' };
  let target: number;
  switch (state.mode) {
    case 'order':
      if (state.index + 1 >= n) return { state: setPlaying(state, false), effect: 'stop' };
      target = state.index + 1;
      break;
    case 'allRepeat':
      target = (state.index + 1) % n;
      break;
    case 'repeatOnce':
      target = state.index;
      break;
    case 'shuffle':
      target = Math.min(n - 1, Math.max(0, Math.floor(random() * n)));
      break;
  }
  const next: PlayerState<T> = target === state.index && state.playing ? state : { ...state, index: target, playing: true };
  return { state: next, effect: target === state.index ? 'restart' : 'advance' };
}

/** Appends entries to the queue ("add to queue"). Adding to an empty queue selects the first, paused. */
export function enqueue<T>(state: PlayerState<T>, entries: readonly T[]): PlayerState<T> {
  if (entries.length === 0) return state;
  return { ...state, queue: [...state.queue, ...entries], index: state.queue.length === 0 ? 0 : state.index };
}

/** Inserts entries right after the current one ("play next"). */
export function enqueueNext<T>(state: PlayerState<T>, entries: readonly T[]): PlayerState<T> {
  if (entries.length === 0) return state;
  if (state.queue.length === 0) return enqueue(state, entries);
  const at = state.index + 1;
  return { ...state, queue: [...state.queue.slice(0, at), ...entries, ...state.queue.slice(at)] };
}

/**
 * Removes entry `i`. Removing the current entry stops playback and selects index 0; removing an earlier
 * one keeps the current track (its index goes down by one). Out of range → ignored.
 */
export function removeAt<T>(state: PlayerState<T>, i: number): PlayerState<T> {
  if (!inRange(state, i)) return state;
  const queue = state.queue.filter((_, k) => k !== i);
  if (i === state.index) return { ...state, queue, index: 0, playing: false };
  return { ...state, queue, index: i < state.index ? state.index - 1 : state.index };
}

/** Moves entry `from` to position `to` (drag and drop); the current track stays selected. Out of range → ignored. */
export function moveEntry<T>(state: PlayerState<T>, from: number, to: number): PlayerState<T> {
  if (!inRange(state, from) || !inRange(state, to) || from === to) return state;
  const queue = [...state.queue];
  const [moved] = queue.splice(from, 1);
  queue.splice(to, 0, moved);
  let index = state.index;
  if (from === state.index) index = to;
  else if (from < state.index && to >= state.index) index--;
  else if (from > state.index && to <= state.index) index++;
  return { ...state, queue, index };
}

/** Empties the queue and stops playback. */
export function clearQueue<T>(state: PlayerState<T>): PlayerState<T> {
  if (state.queue.length === 0 && !state.playing && state.index === 0) return state;
  return { ...state, queue: [], index: 0, playing: false };
}
