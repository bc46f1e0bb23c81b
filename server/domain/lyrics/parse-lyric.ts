import { badRequest } from '../errors.js';
import type { LyricFormat, LyricLine } from './types.js';
import { parseLrcSteps, splitLines } from './parse-lrc.js';
import { isTimingLine, parseCuesSteps } from './parse-cues.js';
import { runSteps, STEP_LINES, type Steps } from './steps.js';

const LRC_LINE = /^\s*\[\d+:\d+(?:[.:]\d+)?\]/;

/**
 * The format a lyric text is actually written in, whatever its file name says, or null when it looks
 * like none: a `WEBVTT` header → vtt; a cue timing line → srt; an LRC time tag → lrc.
 */
export function detectLyricFormat(source: string): LyricFormat | null {
  return runSteps(detectLyricFormatSteps(source));
}

function* detectLyricFormatSteps(source: string): Steps<LyricFormat | null> {
  const lines = splitLines(source);
  if (/^WEBVTT(?:[ \t].*)?$/.test(lines[0]?.trim() ?? '')) return 'vtt';
  let lrc = false;
  let n = 0;
  for (const line of lines) {
    if (++n % STEP_LINES === 0) yield;
    if (isTimingLine(line)) return 'srt';
    if (!lrc && LRC_LINE.test(line)) lrc = true;
  }
  return lrc ? 'lrc' : null;
}

/** `.lrc`, `lrc`, `LRC`, `track.LRC` → `lrc`; anything else → null. */
export function lyricFormatOfExtension(extOrName: string): LyricFormat | null {
  const m = /(?:^|\.)(lrc|srt|vtt)$/i.exec(extOrName.trim());
  return m ? (m[1].toLowerCase() as LyricFormat) : null;
}

const PARSERS: Record<LyricFormat, (source: string) => Steps<LyricLine[]>> = { lrc: parseLrcSteps, srt: parseCuesSteps, vtt: parseCuesSteps };

/**
 * Parses a lyric file. The content decides the format when it is recognisable (an `.lrc` that really
 * holds SRT cues still loads); otherwise the extension does. Text in no known format with an unknown
 * extension is a 400 (`.ass` and friends are not loadable).
 */
export function parseLyric(source: string, ext: string): LyricLine[] {
  return parseLyricWithFormat(source, ext).lines;
}

/** Like {@link parseLyric}, and says which format was used. */
export function parseLyricWithFormat(source: string, ext: string): { format: LyricFormat; lines: LyricLine[] } {
  return runSteps(parseLyricSteps(source, ext));
}

/** {@link parseLyricWithFormat} in steps (see `steps.ts`). */
export function* parseLyricSteps(source: string, ext: string): Steps<{ format: LyricFormat; lines: LyricLine[] }> {
  const format = (yield* detectLyricFormatSteps(source)) ?? lyricFormatOfExtension(ext);
  if (!format) throw badRequest(`不支持的歌词格式: ${ext}`, { code: 'LYRIC_FORMAT_UNSUPPORTED' });
  yield;
  return { format, lines: yield* PARSERS[format](source) };
}
