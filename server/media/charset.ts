/**
 * Text decoding with charset detection, for lyric and text files (docs/API.md#lyrics): GBK and
 * Shift-JIS files are common in voice-work archives, as are UTF-16 files written by Windows tools.
 *
 * Order of decisions:
 * 1. a byte-order mark (UTF-8, UTF-16 LE/BE) decides;
 * 2. BOM-less UTF-16 is recognised by its zero bytes (lyric files are full of ASCII digits);
 * 3. bytes that decode cleanly as UTF-8 are UTF-8 (legacy CJK text almost never does — except a few
 *    short GBK/Big5 strings that read as Cyrillic-like two-byte UTF-8, see `accidentalUtf8`);
 * 4. otherwise every plausible legacy encoding decodes the text and the one whose characters look most
 *    like real text wins: characters that are common in that encoding's language (the level-1 sets of
 *    GB2312, JIS X 0208 and Big5, and kana) count for it; replacement characters, private-use
 *    characters, controls, half-width katakana, rare ideographs and impossible kana sequences count
 *    against it. jschardet's guess weighs in and adds its own candidates (EUC-JP). This weighting is
 *    what makes short texts (a two-line lyric, a file name) come out right where a statistical
 *    detector alone guesses wrong. Windows-1252 is the last resort when no CJK reading is clean.
 *
 * Known limit: a text of one or two ideographs can read as common characters in both GBK and Big5
 * (`謝謝` in Big5 is `谅谅` in GBK); such ties go to GBK, by far the more common encoding here.
 */
import iconv from 'iconv-lite';
import jschardet from 'jschardet';

export interface DecodedText {
  text: string;
  /** A charset label usable in `Content-Type` (`utf-8`, `utf-16le`, `gb18030`, `shift_jis`, `big5`, …). */
  encoding: string;
}

/** The language whose common characters a candidate decoding is scored against. */
export type ScriptLanguage = 'ja' | 'zh-hans' | 'zh-hant' | 'latin' | 'any';

interface Candidate {
  /** Label returned to callers. */
  label: string;
  /** iconv-lite codec used to decode. */
  codec: string;
  language: ScriptLanguage;
  /** Prior added to the score: breaks near-ties towards the encodings voice-work files actually use. */
  prior: number;
}

const LEGACY_CANDIDATES: Candidate[] = [
  { label: 'gb18030', codec: 'gb18030', language: 'zh-hans', prior: 0.02 },
  { label: 'shift_jis', codec: 'cp932', language: 'ja', prior: 0.01 },
  { label: 'big5', codec: 'cp950', language: 'zh-hant', prior: 0 },
];

/** jschardet names → candidates (only for encodings worth trying besides the three above). */
const CHARDET_CANDIDATES: Record<string, Candidate> = {
  // EUC-JP shares GB2312's byte layout (kana rows included): only clearly better text should pick it.
  'EUC-JP': { label: 'euc-jp', codec: 'euc-jp', language: 'ja', prior: -0.1 },
  'windows-1252': { label: 'windows-1252', codec: 'windows1252', language: 'latin', prior: 0 },
  'ISO-8859-1': { label: 'windows-1252', codec: 'windows1252', language: 'latin', prior: 0 },
};
const CHARDET_TO_LABEL: Record<string, string> = {
  GB2312: 'gb18030',
  GB18030: 'gb18030',
  SHIFT_JIS: 'shift_jis',
  Big5: 'big5',
  'EUC-JP': 'euc-jp',
  'windows-1252': 'windows-1252',
  'ISO-8859-1': 'windows-1252',
};

const LATIN_FALLBACK: Candidate = { label: 'windows-1252', codec: 'windows1252', language: 'latin', prior: 0 };

/** At most this many bytes are used to choose an encoding; the whole buffer is then decoded. */
const SAMPLE_BYTES = 64 * 1024;

export function decodeText(buf: Uint8Array): DecodedText {
  const bytes = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  if (bytes.length === 0) return { text: '', encoding: 'utf-8' };

  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { text: utf8(bytes.subarray(3)), encoding: 'utf-8' };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { text: iconv.decode(bytes.subarray(2), 'utf-16le'), encoding: 'utf-16le' };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { text: iconv.decode(bytes.subarray(2), 'utf-16be'), encoding: 'utf-16be' };

  const sample = bytes.subarray(0, SAMPLE_BYTES);
  const utf16 = sniffUtf16(sample);
  if (utf16) return { text: iconv.decode(bytes, utf16), encoding: utf16 };

  const strict = strictUtf8(bytes);
  if (strict !== null && !accidentalUtf8(strict)) return { text: strict, encoding: 'utf-8' };

  const best = chooseLegacyEncoding(sample);
  if (strict !== null && !(best.score.bad === 0 && best.score.score >= 0.9 && best.candidate.language !== 'latin')) {
    return { text: strict, encoding: 'utf-8' };
  }
  return { text: iconv.decode(bytes, best.candidate.codec), encoding: best.candidate.label };
}

