/**
 * Lyric bombs (issue 18 item 2): whatever a lyric holds, parsing it is linear and its result bounded.
 * The inputs are sized so that the old parsers needed seconds to minutes (quadratic) or answered with
 * tens of thousands of copies of a long line; the time bounds are generous (a loaded machine), the
 * counts exact.
 */
import { describe, expect, it } from 'vitest';
import { parseLrc, parseLyric, parseCues } from '../../server/domain/lyrics/index.js';
import { MAX_LYRIC_LINES, MAX_LYRIC_TEXT_CHARS, MAX_TIME_TAGS_PER_LINE } from '../../server/domain/lyrics/limits.js';
import { accidentalUtf8 } from '../../server/media/charset.js';

/** Milliseconds `f` takes, and its result. */
function timed<T>(f: () => T): { ms: number; value: T } {
  const start = performance.now();
  const value = f();
  return { ms: performance.now() - start, value };
}

describe('lyric parsing is bounded', () => {
  it('ignores a line with more than MAX_TIME_TAGS_PER_LINE tags, reading no further', () => {
    const tags = (k: number) => '[0:0]'.repeat(k);
    expect(parseLrc(tags(MAX_TIME_TAGS_PER_LINE) + 'a')).toHaveLength(MAX_TIME_TAGS_PER_LINE);
    expect(parseLrc(`${tags(MAX_TIME_TAGS_PER_LINE + 1)}a\n[00:01.00]next`)).toEqual([{ time: 1000, text: 'next' }]);
    expect(parseLrc(tags(5000) + 'a'.repeat(100))).toEqual([]);

    // the reported bomb
    const bomb = tags(60_000) + 'a'.repeat(650_000);
    const { ms, value } = timed(() => parseLrc(bomb));
    expect(value).toEqual([]);
    expect(ms).toBeLessThan(1000);
  });

  it('keeps a line with a few repeated tags whole, and later lines too', () => {
    expect(parseLrc('[00:09.00][00:01.00]chorus\n[00:05.00]verse')).toEqual([
      { time: 1000, text: 'chorus' },
      { time: 5000, text: 'verse' },
      { time: 9000, text: 'chorus' },
    ]);
  });

  it('stops at MAX_LYRIC_LINES lines (LRC and cues)', () => {
    const lrc = Array.from({ length: MAX_LYRIC_LINES + 500 }, (_, i) => `[00:${String(i % 60).padStart(2, '0')}.00]l${i}`).join('\n');
    const lines = parseLrc(lrc);
    expect(lines).toHaveLength(MAX_LYRIC_LINES);
    expect(lines.some((l) => l.text === `l${MAX_LYRIC_LINES}`)).toBe(false);

    const vtt = 'WEBVTT\n\n' + Array.from({ length: MAX_LYRIC_LINES + 500 }, (_, i) => `00:00:01.000 --> 00:00:02.000\nc${i}\n`).join('\n');
    expect(parseLyric(vtt, '.vtt')).toHaveLength(MAX_LYRIC_LINES);
  });

  it('stops at MAX_LYRIC_TEXT_CHARS of text over all lines', () => {
    const long = 'x'.repeat(100_000);
    const lrc = Array.from({ length: 40 }, (_, i) => `[00:${String(i).padStart(2, '0')}.00]${long}`).join('\n');
    const lines = parseLrc(lrc);
    expect(lines).toHaveLength(MAX_LYRIC_TEXT_CHARS / long.length);
  });

  it('removes unclosed cue markup in linear time', () => {
    const cue = (text: string) => `00:00:01.000 --> 00:00:02.000\n${text}\n`;
    for (const [name, text] of [
      ['unclosed <rt>', '<rt>'.repeat(25_000) + 'tail'],
      ['<rt> closed by </rp>', '<rt>'.repeat(25_000) + '</rp>tail'],
      ['unclosed {\\', '{\\'.repeat(50_000) + 'tail'],
      ['<rt  with no >', '<rt '.repeat(25_000) + 'tail'],
    ] as const) {
      const { ms, value } = timed(() => parseCues(cue(text)));
      expect(value.length, name).toBeLessThanOrEqual(1);
      expect(ms, name).toBeLessThan(2000);
    }
    // markup is still removed as before
    expect(parseCues(cue('<ruby>漢<rp>(</rp><rt>かん</rt><rp>)</rp></ruby>字 {\\an8}<i>x</i> &amp;'))).toEqual([{ time: 1000, timeEnd: 2000, text: '漢字 x &' }]);
  });

  it('checks a long text for accidental UTF-8 in one pass, with the same answers', () => {
    expect(accidentalUtf8('a'.repeat(2_000_000))).toBe(false);
    expect(accidentalUtf8('лл')).toBe(true);
    expect(accidentalUtf8('xлл')).toBe(true);
    expect(accidentalUtf8('éa')).toBe(false);
    expect(accidentalUtf8('😀')).toBe(false);
    expect(accidentalUtf8('Café')).toBe(false);
    expect(accidentalUtf8('歌')).toBe(false);
  });
});
