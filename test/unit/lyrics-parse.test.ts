import { describe, expect, it } from 'vitest';
import { AppError } from '../../server/domain/errors.js';
import { detectLyricFormat, lyricFormatOfExtension, parseLrc, parseLyric, parseLyricWithFormat, parseSrt, parseVtt } from '../../server/domain/lyrics/index.js';

describe('parseLrc', () => {
  it.each([
    ['[mm:ss]', '[01:02]a', 62_000],
    ['[mm:ss.x] tenths', '[01:02.5]a', 62_500],
    ['[mm:ss.xx] hundredths', '[01:02.34]a', 62_340],
    ['[mm:ss.xxx] milliseconds', '[01:02.345]a', 62_345],
    ['[mm:ss:xx] colon hundredths', '[01:02:34]a', 62_340],
    ['digits past milliseconds dropped', '[00:00.12345]a', 123],
    ['single-digit minutes and seconds', '[1:2.3]a', 62_300],
    ['minutes above 59', '[75:02.10]a', 4_502_100],
    ['three-digit minutes', '[120:00.00]a', 7_200_000],
  ])('reads %s', (_name, line, time) => {
    expect(parseLrc(line)).toEqual([{ time, text: 'a' }]);
  });

  it('ignores lines whose time tag has more than three components', () => {
    expect(parseLrc('[00:01:02.03]too long\n[00:01.00]kept\n[1.2.3.4]also too long')).toEqual([{ time: 1000, text: 'kept' }]);
  });

  it('ignores a whole line when one of its tags is over-long', () => {
    expect(parseLrc('[00:01.00][00:00:02.00]x')).toEqual([]);
  });

  it('removes blank lines and lines that are only a tag', () => {
    expect(parseLrc('[00:01.00]\n\n[00:02.00]   \n   \n[00:03.00]  text  \n')).toEqual([{ time: 3000, text: 'text' }]);
  });

  it('gives one entry per time tag on a line', () => {
    expect(parseLrc('[00:10.00][00:01.00][00:05.50]chorus')).toEqual([
      { time: 1000, text: 'chorus' },
      { time: 5500, text: 'chorus' },
      { time: 10_000, text: 'chorus' },
    ]);
  });

  it('skips metadata tags and lines without a time tag', () => {
    const lrc = ['[ti:Title]', '[ar:Artist]', '[al:Album]', '[by:someone]', '[length: 03:20]', '[re:tool]', 'plain text', '[00:01.00]line'].join('\n');
    expect(parseLrc(lrc)).toEqual([{ time: 1000, text: 'line' }]);
  });

  it('keeps a bracket that starts the text itself', () => {
    expect(parseLrc('[00:01.00][笑]ふふっ')).toEqual([{ time: 1000, text: '[笑]ふふっ' }]);
  });

  it('sorts by time and keeps file order for equal times', () => {
    expect(parseLrc('[00:03.00]c\n[00:01.00]a\n[00:03.00]d\n[00:02.00]b')).toEqual([
      { time: 1000, text: 'a' },
      { time: 2000, text: 'b' },
      { time: 3000, text: 'c' },
      { time: 3000, text: 'd' },
    ]);
  });

  it.each([
    ['a positive offset shows lines earlier', '[offset:500]', [500, 1500]],
    ['a negative offset shows lines later', '[offset:-250]', [1250, 2250]],
    ['an explicit plus sign', '[offset:+1000]', [0, 1000]],
    ['times never go below zero', '[offset:5000]', [0, 0]],
  ])('applies [offset]: %s', (_name, tag, times) => {
    expect(parseLrc(`${tag}\n[00:01.00]a\n[00:02.00]b`).map((l) => l.time)).toEqual(times);
  });

  it('applies an offset that appears after the lines', () => {
    expect(parseLrc('[00:01.00]a\n[offset:100]').map((l) => l.time)).toEqual([900]);
  });

  it('removes enhanced-LRC word times', () => {
    expect(parseLrc('[00:01.00]<00:01.00>お<00:01.50>は<00:02.00>よう')).toEqual([{ time: 1000, text: 'おはよう' }]);
  });

  it('handles CRLF, CR, a BOM and surrounding white space', () => {
    expect(parseLrc('\uFEFF[00:01.00]a\r\n  [00:02.00]b  \r[00:03.00]c')).toEqual([
      { time: 1000, text: 'a' },
      { time: 2000, text: 'b' },
      { time: 3000, text: 'c' },
    ]);
  });

  it('reads the AI worker form `[MM:SS.CC] text`', () => {
    expect(parseLrc('[00:00.00] 始めます\n[75:02.10] 終わり')).toEqual([
      { time: 0, text: '始めます' },
      { time: 4_502_100, text: '終わり' },
    ]);
  });

  it('gives no lines for empty or non-LRC text', () => {
    expect(parseLrc('')).toEqual([]);
    expect(parseLrc('just words\n[not a tag]')).toEqual([]);
  });
});

