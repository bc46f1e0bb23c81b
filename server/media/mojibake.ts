/**
 * Repair of garbled file and folder names (`POST /api/work/fix/gbk/:id`, docs/API.md#admin-corrections).
 *
 * Archives made on Japanese or Chinese Windows store names as Shift-JIS or GBK bytes without saying
 * so; unzip tools then read those bytes as CP437 (the ZIP default) or as Latin-1/Windows-1252, giving
 * names like `âgâëâbâN01.mp3`. Repair turns the garbled name back into its bytes with the code page that
 * produced it and decodes the bytes with the encoding they were really in. Names that were UTF-8 read
 * as Latin-1 (`Ã©`) are repaired the same way.
 *
 * A name is only changed when the result is confidently real text: every byte must decode, nothing may
 * be a replacement, control or private-use character, and the characters must read as Japanese or
 * Chinese (common ideographs and kana, judged like the charset detector does). A correct name — ASCII,
 * Japanese, Chinese, or Latin with accents — comes back as null, so repair is idempotent.
 */
import iconv from 'iconv-lite';
import { accidentalUtf8, scoreText, strictUtf8, type ScriptLanguage } from './charset.js';

/** Code pages that turn raw name bytes into the garbled characters we see. */
interface MisreadCodePage {
  name: string;
  /** The bytes a garbled name came from, or null when some character is not in this code page. */
  toBytes(name: string): Buffer | null;
}

/**
 * Encodings the original bytes may really be in, most common first: Shift-JIS (the works' own
 * archives), GBK (Chinese uploads and translations), Big5. GBK and Big5 share most of their byte
 * layout, so a short GBK name often also reads as plausible Big5; the order settles such ties.
 */
interface SourceEncoding {
  codec: string;
  language: ScriptLanguage;
}

const SOURCES: SourceEncoding[] = [
  { codec: 'cp932', language: 'ja' },
  { codec: 'gbk', language: 'zh-hans' },
  { codec: 'cp950', language: 'zh-hant' },
];

/** Minimum mean character score (see `scoreText`) for a decoded name to count as real text. */
const MIN_SCORE = 0.5;
/** How much better a less common source encoding must read to be preferred over a more common one. */
const PREFERENCE_MARGIN = 0.25;

/**
 * The repaired name, or null when `name` is fine or cannot be repaired with confidence.
 * `name` is one path segment (a file or folder name).
 */
export function repairName(name: string): string | null {
  if (!/[^\x00-\x7f]/.test(name) || name.includes('\ufffd') || looksLikeLatinText(name)) return null;

  let best: { text: string; score: number } | null = null;
  for (const page of MISREAD_CODE_PAGES) {
    const bytes = page.toBytes(name);
    if (!bytes) continue;
    const repaired = decodeOriginal(bytes);
    if (repaired && repaired.text !== name && (!best || repaired.score > best.score)) best = repaired;
  }
  return best?.text ?? null;
}

/** What the original bytes of a name said, with how sure we are (UTF-8 beats everything). */
function decodeOriginal(bytes: Buffer): { text: string; score: number } | null {
  if (!bytes.some((b) => b >= 0x80)) return null;

  // Valid UTF-8 is near-certain evidence, unless it is the kind legacy CJK bytes produce by accident.
  const utf8 = strictUtf8(bytes);
  if (utf8 !== null && isCleanName(utf8) && !accidentalUtf8(utf8)) return { text: utf8.normalize('NFC'), score: 10 };

  let best: { text: string; score: number } | null = null;
  for (const source of SOURCES) {
    const text = iconv.decode(bytes, source.codec);
    // One ideograph or kana alone is too little to judge by.
    if (!isCleanName(text) || (text.match(CJK_LETTERS) ?? []).length < 2) continue;
    const { score, bad } = scoreText(text, source.language);
    if (bad !== 0 || score < MIN_SCORE) continue;
    // Sources are in order of how common they are here: a later one must read clearly better.
    if (!best || score >= best.score + PREFERENCE_MARGIN) best = { text, score };
  }
  return best;
}

/**
 * A name that reads as Latin-script text (`Ångström`, `Beyoncé`): every non-ASCII character is a Latin
 * letter standing alone between ASCII letters or spaces, touching at least one ASCII letter. Garbled
 * CJK names have runs of non-ASCII symbols instead (`¥È¥é`, `ñ╩ñ╖`). Such names are left alone.
 */
function looksLikeLatinText(name: string): boolean {
  const chars = Array.from(name);
  return chars.every((ch, i) => {
    if (ch < '\x80') return true;
    if (!/[\u00c0-\u024f]/.test(ch) || ch === '\u00d7' || ch === '\u00f7') return false;
    const prev = chars[i - 1] ?? '';
    const next = chars[i + 1] ?? '';
    if (prev >= '\x80' || next >= '\x80') return false;
    return /[A-Za-z]/.test(prev) || /[A-Za-z]/.test(next);
  });
}

const CJK_LETTERS = /[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]/g;

/** No replacement, control or private-use characters and no path separators. */
function isCleanName(text: string): boolean {
  return !/[\ufffd\u0000-\u001f\u007f-\u009f\ue000-\uf8ff/\\]/.test(text);
}

// ---------------------------------------------------------------------------------------------------
// Reverse code pages

/** Character → byte of a single-byte code page, read from iconv-lite's own table. */
function reverseTable(codec: string): Map<string, number> {
  const chars = iconv.decode(Buffer.from(Array.from({ length: 256 }, (_, i) => i)), codec);
  const table = new Map<string, number>();
  Array.from(chars).forEach((ch, byte) => {
    if (ch !== '\ufffd' && !table.has(ch)) table.set(ch, byte);
  });
  return table;
}

function tableCodePage(name: string, table: Map<string, number>): MisreadCodePage {
  return {
    name,
    toBytes(text) {
      const out: number[] = [];
      for (const ch of text) {
        const byte = table.get(ch);
        if (byte === undefined) return null;
        out.push(byte);
      }
      return Buffer.from(out);
    },
  };
}

/**
 * Latin-1 and Windows-1252 in one: U+0000–U+00FF are their own bytes (Latin-1, and what Windows and
 * WHATWG decoders produce for 0x81/0x8D/0x8F/0x90/0x9D), plus the Windows-1252 characters of 0x80–0x9F.
 */
function latinTable(): Map<string, number> {
  const table = new Map<string, number>();
  for (let b = 0; b < 256; b++) table.set(String.fromCharCode(b), b);
  for (const [ch, byte] of reverseTable('windows1252')) if (byte >= 0x80 && byte < 0xa0) table.set(ch, byte);
  return table;
}

const MISREAD_CODE_PAGES: MisreadCodePage[] = [tableCodePage('cp437', reverseTable('cp437')), tableCodePage('windows-1252', latinTable())];
