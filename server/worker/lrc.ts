/** A transcribed line: start and end in seconds from the start of the track. */
export interface TimedText {
  start: number;
  end: number;
  text: string;
}

/** `MM:SS.CC`, hundredths, minutes not capped (`75:02.10`): the LRC form AI lyrics use (api-contract §5.7). */
export function lrcTime(seconds: number): string {
  const centis = Math.max(0, Math.round(seconds * 100));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(centis / 6000))}:${pad(Math.floor((centis % 6000) / 100))}.${pad(centis % 100)}`;
}

/** One line of text: inner line breaks and runs of spaces collapsed. */
export const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();

/**
 * LRC text: `[MM:SS.CC] text` per line, in time order, blank lines dropped. With `translations`
 * (same length as `lines`) each line is followed by its translation under the same timestamp.
 */
export function toAiLrc(lines: readonly TimedText[], translations?: readonly string[]): string {
  const out: string[] = [];
  const order = lines.map((line, i) => ({ line, i })).sort((a, b) => a.line.start - b.line.start || a.i - b.i);
  for (const { line, i } of order) {
    const text = oneLine(line.text);
    if (!text) continue;
    const stamp = `[${lrcTime(line.start)}]`;
    out.push(`${stamp} ${text}`);
    const tr = translations ? oneLine(translations[i] ?? '') : '';
    if (tr && tr !== text) out.push(`${stamp} ${tr}`);
  }
  return out.length ? out.join('\n') + '\n' : '';
}