describe('parseSrt', () => {
  it('reads numbered cues with start, end and multi-line text', () => {
    const srt = '1\n00:00:01,000 --> 00:00:02,500\nfirst\nsecond line\n\n2\n00:00:03,000 --> 00:00:04,000\nthird\n';
    expect(parseSrt(srt)).toEqual([
      { time: 1000, timeEnd: 2500, text: 'first\nsecond line' },
      { time: 3000, timeEnd: 4000, text: 'third' },
    ]);
  });

  it.each([
    ['comma milliseconds', '00:00:01,250 --> 00:00:02,000', 1250],
    ['dot milliseconds', '00:00:01.250 --> 00:00:02.000', 1250],
    ['two-digit fraction', '00:00:01,25 --> 00:00:02,00', 1250],
    ['no hours', '00:01,250 --> 00:02,000', 1250],
    ['hours above 99', '100:00:00,000 --> 100:00:01,000', 360_000_000],
    ['no spaces around the arrow', '00:00:01,250-->00:00:02,000', 1250],
  ])('reads timing with %s', (_name, timing, time) => {
    expect(parseSrt(`1\n${timing}\ntext`)[0].time).toBe(time);
  });

  it('tolerates missing cue numbers, CRLF, extra blank lines and a BOM', () => {
    const srt = '\uFEFF\r\n\r\n00:00:01,000 --> 00:00:02,000\r\na\r\n\r\n\r\n\r\n00:00:03,000 --> 00:00:04,000\r\nb\r\n';
    expect(parseSrt(srt).map((l) => l.text)).toEqual(['a', 'b']);
  });

  it('tolerates a missing blank line between cues', () => {
    const srt = '1\n00:00:01,000 --> 00:00:02,000\na\n2\n00:00:03,000 --> 00:00:04,000\nb';
    expect(parseSrt(srt)).toEqual([
      { time: 1000, timeEnd: 2000, text: 'a' },
      { time: 3000, timeEnd: 4000, text: 'b' },
    ]);
  });

  it('strips SRT markup and ASS overrides', () => {
    const srt = '1\n00:00:01,000 --> 00:00:02,000\n{\\an8}<i>italic</i> <b>bold</b> <font color="#ff0000">red</font>';
    expect(parseSrt(srt)[0].text).toBe('italic bold red');
  });

  it('keeps a lone "<" that is not markup', () => {
    expect(parseSrt('1\n00:00:01,000 --> 00:00:02,000\n1 < 2 and 3 > 2')[0].text).toBe('1 < 2 and 3 > 2');
  });

  it('drops cues whose text is blank and sorts by start', () => {
    const srt = '1\n00:00:05,000 --> 00:00:06,000\nlate\n\n2\n00:00:01,000 --> 00:00:02,000\n<i> </i>\n\n3\n00:00:02,000 --> 00:00:03,000\nearly';
    expect(parseSrt(srt).map((l) => l.text)).toEqual(['early', 'late']);
  });

  it('leaves out an end that lies before the start', () => {
    expect(parseSrt('1\n00:00:05,000 --> 00:00:04,000\nx')).toEqual([{ time: 5000, text: 'x' }]);
  });
});