/** UTF-8 text, or null when the bytes are not valid UTF-8. */
export function strictUtf8(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return null;
  }
}

const utf8 = (bytes: Uint8Array): string => new TextDecoder('utf-8').decode(bytes);

/**
 * UTF-16 without a BOM: text with ASCII in it has a zero byte in almost every other position.
 * Checked on the even/odd halves separately, then confirmed by a clean decode.
 */
function sniffUtf16(sample: Buffer): 'utf-16le' | 'utf-16be' | null {
  const pairs = Math.floor(sample.length / 2);
  if (pairs < 2) return null;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i + 1 < sample.length; i += 2) {
    if (sample[i] === 0) evenZeros++;
    if (sample[i + 1] === 0) oddZeros++;
  }
  const guess = oddZeros >= pairs * 0.2 && evenZeros <= pairs * 0.02 ? 'utf-16le' : evenZeros >= pairs * 0.2 && oddZeros <= pairs * 0.02 ? 'utf-16be' : null;
  if (!guess) return null;
  const text = iconv.decode(sample.subarray(0, pairs * 2), guess);
  return scoreText(text, 'any').bad === 0 && !/[\ud800-\udfff]/.test(text) ? guess : null;
}

/** The legacy encoding whose decoding of `sample` reads most like real text. */
function chooseLegacyEncoding(sample: Buffer): { candidate: Candidate; score: TextScore } {
  const detected = jschardet.detectAll(sample);
  const candidates = [...LEGACY_CANDIDATES];
  for (const d of detected) {
    const extra = CHARDET_CANDIDATES[d.encoding];
    if (extra && !candidates.some((c) => c.label === extra.label)) candidates.push(extra);
  }
  if (!candidates.some((c) => c.label === LATIN_FALLBACK.label)) candidates.push(LATIN_FALLBACK);

  const top = detected[0];
  const chardetLabel = top && top.confidence >= 0.5 ? CHARDET_TO_LABEL[top.encoding] : undefined;
  const scored = candidates.map((candidate) => {
    const score = scoreText(trimCutCharacter(iconv.decode(sample, candidate.codec), sample.length === SAMPLE_BYTES), candidate.language);
    const bonus = candidate.prior + (candidate.label === chardetLabel ? 0.15 * top.confidence : 0);
    return { candidate, score, rank: score.score + bonus };
  });
  // A CJK reading without impossible characters beats any Latin reading; Latin is the last resort.
  const cjk = scored.filter((s) => s.candidate.language !== 'latin' && s.score.bad === 0);
  const strong = cjk.filter((s) => s.score.score >= 0.5);
  const fair = cjk.filter((s) => s.score.score > 0);
  const pool = strong.length ? strong : fair.length ? fair : scored;
  return pool.reduce((best, s) => (s.rank > best.rank ? s : best));
}

/**
 * Legacy CJK text is occasionally valid UTF-8 by accident (GBK `谢谢` is the bytes of `лл`). Such a
 * reading is made only of two-byte sequences (U+0080–U+07FF) and holds no Latin-1 letter inside a word
 * (where real UTF-8 text has `Café`, `Müller`). When a legacy encoding then reads as clean CJK text, that
 * reading is the right one.
 */
export function accidentalUtf8(text: string): boolean {
  // One pass over UTF-16 code units, no copy (this runs on whole lyric files): any code point from
  // U+0800 up (surrogates included) ends it, so every unit looked at before that is a whole character.
  let nonAscii = false;
  for (let i = 0; i < text.length; i++) {
    const cp = text.charCodeAt(i);
    if (cp < 0x80) continue;
    nonAscii = true;
    if (cp >= 0x800) return false;
    const latinLetter = cp >= 0xc0 && cp <= 0xff && cp !== 0xd7 && cp !== 0xf7;
    if (latinLetter && (isAsciiLetter(text.charCodeAt(i - 1)) || isAsciiLetter(text.charCodeAt(i + 1)))) return false;
  }
  return nonAscii;
}

/** A-Z or a-z (NaN, outside the string, is not). */
const isAsciiLetter = (unit: number): boolean => (unit >= 0x41 && unit <= 0x5a) || (unit >= 0x61 && unit <= 0x7a);

/** A sample cut mid-character ends in a replacement character that says nothing about the encoding. */
const trimCutCharacter = (text: string, wasCut: boolean): string => (wasCut ? text.replace(/\ufffd$/, '') : text);

