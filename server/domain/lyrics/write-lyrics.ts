import { badRequest } from '../errors.js';
import type { EditableLyricLine, LyricLine } from './types.js';
import { MAX_LYRIC_TIME_MS } from './limits.js';
import { formatClockTime, formatLrcTime, isValidTime } from './timestamps.js';

/** End time written for a last line that has no `timeEnd`: 99:59:59.999, the last instant a line may have. */
export const FAR_FUTURE_MS = MAX_LYRIC_TIME_MS - 1;

/**
 * The lines to write, in time order: `deleted` lines dropped, client-only fields stripped. A line with a
 * time (or `timeEnd`) that is not a number of milliseconds from 0 to under 100 hours
 * ({@link MAX_LYRIC_TIME_MS}), or with a non-string text, is a 400. A `timeEnd` before the line's own
 * start is ignored.
 */
export function linesToSave(lines: readonly EditableLyricLine[]): LyricLine[] {
  const kept: LyricLine[] = [];
  lines.forEach((line, i) => {
    if (line.deleted) return;
    if (!isValidTime(line.time)) throw badRequest(`第 ${i + 1} 行歌词的时间无效`, { code: 'LYRIC_LINE_INVALID', field: 'lrc', params: { line: i + 1 } });
    if (typeof line.text !== 'string') throw badRequest(`第 ${i + 1} 行歌词的文本无效`, { code: 'LYRIC_LINE_INVALID', field: 'lrc', params: { line: i + 1 } });
    if (line.timeEnd != null && !isValidTime(line.timeEnd)) throw badRequest(`第 ${i + 1} 行歌词的结束时间无效`, { code: 'LYRIC_LINE_INVALID', field: 'lrc', params: { line: i + 1 } });
    const out: LyricLine = { time: line.time, text: line.text };
    // An end before the start is treated as no end at all.
    if (isValidTime(line.timeEnd) && line.timeEnd >= line.time) out.timeEnd = line.timeEnd;
    kept.push(out);
  });
  // Stable sort: a WebVTT file must list cues by start time.
  return kept
    .map((line, order) => ({ line, order }))
    .sort((a, b) => a.line.time - b.line.time || a.order - b.order)
    .map((e) => e.line);
}

/** Text lines of a cue: no blank lines (they would end the cue), markup characters escaped. */
function cueText(text: string): string[] {
  return text
    .split(/\r\n|\r|\n/)
    .map((t) => t.trim())
    .filter((t) => t !== '')
    .map((t) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'));
}

/**
 * WebVTT text of edited lyrics (save-lrc, docs/API.md#lyrics): `WEBVTT`, a blank line, then one cue per
 * kept line — `HH:MM:SS.mmm --> HH:MM:SS.mmm` and its text, cues separated by blank lines.
 * A cue ends at its `timeEnd`, else 1 ms before the next line starts (never before its own start), else
 * at {@link FAR_FUTURE_MS}. Lines whose text is blank are not written but still end the line before them.
 */
export function toWebVtt(lines: readonly EditableLyricLine[]): string {
  const kept = linesToSave(lines);
  const blocks: string[] = ['WEBVTT'];
  kept.forEach((line, i) => {
    const text = cueText(line.text);
    if (!text.length) return;
    const next = kept[i + 1];
    const end = line.timeEnd ?? (next ? Math.max(line.time, next.time - 1) : Math.max(line.time, FAR_FUTURE_MS));
    blocks.push(`${formatClockTime(line.time)} --> ${formatClockTime(end)}\n${text.join('\n')}`);
  });
  return blocks.join('\n\n') + '\n';
}

/**
 * LRC text: one `[MM:SS.CC] text` line per kept line (hundredths, minutes uncapped — the form the AI
 * workers write). Multi-line texts are joined with a space; blank lines are not written.
 */
export function toLrc(lines: readonly EditableLyricLine[]): string {
  const out: string[] = [];
  for (const line of linesToSave(lines)) {
    const text = line.text
      .split(/\r\n|\r|\n/)
      .map((t) => t.trim())
      .filter(Boolean)
      .join(' ');
    if (text) out.push(`[${formatLrcTime(line.time)}] ${text}`);
  }
  return out.length ? out.join('\n') + '\n' : '';
}
