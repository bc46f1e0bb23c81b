/**
 * Garbled names are produced the way unzip tools produce them: a real Japanese or Chinese name is
 * encoded (Shift-JIS, GBK, Big5, UTF-8) and the bytes are decoded with the wrong code page (CP437,
 * Latin-1, Windows-1252).
 */
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { repairName } from '../../server/media/mojibake.js';

const MISREADS: Record<string, (bytes: Buffer) => string> = {
  cp437: (bytes) => iconv.decode(bytes, 'cp437'),
  latin1: (bytes) => bytes.toString('latin1'),
  'windows-1252': (bytes) => new TextDecoder('windows-1252').decode(bytes),
};

const SOURCES: Record<string, (name: string) => Buffer> = {
  shift_jis: (name) => iconv.encode(name, 'cp932'),
  gbk: (name) => iconv.encode(name, 'gbk'),
  big5: (name) => iconv.encode(name, 'cp950'),
  'utf-8': (name) => Buffer.from(name, 'utf8'),
};

const JAPANESE = [
  'トラック01_ささやき.mp3',
  '01.おはよう（SEあり）.wav',
  '【特典】フリートーク.mp3',
  '02_耳かき（右耳）.wav',
  '【囁き】あまあまお姉さんの癒し添い寝【バイノーラル】',
  'トラック2：マッサージ',
  'はじめにお読みください.txt',
  'SEなし',
  'SE無し版',
  '効果音なし',
  'ハイレゾ版',
  '表紙.jpg',
  '台本.txt',
  '02_耳舐め.wav',
  '雨の日の図書館',
  '猫耳メイドのご奉仕',
  'ダミーヘッドマイク収録',
];
const SIMPLIFIED = ['第一章 睡前故事.mp3', '中文字幕', '01_开场白.mp3', '说明.txt', '第二章_哄睡.mp3', '译者的话.txt', '姐姐的温柔催眠', '无音效版'];
const TRADITIONAL = ['繁體中文字幕', '翻譯說明.txt', '第一章_開場.mp3', '無音效版', '封面圖片', '晚安故事'];

const cases: [string, string, string][] = [];
for (const [names, sources] of [
  [JAPANESE, ['shift_jis', 'gbk', 'utf-8']],
  [SIMPLIFIED, ['gbk', 'utf-8']],
  [TRADITIONAL, ['big5', 'gbk', 'utf-8']],
] as const) {
  for (const name of names) for (const source of sources) for (const misread of Object.keys(MISREADS)) cases.push([name, source, misread]);
}

describe('repairName', () => {
  it.each(cases)('restores %s from %s bytes read as %s', (name, source, misread) => {
    const garbled = MISREADS[misread](SOURCES[source](name));
    expect(garbled).not.toBe(name);
    expect(repairName(garbled)).toBe(name);
  });

  it.each([...JAPANESE, ...SIMPLIFIED, ...TRADITIONAL, 'CV.藤田茜', '音声'])('leaves the correct name %s alone (idempotent)', (name) => {
    expect(repairName(name)).toBeNull();
  });

  it.each([
    'track01.mp3',
    'README',
    '',
    'Café Mélodie.mp3',
    'Müller Übung.mp3',
    'canción.mp3',
    'Ångström',
    'Beyoncé - Déjà vu.mp3',
    'Crème brûlée.wav',
    'São Paulo',
    'Zoë',
    'naïve café',
    'Dvořák',
    'Gdańsk',
    'Привет.mp3',
    'Ελληνικά',
    '½ time',
    '© 2020',
    '±5dB',
    'ÄÖÜ äöü ß',
  ])('leaves the correct Latin/ASCII/other name %j alone', (name) => {
    expect(repairName(name)).toBeNull();
  });

  it('never repairs any pair of common accented words', () => {
    const words =
      'café résumé naïve façade fiancée jalapeño piñata señor Zürich München Köln Österreich Straße Ærø Søren Malmö Göteborg Kraków Łódź Škoda Brontë Noël Citroën Hélène Chloé Pokémon Björk Þór déjà crème smörgåsbord Françoise'.split(
        ' ',
      );
    const repaired: string[] = [];
    for (const a of words) for (const b of words) for (const name of [`${a} ${b}.mp3`, `${a}_${b}`]) if (repairName(name) !== null) repaired.push(name);
    expect(repaired).toEqual([]);
  });

  it('repairs a UTF-8 Latin name read as Latin-1', () => {
    expect(repairName(Buffer.from('Café Müller.mp3').toString('latin1'))).toBe('Café Müller.mp3');
  });

  it('refuses what it cannot judge: a single ideograph or kana, lost bytes', () => {
    expect(repairName(iconv.decode(iconv.encode('ト.mp3', 'cp932'), 'cp437'))).toBeNull();
    expect(repairName('\ufffd\ufffdabc')).toBeNull();
  });

  it('is idempotent on its own output', () => {
    for (const name of JAPANESE) {
      const repaired = repairName(iconv.decode(iconv.encode(name, 'cp932'), 'cp437'));
      expect(repaired).toBe(name);
      expect(repairName(repaired!)).toBeNull();
    }
  });

  it('never puts a path separator into a name', () => {
    // 0x5C (backslash) is a Shift-JIS trail byte: 表 = 95 5C, ソ = 83 5C.
    const garbled = iconv.decode(iconv.encode('表示ソフト.txt', 'cp932'), 'cp437');
    expect(garbled).toContain('\\');
    expect(repairName(garbled)).toBe('表示ソフト.txt');
  });
});
