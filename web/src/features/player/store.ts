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
  removeAt,
  setPlaying,
  setTrack,
  type PlayerState,
} from '../../../../server/domain/player-queue.js';

/** A queue entry (spec §3 "Queue entry"), as the kikoeru clients store it in play history. */
export interface QueueEntry {
  /** `<workId>/<n>` */
  hash: string;
  title: string;
  /** folder path inside the work, '' or null at its root */
  subtitle: string | null;
  workTitle: string;
  workId: number;
  mediaStreamUrl?: string;
  mediaDownloadUrl?: string;
  /** seconds, when known */
  duration?: number;
}

export interface PlayerStore extends PlayerState<QueueEntry> {
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
  };
});

/** The entry being played, or undefined. */
export const useCurrentEntry = () => usePlayer((s) => s.queue[s.index]);
