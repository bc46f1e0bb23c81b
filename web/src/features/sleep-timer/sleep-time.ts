/**
 * Sleep timer arithmetic: countdown minutes, clock times and the presets.
 * Pure: every function takes `now` (epoch ms).
 */
import type { SleepTimer } from '../../lib/prefs.js';

/** The countdown slider runs 0..10 over these minutes. */
export const COUNTDOWN_PRESETS = [0, 1, 3, 5, 10, 20, 30, 45, 60, 90, 120] as const;
export const DEFAULT_PRESET_INDEX = 6; // 30 minutes

/** Minutes of slider position `i` (clamped to the slider). */
export const presetMinutes = (i: number): number => COUNTDOWN_PRESETS[Math.min(COUNTDOWN_PRESETS.length - 1, Math.max(0, Math.round(i)))];

/**
 * The stop time of clock mode: today at `hour:minute`, or tomorrow when that is not later than now
 * (an hour earlier than the current one means tomorrow morning, not a timer already due).
 */
export function clockStopAt(now: number, hour: number, minute: number): number {
  if (!Number.isInteger(hour) || hour < 0 || hour > 23 || !Number.isInteger(minute) || minute < 0 || minute > 59) {
    throw new RangeError(`not a time of day: ${hour}:${minute}`);
  }
  const at = new Date(now);
  at.setHours(hour, minute, 0, 0);
  if (at.getTime() <= now) at.setDate(at.getDate() + 1);
  return at.getTime();
}

/** `HH:MM` of a `<input type="time">` value, or null. */
export function parseClock(value: string): { hour: number; minute: number } | null {
  const m = /^(\d{1,2}):(\d{2})(?::\d{2})?$/.exec(value.trim());
  if (!m) return null;
  const hour = Number(m[1]);
  const minute = Number(m[2]);
  return hour <= 23 && minute <= 59 ? { hour, minute } : null;
}

/** The stop time of countdown mode, or null when the minutes are not above 0 ('倒计时失败，时长不能小于0'). */
export function countdownStopAt(now: number, minutes: number): number | null {
  if (!Number.isFinite(minutes) || minutes <= 0) return null;
  return now + Math.round(minutes * 60_000);
}

export const isDue = (timer: SleepTimer | null, now: number): boolean => timer !== null && now >= timer.stopAt;

/** Time left as `H:MM:SS` / `M:SS` (rounded up to the second, never negative). */
export function remainingText(timer: SleepTimer, now: number): string {
  const total = Math.max(0, Math.ceil((timer.stopAt - now) / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** `HH:MM` of the stop time, local. */
export function stopClockText(timer: SleepTimer): string {
  const d = new Date(timer.stopAt);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}