// ---------------------------------------------------------------------------------------------------
// Scoring decoded text

export interface TextScore {
  /** Mean per-character score over the non-ASCII characters (0 when there are none); higher is better. */
  score: number;
  /** Number of non-ASCII characters. */
  nonAscii: number;
  /** Characters that real text never holds: U+FFFD, controls, private use, unpaired surrogates. */
  bad: number;
  /** Ideographs common in the language and kana (for Japanese). */
  common: number;
}

/**
 * How much `text` looks like real text in `language`. Exported for the mojibake repair, which uses the
 * same judgement on file names.
 */
export function scoreText(text: string, language: ScriptLanguage): TextScore {
  const common = commonSet(language);
  const chars = Array.from(text);
  const shadowRun = language === 'zh-hant' ? kanaShadowRuns(chars) : null;
  let sum = 0;
  let nonAscii = 0;
  let bad = 0;
  let good = 0;
  for (let i = 0; i < chars.length; i++) {
    const cp = chars[i].codePointAt(0)!;
    if (cp < 0x80) {
      if (cp < 0x20 && cp !== 0x09 && cp !== 0x0a && cp !== 0x0d) {
        bad++;
        nonAscii++;
        sum -= 4;
      }
      continue;
    }
    nonAscii++;
    let s = charScore(cp, language, common);
    const prev = chars[i - 1] ?? '';
    const next = chars[i + 1] ?? '';
    // `Cr鑝e`: an ideograph or kana inside a Latin word is a misreading of accented letters.
    if (s > -1 && isCjkLetter(cp) && ASCII_LETTER.test(prev) && ASCII_LETTER.test(next)) s = -1;
    // Katakana come in words; one alone between other characters (`妹バ觹`) is most likely a misreading.
    // Small kana only follow another kana (`ファ`), small ゃゅょ only an i-row kana (`きゅ`, `シュ`).
    else if (SMALL_KANA.has(chars[i]) && !isKanaChar(prev)) s = Math.min(s, -0.5);
    else if (SMALL_YOON.has(chars[i]) && !YOON_BEFORE.has(prev)) s = Math.min(s, -0.5);
    else if (isKatakana(cp) && !LONE_KATAKANA_OK.has(chars[i]) && !isKanaChar(prev) && !isKanaChar(next)) s = Math.min(s, 0.25);
    // Big5 characters in a row from the code points of GB2312's kana rows: GBK kana read as Big5.
    else if (shadowRun?.[i]) s = Math.min(s, 0);
    if (s <= -4) bad++;
    if (s >= 1) good++;
    sum += s;
  }
  return { score: nonAscii ? sum / nonAscii : 0, nonAscii, bad, common: good };
}

const isKatakana = (cp: number): boolean => cp >= 0x30a1 && cp <= 0x30fa;
const isKanaChar = (ch: string): boolean => /[\u3041-\u30ff]/.test(ch);
const SMALL_KANA = new Set(Array.from('ぁぃぅぇぉゎァィゥェォヮ'));
const SMALL_YOON = new Set(Array.from('ゃゅょャュョ'));
const YOON_BEFORE = new Set(Array.from('きしちにひみりぎじぢびぴキシチニヒミリギジヂビピテデフヴ'));
/** Katakana that stand alone in ordinary Japanese (`霞ヶ関`, `ノ`). */
const LONE_KATAKANA_OK = new Set(['ヶ', 'ヵ', 'ケ', 'ノ', 'ヴ']);

let kanaShadow: ReadonlySet<string> | null = null;

/** For each character: is it in a run of 2+ Big5 characters whose codes are GB2312's kana positions? */
function kanaShadowRuns(chars: string[]): boolean[] {
  if (!kanaShadow) {
    const bytes: number[] = [];
    for (let t = 0xa1; t <= 0xf3; t++) bytes.push(0xa4, t);
    for (let t = 0xa1; t <= 0xf6; t++) bytes.push(0xa5, t);
    kanaShadow = new Set(Array.from(iconv.decode(Buffer.from(bytes), 'cp950')));
  }
  const shadow = kanaShadow;
  const marks = chars.map(() => false);
  let start = 0;
  for (let i = 0; i <= chars.length; i++) {
    if (i < chars.length && shadow.has(chars[i])) continue;
    if (i - start >= 2) for (let j = start; j < i; j++) marks[j] = true;
    start = i + 1;
  }
  return marks;
}

