import { describe, expect, it } from 'vitest';
import { AppError } from '../../server/domain/errors.js';
import { FAR_FUTURE_MS, formatClockTime, formatLrcTime, linesToSave, parseLrc, parseVtt, toLrc, toWebVtt, type EditableLyricLine } from '../../server/domain/lyrics/index.js';

describe('timestamp formatting', () => {
  it.each([
    [0, '00:00:00.000'],
    [1, '00:00:00.001'],
    [61_001, '00:01:01.001'],
    [3_723_456, '01:02:03.456'],
    [FAR_FUTURE_MS, '99:59:59.999'],
    [360_000_000, '100:00:00.000'],
    [1234.6, '00:00:01.235'],
  ])('formatClockTime(%d) = %s', (ms, text) => {
    expect(formatClockTime(ms)).toBe(text);
  });

  it('formats SRT times with a comma', () => {
    expect(formatClockTime(1500, ',')).toBe('00:00:01,500');
  });

  it.each([
    [0, '00:00.00'],
    [1234, '00:01.23'],
    [1235, '00:01.24'],
    [59_999, '01:00.00'],
    [62_340, '01:02.34'],
    [4_502_100, '75:02.10'],
    [7_200_000, '120:00.00'],
  ])('formatLrcTime(%d) = %s (hundredths, minutes uncapped)', (ms, text) => {
    expect(formatLrcTime(ms)).toBe(text);
  });
});

