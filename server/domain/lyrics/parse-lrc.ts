import type { LyricLine } from './types.js';
import { fractionToMs } from './timestamps.js';
import { LineBudget, MAX_TIME_TAGS_PER_LINE } from './limits.js';
import { runSteps, STEP_LINES, type Steps } from './steps.js';

/**
 * LRC parser (docs/API.md#lyrics).
 *
 * - `[mm:ss]`, `[mm:ss.x]`, `[mm:ss.xx]`, `[mm:ss.xxx]` and `[mm:ss:xx]`; minutes are uncapped (`[75:02.10]`).
 * - A line whose time tag has more than three numeric components (`[01:02:03.04]`) is ignored.
 * - Several leading time tags (`[00:01.00][00:09.00]la`) give one entry each.
 * - `[offset:±ms]` shifts every line: a positive offset shows lyrics earlier. Times never go below 0.
 * - Metadata tags (`[ar:…]`, `[ti:…]`, `[length:…]`, …) and lines without a time tag are skipped.
 * - Enhanced-LRC word times (`<00:01.20>`) are removed from the text; blank lines are dropped.
 * - The result is sorted by time; lines with the same time keep their file order.
 * - Bounded work (see `limits.ts`): a line with more than {@link MAX_TIME_TAGS_PER_LINE} time tags is
 *   ignored, and reading stops at the line or text budget. Time is linear in the input.
 */
export function parseLrc(source: string): LyricLine[] {
  return runSteps(parseLrcSteps(source));
}

/** {@link parseLrc} in steps (see `steps.ts`). */
export function* parseLrcSteps(source: string): Steps<LyricLine[]> {
  const entries: { time: number; text: string; order: number }[] = [];
  const budget = new LineBudget();
  let offset = 0;
  let n = 0;

  read: for (const raw of splitLines(source)) {
    if (++n % STEP_LINES === 0) yield;
    const line = raw.trim();
    if (!line.startsWith('[')) continue;

    const offsetMatch = OFFSET_TAG.exec(line);
    if (offsetMatch) {
      offset = Number(offsetMatch[1]);
      continue;
    }

    const tagged = readTimeTags(line);
    if (!tagged) continue;
    const text = tagged.text.replace(WORD_TIME, '').trim();
    if (!text) continue;
    for (const time of tagged.times) {
      if (!budget.take(text.length)) break read;
      entries.push({ time, text, order: entries.length });
    }
  }

  yield;
  for (const e of entries) e.time = Math.max(0, e.time - offset);
  entries.sort((a, b) => a.time - b.time || a.order - b.order);
  yield;
  return entries.map(({ time, text }) => ({ time, text }));
}

const OFFSET_TAG = /^\[\s*offset\s*:\s*([+-]?\d+(?:\.\d+)?)\s*\]$/i;
/** Enhanced LRC (A2) per-word times inside the text. */
const WORD_TIME = /<\d+:\d+(?:[.:]\d+)?>/g;
/** Anything made only of digits, `:` and `.` is meant as a time tag. */
const TIME_LIKE = /^[\d:.]+$/;
const TIME_TAG = /^(\d+):(\d+)(?:[.:](\d+))?$/;

/** One bracketed tag at a position (sticky: `lastIndex` says where). */
const TAG_AT = /\[([^\]]*)\]/y;
/** Longest tag body read as a time: `[123:59.999]` is 11 characters; longer ones are malformed. */
const MAX_TIME_TAG_CHARS = 24;

/**
 * Reads the time tags at the start of a line. Returns null when the line carries no usable time tag
 * (metadata tag, malformed or over-long time tag) or more than {@link MAX_TIME_TAGS_PER_LINE} of them.
 * The line is walked once, never copied per tag.
 */
function readTimeTags(line: string): { times: number[]; text: string } | null {
  const times: number[] = [];
  let at = 0;
  for (;;) {
    TAG_AT.lastIndex = at;
    const m = TAG_AT.exec(line);
    if (!m) break;
    const body = m[1].trim();
    if (!TIME_LIKE.test(body)) break; // text that happens to start with a bracket, e.g. `[笑]`
    // no real lyric repeats a line this often: such a line is ignored, without reading the rest of it
    if (times.length === MAX_TIME_TAGS_PER_LINE) return null;
    const time = parseTimeTag(body);
    if (time === null) return null; // more than three components, or not mm:ss — the whole line is ignored
    times.push(time);
    at = TAG_AT.lastIndex;
  }
  return times.length ? { times, text: line.slice(at) } : null;
}

function parseTimeTag(body: string): number | null {
  if (body.length > MAX_TIME_TAG_CHARS || body.split(/[:.]/).length > 3) return null;
  const m = TIME_TAG.exec(body);
  if (!m) return null;
  return Number(m[1]) * 60_000 + Number(m[2]) * 1000 + fractionToMs(m[3] ?? '');
}

/** Lines of a text file, without a byte-order mark, for any line ending. */
export function splitLines(source: string): string[] {
  return source.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
}
