/**
 * Helpers of the lyric editor: times typed as `m:ss.mmm`, and the save path
 * — relative to the work folder, ending in `.vtt`, by default the audio's folder + its name + `.vtt`.
 * Pure.
 */
import type { EditableLyricLine } from '../../../../server/domain/lyrics/types.js';

/** `m:ss.mmm` (minutes uncapped) of a line time in ms. */
export function formatEditTime(ms: number): string {
  const total = Math.max(0, Math.round(ms));
  const m = Math.floor(total / 60_000);
  const s = Math.floor((total % 60_000) / 1000);
  return `${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}.${String(total % 1000).padStart(3, '0')}`;
}

/** ms of `[h:]m:ss[.fraction]` (also `,` before the fraction); null when it is not a time. */
export function parseEditTime(text: string): number | null {
  const m = /^(?:(\d+):)?(\d+):(\d{1,2})(?:[.,](\d{1,3}))?$/.exec(text.trim());
  if (!m) return null;
  const [, h, min, sec, frac] = m;
  if (Number(sec) > 59) return null;
  const ms = (frac ?? '').padEnd(3, '0');
  return ((Number(h ?? 0) * 60 + Number(min)) * 60 + Number(sec)) * 1000 + Number(ms);
}

/** `<folder>/<audio file name>.vtt`, or `<audio file name>.vtt` at the work root. */
export function defaultWritePath(entry: { subtitle: string | null; title: string }): string {
  const folder = entry.subtitle ? entry.subtitle.replace(/\\/g, '/').replace(/\/+$/, '') : '';
  return folder ? `${folder}/${entry.title}.vtt` : `${entry.title}.vtt`;
}

/** The path as sent, or null when it does not end with `.vtt` (the server checks the rest: `..`, absolute, symlinks). */
export function checkWritePath(path: string): string | null {
  const p = path.trim().replace(/\\/g, '/');
  return /[^/]\.vtt$/i.test(p) ? p : null;
}

/** The lines to save: not deleted, sorted by time. */
export const linesToSave = (lines: readonly EditableLyricLine[]): EditableLyricLine[] =>
  lines
    .filter((l) => !l.deleted)
    .map(({ time, text, timeEnd }) => (timeEnd === undefined ? { time, text } : { time, text, timeEnd }))
    .sort((a, b) => a.time - b.time);