describe('toWebVtt (save-lrc)', () => {
  it('writes the header, then one cue per line separated by blank lines', () => {
    const vtt = toWebVtt([
      { time: 1000, timeEnd: 2000, text: 'one' },
      { time: 3000, timeEnd: 4500, text: 'two' },
    ]);
    expect(vtt).toBe('WEBVTT\n\n00:00:01.000 --> 00:00:02.000\none\n\n00:00:03.000 --> 00:00:04.500\ntwo\n');
  });

  it('ends a line without timeEnd 1 ms before the next line, and the last one far in the future', () => {
    const vtt = toWebVtt([
      { time: 1000, text: 'a' },
      { time: 2500, text: 'b' },
    ]);
    expect(vtt).toBe('WEBVTT\n\n00:00:01.000 --> 00:00:02.499\na\n\n00:00:02.500 --> 99:59:59.999\nb\n');
  });

  it('never ends a line before its own start (two lines at the same time)', () => {
    const lines = parseVtt(
      toWebVtt([
        { time: 1000, text: 'a' },
        { time: 1000, text: 'b' },
      ]),
    );
    expect(lines[0]).toEqual({ time: 1000, timeEnd: 1000, text: 'a' });
  });

  it('drops deleted lines, and the next kept line sets the end', () => {
    const vtt = toWebVtt([
      { time: 1000, text: 'kept' },
      { time: 2000, text: 'gone', deleted: true },
      { time: 3000, text: 'also kept' },
    ]);
    expect(vtt).not.toContain('gone');
    expect(vtt).toContain('00:00:01.000 --> 00:00:02.999\nkept');
  });

  it('refuses times of 100 hours or more (milliseconds), and keeps the last instant below', () => {
    const HOUR = 3_600_000;
    for (const line of [
      { time: 1e308, text: 'a' },
      { time: 100 * HOUR, text: 'a' },
      { time: 0, timeEnd: 1e308, text: 'a' },
      { time: 0, timeEnd: 100 * HOUR, text: 'a' },
    ]) {
      expect(() => linesToSave([line]), JSON.stringify(line)).toThrow(expect.objectContaining({ status: 400, code: 'LYRIC_LINE_INVALID' }));
    }
    const last = 100 * HOUR - 1;
    const vtt = toWebVtt([{ time: last, text: 'end' }]);
    expect(vtt).toContain('99:59:59.999 --> 99:59:59.999\nend');
    expect(parseVtt(vtt)).toEqual([{ time: last, timeEnd: last, text: 'end' }]);
  });

  it('strips client-only fields', () => {
    const line: EditableLyricLine = { time: 1000, text: 'a', extLrc: { translation: 'x' }, deleted: false };
    expect(linesToSave([line])).toEqual([{ time: 1000, text: 'a' }]);
  });

  it('sorts lines by time (stable)', () => {
    const vtt = toWebVtt([
      { time: 3000, timeEnd: 3500, text: 'c' },
      { time: 1000, timeEnd: 1500, text: 'a' },
      { time: 3000, timeEnd: 3600, text: 'd' },
    ]);
    expect(parseVtt(vtt).map((l) => l.text)).toEqual(['a', 'c', 'd']);
  });

  it('does not write blank lines, but a blank line still ends the one before it', () => {
    const vtt = toWebVtt([
      { time: 1000, text: 'a' },
      { time: 2000, text: '   ' },
      { time: 5000, text: 'b' },
    ]);
    expect(parseVtt(vtt)).toEqual([
      { time: 1000, timeEnd: 1999, text: 'a' },
      { time: 5000, timeEnd: FAR_FUTURE_MS, text: 'b' },
    ]);
  });

  it('keeps multi-line text without blank lines and escapes markup characters', () => {
    const vtt = toWebVtt([{ time: 0, timeEnd: 1000, text: 'first\n\n second \nA --> B & <i>' }]);
    expect(vtt).toBe('WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nfirst\nsecond\nA --&gt; B &amp; &lt;i&gt;\n');
    expect(parseVtt(vtt)).toEqual([{ time: 0, timeEnd: 1000, text: 'first\nsecond\nA --> B & <i>' }]);
  });

  it('ignores a timeEnd that lies before the start', () => {
    expect(toWebVtt([{ time: 5000, timeEnd: 1000, text: 'x' }])).toContain('00:00:05.000 --> 99:59:59.999');
  });

  it('writes only the header for no lines', () => {
    expect(toWebVtt([])).toBe('WEBVTT\n');
    expect(toWebVtt([{ time: 0, text: 'x', deleted: true }])).toBe('WEBVTT\n');
  });

  it.each([
    ['negative time', { time: -1, text: 'x' }],
    ['NaN time', { time: Number.NaN, text: 'x' }],
    ['infinite time', { time: Number.POSITIVE_INFINITY, text: 'x' }],
    ['string time', { time: '1000', text: 'x' } as unknown as EditableLyricLine],
    ['non-string text', { time: 0, text: 5 } as unknown as EditableLyricLine],
    ['negative timeEnd', { time: 0, timeEnd: -5, text: 'x' }],
  ])('rejects a line with a %s as a 400 naming the line', (_name, bad) => {
    const run = () => toWebVtt([{ time: 0, text: 'ok' }, bad as EditableLyricLine]);
    expect(run).toThrow(AppError);
    expect(run).toThrow(/第 2 行/);
  });

  it('round-trips through parseVtt', () => {
    const lines = [
      { time: 500, timeEnd: 4000, text: 'おはようございます' },
      { time: 4_502_100, timeEnd: 4_510_000, text: 'おやすみ\nなさい' },
    ];
    expect(parseVtt(toWebVtt(lines))).toEqual(lines);
  });
});

describe('toLrc', () => {
  it('writes `[MM:SS.CC] text` lines with uncapped minutes', () => {
    expect(
      toLrc([
        { time: 0, text: 'start' },
        { time: 4_502_100, text: 'late' },
      ]),
    ).toBe('[00:00.00] start\n[75:02.10] late\n');
  });

  it('drops deleted and blank lines, joins multi-line text with a space, sorts by time', () => {
    expect(
      toLrc([
        { time: 2000, text: 'b\nc' },
        { time: 1000, text: 'a' },
        { time: 1500, text: ' ', deleted: false },
        { time: 1700, text: 'gone', deleted: true },
      ]),
    ).toBe('[00:01.00] a\n[00:02.00] b c\n');
  });

  it('writes nothing for no lines', () => {
    expect(toLrc([])).toBe('');
  });

  it('round-trips through parseLrc at hundredth precision', () => {
    const lines = [
      { time: 1230, text: 'いち' },
      { time: 62_340, text: 'に' },
      { time: 4_502_100, text: 'さん' },
    ];
    expect(parseLrc(toLrc(lines))).toEqual(lines);
  });
});
