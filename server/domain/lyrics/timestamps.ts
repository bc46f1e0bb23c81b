/** Timestamp reading and writing shared by the lyric parsers and writers. */
import { MAX_LYRIC_TIME_MS } from './limits.js';

/**
 * Milliseconds of a decimal fraction written after a separator: `5` → 500, `05` → 50, `050` → 50,
 * `1234` → 123 (digits past milliseconds are dropped).
 */
export function fractionToMs(digits: string): number {
  if (!digits) return 0;
  return Number((digits + '00').slice(0, 3));
}

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

/** `HH:MM:SS.mmm` (hours at least two digits, uncapped) — the WebVTT and (with `,`) SRT form. */
export function formatClockTime(ms: number, separator: '.' | ',' = '.'): string {
  const total = Math.max(0, Math.round(ms));
  const hours = Math.floor(total / 3_600_000);
  const minutes = Math.floor((total % 3_600_000) / 60_000);
  const seconds = Math.floor((total % 60_000) / 1000);
  return `${pad(hours, 2)}:${pad(minutes, 2)}:${pad(seconds, 2)}${separator}${pad(total % 1000, 3)}`;
}

/** `MM:SS.CC` with hundredths and uncapped minutes (`75:02.10`) — the LRC form the AI workers write. */
export function formatLrcTime(ms: number): string {
  const centis = Math.max(0, Math.round(ms / 10));
  const minutes = Math.floor(centis / 6000);
  const seconds = Math.floor((centis % 6000) / 100);
  return `${pad(minutes, 2)}:${pad(seconds, 2)}.${pad(centis % 100, 2)}`;
}

/** True for a usable line time: milliseconds, at least 0 and (as written, rounded) below {@link MAX_LYRIC_TIME_MS}. */
export const isValidTime = (ms: unknown): ms is number => typeof ms === 'number' && Number.isFinite(ms) && ms >= 0 && Math.round(ms) < MAX_LYRIC_TIME_MS;
