/**
 * The sleep timer at work: stored in session storage (so a reload keeps it), checked every
 * second; when due, playback pauses and the timer clears.
 */
import { t } from '../../i18n/index.js';
import { notifyInfo } from '../../lib/notify.js';
import { getPref, resetPref } from '../../lib/prefs.js';
import { usePlayer } from '../player/store.js';
import { isDue } from './sleep-time.js';

export const SLEEP_CHECK_MS = 1000;

let timer: ReturnType<typeof setInterval> | null = null;

/** Check now: pause and clear when due. */
export function checkSleepTimer(now = Date.now()): void {
  if (!isDue(getPref('sleepTimer'), now)) return;
  resetPref('sleepTimer');
  if (usePlayer.getState().playing) usePlayer.getState().setPlaying(false);
  notifyInfo(t.player.sleep.due, { autoClose: 10_000 });
}

/** Start the once-a-second check (idempotent; runs for the life of the page). */
export function startSleepWatcher(): void {
  if (timer) return;
  checkSleepTimer();
  timer = setInterval(() => checkSleepTimer(), SLEEP_CHECK_MS);
}
