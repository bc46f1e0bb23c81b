/**
 * The playback clock: current time, duration and buffered end of the playing media, kept apart from
 * the player store so that only what shows the time (the progress bar, the lyric highlight) re-renders
 * while media plays. A tiny subscription store; components read one derived value through `useClock`.
 */
import { useCallback, useSyncExternalStore } from 'react';

export interface ClockState {
  /** Seconds. */
  currentTime: number;
  /** Seconds; 0 while unknown. */
  duration: number;
  /** End of the buffered range around the current time, seconds. */
  buffered: number;
}

export interface Clock {
  get(): ClockState;
  set(next: Partial<ClockState>): void;
  subscribe(fn: () => void): () => void;
}

export function createClock(): Clock {
  let state: ClockState = { currentTime: 0, duration: 0, buffered: 0 };
  const listeners = new Set<() => void>();
  return {
    get: () => state,
    set(next) {
      const merged = { ...state, ...next };
      if (merged.currentTime === state.currentTime && merged.duration === state.duration && merged.buffered === state.buffered) return;
      state = merged;
      for (const fn of listeners) fn();
    },
    subscribe(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
  };
}

/** The clock of the one player engine. */
export const playerClock = createClock();

/**
 * A value derived from the clock; the component re-renders only when it changes. The selector must
 * return a primitive (or a stable reference) — e.g. whole seconds, a lyric line index.
 */
export function useClock<T>(selector: (s: ClockState) => T, clock: Clock = playerClock): T {
  const get = useCallback(() => selector(clock.get()), [selector, clock]);
  return useSyncExternalStore(clock.subscribe, get);
}