function charScore(cp: number, language: ScriptLanguage, common: CommonSets): number {
  if (cp === 0xfffd || (cp >= 0x80 && cp < 0xa0) || (cp >= 0xe000 && cp <= 0xf8ff) || (cp >= 0xd800 && cp <= 0xdfff) || cp >= 0xf0000) return -4;
  if (isIdeograph(cp)) return common.primary.has(cp) ? 1 : common.secondary.has(cp) ? 0.6 : -0.25;
  // Kana: Japanese text, also when saved as GBK on a Chinese system (GB2312 has the kana rows).
  if (cp >= 0x3040 && cp <= 0x30ff) return language === 'latin' ? -0.5 : 1;
  if (cp >= 0xff61 && cp <= 0xff9f) return -1; // half-width katakana: what GBK bytes look like read as Shift-JIS
  if (cp >= 0xac00 && cp <= 0xd7a3) return language === 'any' ? 0 : -1; // hangul
  if (isCjkPunctuation(cp)) return language === 'latin' ? -0.5 : 0.25;
  if (cp >= 0xa0 && cp <= 0xff) return language === 'latin' ? 0.5 : -0.5; // Latin-1 letters and signs
  if (cp >= 0x2010 && cp <= 0x266f) return 0.1; // general punctuation, arrows, shapes, ☆★♪
  return language === 'latin' ? 0 : -0.5; // Greek, Cyrillic, Yi, … in CJK text: mostly misreadings
}

const isIdeograph = (cp: number): boolean => (cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0x3400 && cp <= 0x4dbf) || (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0x20000 && cp <= 0x2ffff);

const ASCII_LETTER = /[A-Za-z]/;
const isCjkLetter = (cp: number): boolean => isIdeograph(cp) || (cp >= 0x3040 && cp <= 0x30ff);

const isCjkPunctuation = (cp: number): boolean => (cp >= 0x3000 && cp <= 0x303f) || (cp >= 0xff01 && cp <= 0xff60) || (cp >= 0xffe0 && cp <= 0xffe6) || cp === 0x30fb;

// Common ideographs per language, read from the encodings' own "frequently used" level-1 blocks.
// GBK text may be Traditional Chinese too: for it, Big5's common set counts, a little less.
interface CommonSets {
  primary: ReadonlySet<number>;
  secondary: ReadonlySet<number>;
}
const EMPTY: ReadonlySet<number> = new Set();
const levelOne = new Map<ScriptLanguage, ReadonlySet<number>>();
const commonSets = new Map<ScriptLanguage, CommonSets>();

function levelOneSet(language: ScriptLanguage): ReadonlySet<number> {
  let set = levelOne.get(language);
  if (!set) {
    set = buildCommonSet(language);
    levelOne.set(language, set);
  }
  return set;
}

function commonSet(language: ScriptLanguage): CommonSets {
  let sets = commonSets.get(language);
  if (!sets) {
    sets = { primary: levelOneSet(language), secondary: language === 'zh-hans' ? levelOneSet('zh-hant') : EMPTY };
    commonSets.set(language, sets);
  }
  return sets;
}

function buildCommonSet(language: ScriptLanguage): ReadonlySet<number> {
  switch (language) {
    case 'zh-hans': // GB2312 level 1: 0xB0A1–0xD7F9 (3755 hanzi)
      return decodeBlock('gb18030', 0xb0a1, 0xd7f9, [[0xa1, 0xfe]]);
    case 'ja': // JIS X 0208 level 1: Shift-JIS 0x889F–0x9872 (2965 kanji)
      return decodeBlock('cp932', 0x889f, 0x9872, [
        [0x40, 0x7e],
        [0x80, 0xfc],
      ]);
    case 'zh-hant': // Big5 frequently used hanzi: 0xA440–0xC67E (5401)
      return decodeBlock('cp950', 0xa440, 0xc67e, [
        [0x40, 0x7e],
        [0xa1, 0xfe],
      ]);
    case 'any':
      return new Set([...levelOneSet('zh-hans'), ...levelOneSet('ja'), ...levelOneSet('zh-hant')]);
    case 'latin':
      return new Set();
  }
}

/** The ideographs of the double-byte codes first..last (inclusive) whose trail byte is in `trails`. */
function decodeBlock(codec: string, first: number, last: number, trails: [number, number][]): Set<number> {
  const bytes: number[] = [];
  for (let lead = first >> 8; lead <= last >> 8; lead++) {
    for (const [from, to] of trails) {
      for (let trail = from; trail <= to; trail++) {
        const code = (lead << 8) | trail;
        if (code >= first && code <= last) bytes.push(lead, trail);
      }
    }
  }
  const set = new Set<number>();
  for (const ch of iconv.decode(Buffer.from(bytes), codec)) {
    const cp = ch.codePointAt(0)!;
    if (isIdeograph(cp)) set.add(cp);
  }
  return set;
}
