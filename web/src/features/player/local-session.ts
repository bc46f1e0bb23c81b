/**
 * The player survives a reload: queue, index, play mode and the second
 * of the current track are kept in local storage for the user who listened, and restored — paused, at
 * that second, with '已恢复播放历史' — when the page opens again.
 */
import { PLAY_MODES, type PlayMode } from '../../../../server/domain/player-queue.js';
import { getPref, resetPref, setPref } from '../../lib/prefs.js';
import type { PlayerEngine } from './engine.js';
import { parsePlayState, toPlayState } from './queue-entry.js';
import { usePlayer } from './store.js';

/** While playing, the stored second is refreshed this often. */
export const SESSION_SAVE_MS = 2000;

export function saveLocalSession(engine: PlayerEngine, user: string | null): void {
  const s = usePlayer.getState();
  if (!user) return;
  if (!s.queue.length) {
    if (getPref('playerSession')) resetPref('playerSession');
    return;
  }
  // while a resume still waits to seek, the element's time is not the place to keep
  const seconds = s.resumePoint?.hash === s.queue[s.index]?.hash ? s.resumePoint.seconds : engine.currentTime;
  const state = toPlayState(s.queue, s.index, seconds);
  setPref('playerSession', { user, mode: s.mode, ...state });
}

/** Restore the stored session of `user` into an empty player. True when something was restored. */
export function restoreLocalSession(user: string | null): boolean {
  const stored = getPref('playerSession');
  if (!user || !stored || stored.user !== user || usePlayer.getState().queue.length) return false;
  const state = parsePlayState(stored);
  if (!state) return false;
  const mode = PLAY_MODES.includes(stored.mode as PlayMode) ? (stored.mode as PlayMode) : 'order';
  usePlayer.getState().setMode(mode);
  usePlayer.getState().resume(state, { play: false });
  return true;
}

/** Keep the stored session up to date: on queue/index/mode changes, every 2 s while playing, and when the page goes away. */
export function trackLocalSession(engine: PlayerEngine, user: () => string | null): void {
  let last = 0;
  usePlayer.subscribe((s, prev) => {
    if (s.queue !== prev.queue || s.index !== prev.index || s.mode !== prev.mode || s.playing !== prev.playing) saveLocalSession(engine, user());
  });
  engine.clock.subscribe(() => {
    const now = Date.now();
    if (now - last < SESSION_SAVE_MS || !usePlayer.getState().playing) return;
    last = now;
    saveLocalSession(engine, user());
  });
  for (const el of [engine.audio, engine.video]) el.addEventListener('seeked', () => saveLocalSession(engine, user()));
  window.addEventListener('pagehide', () => saveLocalSession(engine, user()));
}
