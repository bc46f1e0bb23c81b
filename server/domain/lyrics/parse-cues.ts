import type { LyricLine } from './types.js';
import { fractionToMs } from './timestamps.js';
import { splitLines } from './parse-lrc.js';
import { LineBudget } from './limits.js';
import { runSteps, STEP_LINES, type Steps } from './steps.js';

/**
 * SRT and WebVTT cue parser (docs/API.md#lyrics): `time` = cue start, `timeEnd` = cue end,
 * `text` = the cue's text lines joined with `\n`.
 *
 * One tolerant reader serves both formats:
 * - cue ids are optional (numbers in SRT, any text in VTT) and are never part of the text;
 * - `HH:MM:SS.mmm`, `MM:SS.mmm`, `,` or `.` before the milliseconds; cue settings after the end time;
 * - the `WEBVTT` header block, `NOTE`, `STYLE` and `REGION` blocks are skipped (they only hold text
 *   outside a cue, and only cue text is collected);
 * - markup is removed: `<c.x>`, `<i>`, `<b>`, `<u>`, `<v Name>`, `<lang>`, inline timestamps, ruby
 *   readings (`<rt>…</rt>`), SRT `<font>` and `{\an8}`-style overrides; entities are decoded;
 * - blank cues are dropped and the result is sorted by start time;
 * - bounded work (see `limits.ts`): reading stops at the line or text budget; time is linear in the input.
 */
export function parseCues(source: string): LyricLine[] {
  return runSteps(parseCuesSteps(source));
}

/** {@link parseCues} in steps (see `steps.ts`). */
export function* parseCuesSteps(source: string): Steps<LyricLine[]> {
  const lines = splitLines(source);
  const cues: (LyricLine & { order: number })[] = [];
  const budget = new LineBudget();
  let i = 0;
  let nextPause = STEP_LINES;
  while (i < lines.length && !budget.full) {
    if (i >= nextPause) {
      nextPause = i + STEP_LINES;
      yield;
    }
    const timing = readTimingLine(lines[i]);
    i++;
    if (!timing) continue;

    const textLines: string[] = [];
    while (i < lines.length && lines[i].trim() !== '') {
      if (readTimingLine(lines[i])) break; // a missing blank line between cues
      if (i + 1 < lines.length && readTimingLine(lines[i + 1])) break; // the next cue's id
      textLines.push(cleanCueText(lines[i]));
      i++;
    }
    const text = textLines.filter((t) => t !== '').join('\n');
    if (!text) continue;
    if (!budget.take(text.length)) break;
    const cue: LyricLine & { order: number } = { time: timing.start, text, order: cues.length };
    if (timing.end >= timing.start) cue.timeEnd = timing.end;
    cues.push(cue);
  }
  yield;
  cues.sort((a, b) => a.time - b.time || a.order - b.order);
  yield;
  return cues.map(({ order: _order, ...line }) => line);
}

/** SubRip (`.srt`). */
export const parseSrt = (source: string): LyricLine[] => parseCues(source);
/** WebVTT (`.vtt`). */
export const parseVtt = (source: string): LyricLine[] => parseCues(source);

const TIMESTAMP = String.raw`(?:(\d+):)?(\d{1,2}):(\d{1,2})(?:[.,](\d{1,3}))?`;
const TIMING_LINE = new RegExp(String.raw`^\s*${TIMESTAMP}\s*-->\s*${TIMESTAMP}(?:\s.*)?$`);

/** True when a line is a cue timing line (`00:01.000 --> 00:02.000 …`). */
export const isTimingLine = (line: string): boolean => TIMING_LINE.test(line);

function readTimingLine(line: string): { start: number; end: number } | null {
  const m = TIMING_LINE.exec(line);
  if (!m) return null;
  return { start: toMs(m[1], m[2], m[3], m[4]), end: toMs(m[5], m[6], m[7], m[8]) };
}

function toMs(h: string | undefined, m: string, s: string, frac: string | undefined): number {
  return Number(h ?? 0) * 3_600_000 + Number(m) * 60_000 + Number(s) * 1000 + fractionToMs(frac ?? '');
}

// Every pattern below is linear: no part of a match can run past the next `<` (`{`), so a line full of
// unclosed tags costs one pass, not one pass per tag.
const RUBY_OPEN = /<(rt|rp)(?:[.\s][^<>]*)?>/gi;
const RUBY_CLOSE = { rt: /<\/rt>/gi, rp: /<\/rp>/gi } as const;
const TAG = /<\/?(?:[a-zA-Z][^<>]*|\d[\d:.]*)>/g;
const ASS_OVERRIDE = /\{\\[^{}]*\}/g;
const ENTITY = /&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos|nbsp|lrm|rlm);/gi;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', lrm: '', rlm: '' };

function cleanCueText(line: string): string {
  return removeRuby(line)
    .replace(TAG, '')
    .replace(ASS_OVERRIDE, '')
    .replace(ENTITY, (_all, name: string) => decodeEntity(name))
    .trim();
}

/**
 * Removes ruby readings, `<rt>…</rt>` and `<rp>…</rp>`, in one pass: the next closing tag of each kind
 * is searched for only when the last one found lies behind, and not at all once none is left.
 */
function removeRuby(line: string): string {
  if (!/<r[tp]/i.test(line)) return line;
  const nextClose: Record<'rt' | 'rp', { at: number; length: number } | null | undefined> = { rt: undefined, rp: undefined };
  let out = '';
  let kept = 0;
  RUBY_OPEN.lastIndex = 0;
  for (let open = RUBY_OPEN.exec(line); open; open = RUBY_OPEN.exec(line)) {
    const kind = open[1].toLowerCase() as 'rt' | 'rp';
    const from = open.index + open[0].length;
    let close = nextClose[kind];
    if (close === null) continue; // no closing tag of this kind after here
    if (close === undefined || close.at < from) {
      const re = RUBY_CLOSE[kind];
      re.lastIndex = from;
      const m = re.exec(line);
      close = m ? { at: m.index, length: m[0].length } : null;
      nextClose[kind] = close;
      if (!close) continue;
    }
    out += line.slice(kept, open.index);
    kept = close.at + close.length;
    RUBY_OPEN.lastIndex = kept;
  }
  return kept ? out + line.slice(kept) : line;
}

function decodeEntity(name: string): string {
  const lower = name.toLowerCase();
  if (lower.startsWith('#')) {
    const code = lower.startsWith('#x') ? parseInt(lower.slice(2), 16) : parseInt(lower.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
  }
  return NAMED[lower] ?? '';
}
