/**
 * The lyric sync helper: ready → measure (after saying which came first, the voice or the
 * line) → done (the measured difference is added to the offset). Reset goes back to ready. Times are
 * playback seconds, so the playback speed does not skew the measure. Pure.
 */
import { normalizeOffset } from './lyric-timing.js';

export type FirstSeen = 'audio' | 'lyric';

export type SyncState = { phase: 'ready' } | { phase: 'measure'; first: FirstSeen; startedAt: number } | { phase: 'done'; first: FirstSeen; delta: number; offset: number };

export const SYNC_READY: SyncState = { phase: 'ready' };

/** The first of the two happened at playback time `at`. */
export function startMeasure(state: SyncState, first: FirstSeen, at: number): SyncState {
  return state.phase === 'ready' ? { phase: 'measure', first, startedAt: at } : state;
}

/**
 * The second one happened at `at`. Voice first → the lines come late → show them earlier (offset
 * goes down); line first → show them later (offset goes up).
 */
export function finishMeasure(state: SyncState, at: number, currentOffset: number): SyncState {
  if (state.phase !== 'measure') return state;
  const delta = Math.max(0, at - state.startedAt);
  const offset = normalizeOffset(state.first === 'audio' ? currentOffset - delta : currentOffset + delta);
  return { phase: 'done', first: state.first, delta: normalizeOffset(delta), offset };
}

export const resetSync = (): SyncState => SYNC_READY;
