/**
 * The player's state: one zustand store over the pure queue/play-mode module (server/domain/player-queue).
 * Screens hand tracks to the player through the actions below; the audio engine (one class owning the
 * <audio>/<video> element) follows `queue`, `index` and `playing`. The playback clock (currentTime) is not
 * kept here, so screens do not re-render on every tick.
 */
import { create } from 'zustand';
import {
  clearQueue,
  cyclePlayMode,
  enqueue,
  enqueueNext,
  initialPlayerState,
  moveEntry,
  nextTrack,
  playQueue,
  previousTrack,
  onTrackEnd,
  removeAt,
  setPlaying,
  setPlayMode,
  setTrack,
  type PlayMode,
  type PlayerState,
  type RandomSource,
  type TrackEndEffect,
} from '../../../../server/domain/player-queue.js';
import { parsePlayState, type PlayState, type QueueEntry } from './queue-entry.js';

export type { QueueEntry };

/** Where a resumed track is to start once it can play. */
export interface ResumePoint {
  hash: string;
  seconds: number;
}

export interface PlayerStore extends PlayerState<QueueEntry> {
  /** Set while a resume waits for its track to be able to play; the engine seeks and clears it. */
  resumePoint: ResumePoint | null;
  /** Replace the queue and start playing entry `index`. */
  playTracks(entries: QueueEntry[], index?: number): void;
  /** Append to the end of the queue (starts playing when the queue was empty). */
  addToQueue(entries: QueueEntry[]): void;
  /** Insert right after the current entry. */
  playNext(entries: QueueEntry[]): void;
  setTrack(index: number): void;
  next(): void;
  previous(): void;
  setPlaying(playing: boolean): void;
  togglePlaying(): void;
  cycleMode(): void;
  remove(index: number): void;
  move(from: number, to: number): void;
  clear(): void;
  setMode(mode: PlayMode): void;
  /**
   * Load a saved play state and start at its second (a history resume; `play: false` restores it
   * paused, as after a page reload).
   */
  resume(state: PlayState, opts?: { play?: boolean }): void;
  /** `resume` from play history as the server stores it (any client's format). False when nothing in it can be played. */
  resumeHistory(state: unknown, opts?: { play?: boolean }): boolean;
  clearResume(): void;
  /** The engine's media ended: apply the play mode and say what the engine must do. */
  trackEnded(random?: RandomSource): TrackEndEffect;
}

const pick = (s: PlayerState<QueueEntry>): PlayerState<QueueEntry> => ({ queue: s.queue, index: s.index, mode: s.mode, playing: s.playing });

export const usePlayer = create<PlayerStore>((set, get) => {
  const apply = (fn: (s: PlayerState<QueueEntry>) => PlayerState<QueueEntry>) => {
    const before = pick(get());
    const after = fn(before);
    if (after !== before) set(after);
  };
  return {
    ...initialPlayerState<QueueEntry>(),
    resumePoint: null,
    playTracks: (entries, index = 0) => apply((s) => setPlaying(playQueue(s, entries, index), entries.length > 0)),
    addToQueue: (entries) =>
      apply((s) => {
        const wasEmpty = s.queue.length === 0;
        const next = enqueue(s, entries);
        return wasEmpty && next.queue.length ? setPlaying(next, true) : next;
      }),
    playNext: (entries) =>
      apply((s) => {
        const wasEmpty = s.queue.length === 0;
        const next = enqueueNext(s, entries);
        return wasEmpty && next.queue.length ? setPlaying(next, true) : next;
      }),
    setTrack: (index) => apply((s) => setTrack(s, index)),
    next: () => apply(nextTrack),
    previous: () => apply(previousTrack),
    setPlaying: (playing) => apply((s) => setPlaying(s, playing)),
    togglePlaying: () => apply((s) => setPlaying(s, !s.playing)),
    cycleMode: () => apply(cyclePlayMode),
    remove: (index) => apply((s) => removeAt(s, index)),
    move: (from, to) => apply((s) => moveEntry(s, from, to)),
    clear: () => apply(clearQueue),
    setMode: (mode) => apply((s) => setPlayMode(s, mode)),
    resume: (state, opts = {}) => {
      if (!state.queue.length) return;
      const play = opts.play ?? true;
      const hash = state.queue[state.index]?.hash;
      set({
        queue: [...state.queue],
        index: state.index,
        playing: play,
        resumePoint: hash && state.seconds > 0 ? { hash, seconds: state.seconds } : null,
      });
    },
    resumeHistory: (raw, opts) => {
      const state = parsePlayState(raw);
      if (!state) return false;
      get().resume(state, opts);
      return true;
    },
    clearResume: () => {
      if (get().resumePoint) set({ resumePoint: null });
    },
    trackEnded: (random) => {
      const before = pick(get());
      const { state, effect } = onTrackEnd(before, random);
      if (state !== before) set(state);
      return effect;
    },
  };
});

/** The entry being played, or undefined. */
export const useCurrentEntry = () => usePlayer((s) => s.queue[s.index]);
