import { toLrc, type LyricLine } from '../domain/lyrics/index.js';

/** A transcribed line: start and end in seconds from the start of the track. */
export interface TimedText {
  start: number;
  end: number;
  text: string;
}

/** One line of text: inner line breaks and runs of spaces collapsed. */
export const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();

/**
 * LRC text of the AI lyrics (docs/API.md#lyrics): `[MM:SS.CC] text` per line, hundredths, minutes
 * uncapped, in time order, blank lines dropped. With `translations` (same length as `lines`) each line
 * is followed by its translation under the same timestamp (bilingual LRC).
 */
export function toAiLrc(lines: readonly TimedText[], translations?: readonly string[]): string {
  const out: LyricLine[] = [];
  lines.forEach((line, i) => {
    const text = oneLine(line.text);
    if (!text) return;
    const time = Math.max(0, line.start * 1000);
    out.push({ time, text });
    const tr = translations ? oneLine(translations[i] ?? '') : '';
    if (tr && tr !== text) out.push({ time, text: tr });
  });
  return toLrc(out);
}
