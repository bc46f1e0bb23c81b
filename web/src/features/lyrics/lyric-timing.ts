/**
 * Which lyric line is current. Pure.
 *
 * The offset is in seconds: a positive offset shows every line later, a negative one earlier. It is
 * kept to 4 decimals and a cleared input counts as 0; the offset buttons step by 0.1 s.
 */
import type { LyricLine } from '../../../../server/domain/lyrics/types.js';

export const OFFSET_STEP = 0.1;

/** The offset as stored: 4 decimals; empty, non-numeric and non-finite input → 0. */
export function normalizeOffset(value: number | string | null | undefined): number {
  const n = typeof value === 'string' ? (value.trim() === '' ? 0 : Number(value)) : (value ?? 0);
  if (!Number.isFinite(n)) return 0;
  const rounded = Math.round(n * 10_000) / 10_000;
  return Object.is(rounded, -0) ? 0 : rounded;
}

/** Lyric time (ms) that is on at playback time `seconds` with `offset` seconds. */
export const lyricClock = (seconds: number, offset: number): number => Math.round((seconds - offset) * 1000);

/** Index of the last line that has started at `ms` (lines sorted by time), -1 before the first. */
export function lineIndexAt(lines: readonly LyricLine[], ms: number): number {
  let lo = 0;
  let hi = lines.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (lines[mid].time <= ms) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/**
 * The line on screen at `ms`: the last started line, unless it has an end time (SRT/VTT cue) that has
 * passed — then nothing (-1) until the next line starts.
 */
export function activeLineIndex(lines: readonly LyricLine[], ms: number): number {
  const i = lineIndexAt(lines, ms);
  if (i < 0) return -1;
  const end = lines[i].timeEnd;
  return end !== undefined && end !== null && ms > end ? -1 : i;
}

/** The text on the lyric bar at playback time `seconds`. */
export function activeText(lines: readonly LyricLine[], seconds: number, offset: number): string {
  const i = activeLineIndex(lines, lyricClock(seconds, offset));
  return i < 0 ? '' : lines[i].text;
}
