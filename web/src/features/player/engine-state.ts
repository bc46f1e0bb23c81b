/**
 * What the engine reports that screens show and that changes rarely (volume, speed, buffering, which
 * element plays). The playback clock is elsewhere (`clock.ts`); the queue is in `store.ts`.
 */
import { create } from 'zustand';
import { getPref, PLAYBACK_RATE } from '../../lib/prefs.js';

export interface EngineState {
  volume: number;
  rate: number;
  /** Waiting for data while it should play. */
  buffering: boolean;
  /** The current entry plays through the `<video>` element. */
  video: boolean;
  /** The current entry failed to load or play. */
  failed: boolean;
  /** The current entry played to its end and has not started again (nothing of it is on any more). */
  ended: boolean;
}

export const useEngineState = create<EngineState>()(() => ({
  volume: getPref('volume'),
  rate: PLAYBACK_RATE.default,
  buffering: false,
  video: false,
  failed: false,
  ended: false,
}));
