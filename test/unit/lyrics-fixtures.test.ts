/**
 * The same lyrics saved as LRC, SRT and WebVTT in many encodings (test/fixtures/lyrics, made by
 * generate.ts): every file must decode and parse to the same lines.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseLyric } from '../../server/domain/lyrics/index.js';
import { decodeText } from '../../server/media/charset.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/lyrics');
const expected = JSON.parse(readFileSync(path.join(root, 'expected.json'), 'utf8')) as Record<string, { time: number; text: string; timeEnd: number }[]>;

/** File label → the charset decodeText must report. */
const ENCODING_OF: Record<string, string> = {
  'utf-8': 'utf-8',
  'utf-8-bom': 'utf-8',
  'utf-16le': 'utf-16le',
  'utf-16le-bom': 'utf-16le',
  'utf-16be': 'utf-16be',
  'utf-16be-bom': 'utf-16be',
  shift_jis: 'shift_jis',
  'euc-jp': 'euc-jp',
  gbk: 'gb18030',
  gb18030: 'gb18030',
  big5: 'big5',
};

const files = Object.keys(expected).flatMap((lang) => readdirSync(path.join(root, lang)).map((file) => ({ lang, file })));

describe('lyric fixtures in every encoding', () => {
  it('has fixtures for all three languages and formats', () => {
    expect(files.length).toBeGreaterThanOrEqual(50);
    for (const ext of ['.lrc', '.srt', '.vtt']) expect(files.filter((f) => f.file.endsWith(ext)).length).toBe(files.length / 3);
  });

  it.each(files)('$lang/$file decodes with the right charset and parses to the expected lines', ({ lang, file }) => {
    const { text, encoding } = decodeText(readFileSync(path.join(root, lang, file)));
    const label = file.replace(/\.(lrc|srt|vtt)$/, '');
    expect(encoding).toBe(ENCODING_OF[label]);
    expect(text.startsWith('\uFEFF')).toBe(false);
    const lines = parseLyric(text, path.extname(file));
    const want = file.endsWith('.lrc') ? expected[lang].map(({ time, text }) => ({ time, text })) : expected[lang];
    expect(lines).toEqual(want);
  });

  it('LRC, SRT and VTT of the same content agree on time and text', () => {
    for (const lang of Object.keys(expected)) {
      const read = (ext: string) => parseLyric(decodeText(readFileSync(path.join(root, lang, `utf-8${ext}`))).text, ext).map(({ time, text }) => ({ time, text }));
      expect(read('.srt')).toEqual(read('.lrc'));
      expect(read('.vtt')).toEqual(read('.lrc'));
    }
  });
});
