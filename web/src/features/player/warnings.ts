/**
 * Warnings shown once per browser: mobile Safari and the visualizer, and the background
 * playback bug of iOS 17.3 and later. Which ones were shown is remembered in local storage.
 */
import { notifyWarning } from '../../lib/notify.js';
import { getPref, setPref } from '../../lib/prefs.js';

export type WarningKey = 'safariVisualizer' | 'iosBackground';

const ua = (): string => (typeof navigator === 'undefined' ? '' : navigator.userAgent);

/** iPhone/iPad (iPadOS reports a Mac with touch). */
export function isIos(agent = ua(), touchPoints = typeof navigator === 'undefined' ? 0 : navigator.maxTouchPoints): boolean {
  return /iPhone|iPad|iPod/.test(agent) || (/Macintosh/.test(agent) && touchPoints > 1);
}

/** Safari on a phone or tablet (every iOS browser is Safari underneath). */
export const isMobileSafari = (agent = ua()): boolean => isIos(agent) && /AppleWebKit/.test(agent);

/** The iOS version from the user agent (`OS 17_3` / `Version/17.3`), or null. */
export function iosVersion(agent = ua()): [number, number] | null {
  const m = /OS (\d+)[_.](\d+)/.exec(agent) ?? /Version\/(\d+)\.(\d+)/.exec(agent);
  return m ? [Number(m[1]), Number(m[2])] : null;
}

export function hasIosBackgroundBug(agent = ua(), touchPoints?: number): boolean {
  if (!isIos(agent, touchPoints)) return false;
  const v = iosVersion(agent);
  return v !== null && (v[0] > 17 || (v[0] === 17 && v[1] >= 3));
}

/** Show a warning unless it was shown before in this browser. */
export function showOnce(key: WarningKey, message: string): void {
  const shown = getPref('shownWarnings');
  if (shown.includes(key)) return;
  setPref('shownWarnings', [...shown, key]);
  notifyWarning(message, { autoClose: 15_000 });
}
