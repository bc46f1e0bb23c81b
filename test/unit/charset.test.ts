import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { accidentalUtf8, decodeText, scoreText, strictUtf8 } from '../../server/media/charset.js';

const enc = (text: string, codec: string): Buffer => {
  const bytes = iconv.encode(text, codec);
  expect(iconv.decode(bytes, codec)).toBe(text); // the sample must be encodable
  return bytes;
};

describe('decodeText: byte-order marks and UTF-16', () => {
  it.each([
    ['UTF-8 BOM', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('[00:01.00]あ')]), 'utf-8'],
    ['UTF-16 LE BOM', Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode('[00:01.00]あ', 'utf-16le')]), 'utf-16le'],
    ['UTF-16 BE BOM', Buffer.concat([Buffer.from([0xfe, 0xff]), iconv.encode('[00:01.00]あ', 'utf-16be')]), 'utf-16be'],
    ['BOM-less UTF-16 LE', iconv.encode('[00:01.00]あ\n[00:02.00]い', 'utf-16le'), 'utf-16le'],
    ['BOM-less UTF-16 BE', iconv.encode('[00:01.00]あ\n[00:02.00]い', 'utf-16be'), 'utf-16be'],
  ])('%s', (_name, bytes, encoding) => {
    const out = decodeText(bytes);
    expect(out.encoding).toBe(encoding);
    expect(out.text).toMatch(/^\[00:01\.00\]あ/);
  });

  it('decodes an empty buffer as empty UTF-8', () => {
    expect(decodeText(Buffer.alloc(0))).toEqual({ text: '', encoding: 'utf-8' });
  });

  it('accepts a plain Uint8Array, including a view into a larger buffer', () => {
    const backing = Buffer.from('xx[00:01.00]日本語yy');
    const view = new Uint8Array(backing.buffer, backing.byteOffset + 2, backing.length - 4);
    expect(decodeText(view)).toEqual({ text: '[00:01.00]日本語', encoding: 'utf-8' });
  });
});

describe('decodeText: UTF-8 first', () => {
  it.each(['plain ASCII [00:01.00] text', '日本語の歌詞です', '中文歌词', 'Café Müller', 'Привет', '絵文字 🎧'])('reads %j as UTF-8', (text) => {
    expect(decodeText(Buffer.from(text))).toEqual({ text, encoding: 'utf-8' });
  });

  it('does not take short GBK text for accidental UTF-8 (谢谢 is the bytes of лл)', () => {
    const bytes = enc('谢谢', 'gbk');
    expect(strictUtf8(bytes)).toBe('лл');
    expect(decodeText(bytes)).toEqual({ text: '谢谢', encoding: 'gb18030' });
  });

  it('keeps real two-byte UTF-8 text: Latin letters inside words are not an accident', () => {
    expect(accidentalUtf8('Café')).toBe(false);
    expect(accidentalUtf8('日本')).toBe(false);
    expect(accidentalUtf8('ascii')).toBe(false);
    expect(accidentalUtf8('лл')).toBe(true);
  });
});

describe('decodeText: legacy CJK encodings', () => {
  const long = {
    ja: '[00:01.00]今日はとてもいい天気ですね。\n[00:05.00]一緒にお散歩に行きませんか？\n[00:09.00]耳かきの時間ですよ～',
    hans: '[00:01.00]今天天气很好，我们一起去散步吧。\n[00:05.00]你觉得怎么样？\n[00:09.00]现在是掏耳朵的时间哦～',
    hant: '[00:01.00]今天天氣很好，我們一起去散步吧。\n[00:05.00]你覺得怎麼樣？\n[00:09.00]現在是掏耳朵的時間喔～',
  };

  it.each([
    ['Japanese in Shift-JIS', long.ja, 'cp932', 'shift_jis'],
    ['Japanese in EUC-JP', long.ja, 'euc-jp', 'euc-jp'],
    ['Japanese in GBK (saved on a Chinese system)', long.ja, 'gbk', 'gb18030'],
    ['Simplified Chinese in GBK', long.hans, 'gbk', 'gb18030'],
    ['Simplified Chinese in GB18030', long.hans, 'gb18030', 'gb18030'],
    ['Traditional Chinese in Big5', long.hant, 'cp950', 'big5'],
    ['Traditional Chinese in GBK', long.hant, 'gbk', 'gb18030'],
  ])('%s', (_name, text, codec, encoding) => {
    expect(decodeText(enc(text, codec))).toEqual({ text, encoding });
  });

  it.each([
    ['愛してる', 'cp932', 'shift_jis'],
    ['好き', 'cp932', 'shift_jis'],
    ['大好き♪', 'cp932', 'shift_jis'],
    ['おやすみ', 'cp932', 'shift_jis'],
    ['耳かき', 'cp932', 'shift_jis'],
    ['本編SEなし', 'cp932', 'shift_jis'],
    ['02.耳かき', 'cp932', 'shift_jis'],
    ['晚安', 'gbk', 'gb18030'],
    ['我爱你', 'gbk', 'gb18030'],
    ['早上好', 'gbk', 'gb18030'],
    ['休息一下', 'gbk', 'gb18030'],
    ['中文字幕', 'gbk', 'gb18030'],
    ['我愛你', 'cp950', 'big5'],
    ['喜歡你', 'cp950', 'big5'],
    ['中文字幕', 'cp950', 'big5'],
  ])('short text %s in %s', (text, codec, encoding) => {
    expect(decodeText(enc(text, codec))).toEqual({ text, encoding });
  });

  it('falls back to Windows-1252 for Latin text that is not UTF-8', () => {
    for (const text of ['café au lait', 'Müller', 'Crème brûlée', 'naïve résumé']) {
      expect(decodeText(enc(text, 'windows1252'))).toEqual({ text, encoding: 'windows-1252' });
    }
  });

  it('decodes a file larger than the detection sample completely', () => {
    const line = '[00:01.00]今日はとてもいい天気ですね。\n';
    const text = line.repeat(4000); // ~ 150 KB in Shift-JIS: the 64 KB sample cuts a character in half
    const out = decodeText(enc(text, 'cp932'));
    expect(out.encoding).toBe('shift_jis');
    expect(out.text).toBe(text);
  });
});

describe('scoreText', () => {
  it('scores real text high and misreadings low', () => {
    const real = scoreText('今日はいい天気', 'ja');
    const garbled = scoreText('ﾁ｢ﾃｱ', 'ja');
    expect(real.score).toBeGreaterThan(0.9);
    expect(garbled.score).toBeLessThan(0);
  });

  it('counts replacement, private-use and control characters as bad', () => {
    expect(scoreText('a\ufffdb\ue000\u0001', 'zh-hans').bad).toBe(3);
    expect(scoreText('plain\ttext\n', 'zh-hans')).toMatchObject({ bad: 0, nonAscii: 0, score: 0 });
  });

  it('judges ideographs by the language of the encoding', () => {
    // 们 is common simplified Chinese, absent from the Japanese level-1 kanji.
    expect(scoreText('们', 'zh-hans').score).toBe(1);
    expect(scoreText('们', 'ja').score).toBeLessThan(0);
  });

  it('penalises impossible kana sequences and an ideograph inside a Latin word', () => {
    expect(scoreText('ゅ', 'ja').score).toBeLessThan(0);
    expect(scoreText('きゅ', 'ja').score).toBe(1);
    expect(scoreText('Cr鑝e', 'zh-hans').score).toBeLessThan(0);
  });
});