describe('parseVtt', () => {
  it('reads cues with and without ids, skipping the header', () => {
    const vtt = 'WEBVTT\n\nintro\n00:01.000 --> 00:02.000\nwith id\n\n00:03.000 --> 00:04.000\nwithout id\n\n3\n00:00:05.000 --> 00:00:06.000\nnumeric id';
    expect(parseVtt(vtt)).toEqual([
      { time: 1000, timeEnd: 2000, text: 'with id' },
      { time: 3000, timeEnd: 4000, text: 'without id' },
      { time: 5000, timeEnd: 6000, text: 'numeric id' },
    ]);
  });

  it('ignores cue settings', () => {
    expect(parseVtt('WEBVTT\n\n00:01.000 --> 00:02.000 align:start position:10% line:0\ntext')).toEqual([{ time: 1000, timeEnd: 2000, text: 'text' }]);
  });

  it('skips the header block, NOTE, STYLE and REGION blocks', () => {
    const vtt = [
      'WEBVTT - title',
      'Kind: captions',
      'Language: ja',
      '',
      'REGION',
      'id:fred width:40%',
      '',
      'STYLE',
      '::cue { color: lime }',
      '',
      'NOTE a comment',
      'on two lines',
      '',
      '00:01.000 --> 00:02.000',
      'only cue',
      '',
      'NOTE trailing',
    ].join('\n');
    expect(parseVtt(vtt)).toEqual([{ time: 1000, timeEnd: 2000, text: 'only cue' }]);
  });

  it.each([
    ['class spans', '<c.yellow.bg_blue>text</c>', 'text'],
    ['italic, bold, underline', '<i>a</i><b>b</b><u>c</u>', 'abc'],
    ['voice spans', '<v Roger Bingham>Hello</v>', 'Hello'],
    ['voice with class', '<v.loud Esme>Hi', 'Hi'],
    ['language spans', '<lang ja>日本語</lang>', '日本語'],
    ['inline timestamps', 'one <00:00:01.500>two <00:02.000>three', 'one two three'],
    ['ruby readings', '<ruby>漢字<rt>かんじ</rt></ruby>を読む', '漢字を読む'],
    ['entities', 'Tom &amp; Jerry &lt;3 &gt; &#12354;&#x3044;&nbsp;!', 'Tom & Jerry <3 > あい !'],
  ])('strips markup: %s', (_name, cue, text) => {
    expect(parseVtt(`WEBVTT\n\n00:01.000 --> 00:02.000\n${cue}`)[0].text).toBe(text);
  });

  it('reads HH:MM:SS.mmm and MM:SS.mmm timestamps', () => {
    expect(parseVtt('WEBVTT\n\n01:02:03.456 --> 01:02:04.000\na\n\n02:03.456 --> 02:04.000\nb').map((l) => l.time)).toEqual([123_456, 3_723_456]);
  });
});

describe('format detection and parseLyric', () => {
  it.each([
    ['WEBVTT\n\n00:01.000 --> 00:02.000\nx', 'vtt'],
    ['\uFEFFWEBVTT\n', 'vtt'],
    ['1\n00:00:01,000 --> 00:00:02,000\nx', 'srt'],
    ['[ar:x]\n[00:01.00]x', 'lrc'],
    ['hello world', null],
    ['', null],
  ])('detectLyricFormat(%j) = %s', (text, format) => {
    expect(detectLyricFormat(text)).toBe(format);
  });

  it.each([
    ['.lrc', 'lrc'],
    ['SRT', 'srt'],
    ['.VTT', 'vtt'],
    ['folder/track.mp3.vtt', 'vtt'],
    ['.ass', null],
    ['.txt', null],
  ])('lyricFormatOfExtension(%s) = %s', (ext, format) => {
    expect(lyricFormatOfExtension(ext)).toBe(format);
  });

  it('dispatches on the extension', () => {
    expect(parseLyric('[00:01.00]a', '.lrc')).toEqual([{ time: 1000, text: 'a' }]);
    expect(parseLyric('1\n00:00:01,000 --> 00:00:02,000\na', '.srt')).toEqual([{ time: 1000, timeEnd: 2000, text: 'a' }]);
    expect(parseLyric('WEBVTT\n\n00:01.000 --> 00:02.000\na', '.vtt')).toEqual([{ time: 1000, timeEnd: 2000, text: 'a' }]);
  });

  it('trusts the content when the extension lies', () => {
    expect(parseLyricWithFormat('1\n00:00:01,000 --> 00:00:02,000\na', '.lrc')).toEqual({ format: 'srt', lines: [{ time: 1000, timeEnd: 2000, text: 'a' }] });
    expect(parseLyricWithFormat('[00:01.00]a', '.vtt')).toEqual({ format: 'lrc', lines: [{ time: 1000, text: 'a' }] });
    expect(parseLyricWithFormat('WEBVTT\n\n00:01.000 --> 00:02.000\na', '.srt').format).toBe('vtt');
  });

  it('gives an empty list for an empty file of a known type', () => {
    expect(parseLyric('', '.lrc')).toEqual([]);
  });

  it('rejects text in no known format with an unknown extension as a 400', () => {
    const run = () => parseLyric('[Script Info]\nTitle: x', '.ass');
    expect(run).toThrow(AppError);
    expect(run).toThrow(/\.ass/);
    try {
      run();
    } catch (err) {
      expect((err as AppError).status).toBe(400);
    }
  });
});
