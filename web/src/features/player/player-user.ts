/** Who listens (set by the player host from the session): speed and the restored queue are per user. */
import { create } from 'zustand';
import { getPref, PLAYBACK_RATE, setPref } from '../../lib/prefs.js';
import { getEngine } from './engine.js';

export interface PlayerUser {
  name: string | null;
  admin: boolean;
  /** Saves play history on the server (users and admins; a guest's would be refused). */
  canWrite: boolean;
  /** The player has started for the signed-in user (a stored queue, if any, is restored). */
  ready: boolean;
}

export const usePlayerUser = create<PlayerUser>()(() => ({ name: null, admin: false, canWrite: false, ready: false }));

/** The speed remembered for a user (1× when none). */
export const rememberedRate = (user: string | null): number => (user ? (getPref('playbackRates')[user] ?? PLAYBACK_RATE.default) : PLAYBACK_RATE.default);

/** Play at `rate` and remember it for the current user. */
export function setPlaybackRate(rate: number): void {
  getEngine().setRate(rate);
  const user = usePlayerUser.getState().name;
  if (user) setPref('playbackRates', { ...getPref('playbackRates'), [user]: getEngine().element.playbackRate });
}

export const SPEEDS = [0.5, 0.75, 1, 1.25, 1.5, 1.75, 2, 2.5, 3] as const;
