/**
 * Which lyric belongs to which audio file (docs/API.md#lyrics: check-lrc,
 * query-lrc). One module for the three uses:
 *
 * 1. {@link findExactLyric} — check-lrc: a lyric file next to the audio with the same stem or full name;
 * 2. {@link matchLyricName} — the fuzzy name rule (also used to attach AI tasks to tree nodes);
 * 3. {@link rankLyricCandidates} — query-lrc: every lyric of the work with a `matchLevel`.
 *
 * Paths are relative to the work folder and `/` separated (a `\` is accepted too).
 * Differences from the kikoeru client's code, on purpose: names are compared after NFKC and lower-casing;
 * "contains" works both ways but never splits a number (`track1` is not inside `track10`); a track
 * number that differs is never bridged by the fuzzy stages; the edge ratio counts each character of the
 * shorter name once, so it cannot exceed 1.
 */
import { AiStatus } from './ai-status.js';
import { baseName, extensionOf, isLoadableLyric, isMedia, LOADABLE_LYRIC_EXTENSIONS } from './file-kinds.js';
import { compareTreePaths } from './natural-sort.js';

// ---------------------------------------------------------------------------------------------------
// Paths and stems

/** Folder part of a relative path; '' at the work root. */
export function folderOf(path: string): string {
  const i = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return i < 0 ? '' : path.slice(0, i).replace(/\\/g, '/');
}

const dropExtension = (name: string): string => {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
};

/** Stem of an audio file: the name without its extension (`01.intro.mp3` → `01.intro`). */
export const audioStem = (path: string): string => dropExtension(baseName(path));

/**
 * Stem of a lyric file: without the lyric extension and, when present, a media extension before it
 * (`track01.mp3.lrc` → `track01`, the form players write next to the audio).
 */
export function lyricStem(path: string): string {
  let name = baseName(path);
  if (isLoadableLyric(extensionOf(name)) || extensionOf(name) === '.ass') name = dropExtension(name);
  if (isMedia(extensionOf(name))) name = dropExtension(name);
  return name;
}

// ---------------------------------------------------------------------------------------------------
// 1. Exact lookup (check-lrc)

export type LoadableLyricExtension = (typeof LOADABLE_LYRIC_EXTENSIONS)[number];

export interface ExactLyric {
  /** The lyric file's path, as given in the list. */
  path: string;
  /** The lower-case extension tried, even when the file's own is upper case. */
  extension: LoadableLyricExtension;
}

/**
 * The lyric file that belongs to `audioPath`, looked up among `paths` (all files of the work):
 * same folder; extensions in priority `.lrc` > `.srt` > `.vtt`; for each, the names `<stem><ext>`,
 * `<stem><EXT>`, `<name><ext>`, `<name><EXT>` (stem = name without its extension), then the same names
 * in any letter case (files copied from case-insensitive disks). `.ass` is never returned.
 */
export function findExactLyric(audioPath: string, paths: readonly string[]): ExactLyric | null {
  const folder = folderOf(audioPath);
  const name = baseName(audioPath);
  const stem = audioStem(audioPath);
  const byName = new Map<string, string>();
  const byLowerName = new Map<string, string>();
  for (const path of paths) {
    if (path === audioPath || folderOf(path) !== folder) continue;
    const file = baseName(path);
    if (!byName.has(file)) byName.set(file, path);
    if (!byLowerName.has(file.toLowerCase())) byLowerName.set(file.toLowerCase(), path);
  }
  for (const extension of LOADABLE_LYRIC_EXTENSIONS) {
    const upper = extension.toUpperCase();
    for (const candidate of [stem + extension, stem + upper, name + extension, name + upper]) {
      const hit = byName.get(candidate);
      if (hit) return { path: hit, extension };
    }
    for (const candidate of [stem + extension, name + extension]) {
      const hit = byLowerName.get(candidate.toLowerCase());
      if (hit) return { path: hit, extension };
    }
  }
  return null;
}

// ---------------------------------------------------------------------------------------------------
// 2. Fuzzy name rule

/** How well a lyric's stem matches an audio stem; null = no match. */
export type MatchGrade = 'exact' | 'contains' | 'fuzzy';

/** SE on/off spellings: a lyric made for one variant fits the other. */
const SE_VARIANTS: readonly [string, string][] = [
  ['あり', 'なし'],
  ['有り', '無し'],
  ['有', '無'],
];

/** Longest name (code points) the fuzzy stages compare: a file name is at most 255 bytes on common file systems. */
export const MAX_FUZZY_CHARS = 255;

const normalizeName = (s: string): string => s.normalize('NFKC').toLowerCase().trim();

/**
 * The fuzzy rule, on stems (see {@link audioStem}, {@link lyricStem}):
 * - equal names → exact;
 * - names that differ only in their numbers never match (`track1` / `track10`, `01 intro` / `02 intro`);
 * - one name contains the other, not splitting a number → contains;
 * - swapping あり↔なし (有り↔無し, 有↔無) in the audio name gives the lyric name or contains it → contains;
 * - the fuzzy stages below never bridge different numbers;
 * - equal length and edit distance ≤ 2 never match (`track_a` / `track_b`);
 * - similarity (longer − distance) / longer > 0.8 → fuzzy;
 * - edge match (share of the shorter name's characters that agree with the longer name aligned at its
 *   start or at its end) > 0.9 → fuzzy;
 * - the fuzzy stages compare names of up to {@link MAX_FUZZY_CHARS} code points (longer ones match only
 *   exactly or by containment), with a banded edit distance: bounded work per pair of names.
 */
export function matchLyricName(audioStemText: string, lyricStemText: string): MatchGrade | null {
  return lyricNameMatcher(audioStemText)(lyricStemText);
}

/**
 * {@link matchLyricName} for one audio stem against many lyric stems: what depends on the audio name
 * alone (normalised text, numbers, SE swap, code points) is worked out once.
 */
export function lyricNameMatcher(audioStemText: string): (lyricStemText: string) => MatchGrade | null {
  const a = normalizeName(audioStemText);
  const numbersA = numbersOf(a).join(',');
  const hasNumbersA = /\d/.test(a);
  const strippedA = stripDigits(a);
  const swapped = swapSeVariants(a);
  const ca = Array.from(a);
  return (lyricStemText) => {
    const l = normalizeName(lyricStemText);
    if (!a || !l) return null;
    if (a === l) return 'exact';

    const sameNumbers = numbersA === numbersOf(l).join(',');
    if (hasNumbersA && /\d/.test(l) && !sameNumbers && strippedA === stripDigits(l)) return null;

    if (containsWhole(a, l) || containsWhole(l, a)) return 'contains';
    if (swapped !== a && (swapped === l || containsWhole(swapped, l) || containsWhole(l, swapped))) return 'contains';

    if (!sameNumbers) return null;
    // the fuzzy stages cost length × length / 5: names longer than any file system allows skip them
    if (ca.length > MAX_FUZZY_CHARS || l.length > MAX_FUZZY_CHARS * 2) return null;
    const cl = Array.from(l);
    if (cl.length > MAX_FUZZY_CHARS) return null;
    const longer = Math.max(ca.length, cl.length);
    // Only small distances decide anything: below 0.2 × longer (fuzzy), or up to 2 (equal lengths: never).
    const limit = Math.max(2, Math.ceil(longer * 0.2));
    const distance = boundedEditDistance(ca, cl, limit);
    if (ca.length === cl.length && distance <= 2) return null;
    if ((longer - distance) / longer > 0.8) return 'fuzzy';
    if (edgeRatio(ca, cl) > 0.9) return 'fuzzy';
    return null;
  };
}

/** Convenience: the grade of a lyric file (or AI task audio) path against an audio path. */
export function matchLyricPath(audioPath: string, lyricPath: string): MatchGrade | null {
  return matchLyricName(audioStem(audioPath), lyricStem(lyricPath));
}

/** The numbers in a name, by value (`track01b2` → ['1', '2']). */
const numbersOf = (s: string): string[] => (s.match(/\d+/g) ?? []).map((n) => n.replace(/^0+(?=\d)/, ''));
const stripDigits = (s: string): string => s.replace(/\d+/g, '');
const isDigit = (ch: string | undefined): boolean => ch !== undefined && ch >= '0' && ch <= '9';

/** `needle` occurs in `hay` without a digit run of `hay` continuing across the needle's digit edges. */
function containsWhole(hay: string, needle: string): boolean {
  for (let at = hay.indexOf(needle); at >= 0; at = hay.indexOf(needle, at + 1)) {
    const splitsBefore = isDigit(needle[0]) && isDigit(hay[at - 1]);
    const splitsAfter = isDigit(needle[needle.length - 1]) && isDigit(hay[at + needle.length]);
    if (!splitsBefore && !splitsAfter) return true;
  }
  return false;
}

function swapSeVariants(s: string): string {
  for (const [on, off] of SE_VARIANTS) {
    if (s.includes(on) || s.includes(off)) {
      return s
        .split(on)
        .map((part) => part.split(off).join(on))
        .join(off);
    }
  }
  return s;
}

/**
 * Levenshtein distance over code points when it is at most `limit`, else `limit + 1`. Only the band of
 * cells within `limit` of the diagonal is computed, and it stops as soon as a whole row exceeds the
 * limit: O(length × limit) time, not O(length²).
 */
export function boundedEditDistance(a: readonly string[], b: readonly string[], limit: number): number {
  const over = limit + 1;
  if (Math.abs(a.length - b.length) > limit) return over;
  const m = b.length;
  let prev = new Int32Array(m + 1).fill(over);
  let cur = new Int32Array(m + 1).fill(over);
  for (let j = 0; j <= Math.min(m, limit); j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const lo = Math.max(1, i - limit);
    const hi = Math.min(m, i + limit);
    cur[lo - 1] = lo === 1 && i <= limit ? i : over;
    let rowMin = cur[lo - 1];
    for (let j = lo; j <= hi; j++) {
      const v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      cur[j] = v > over ? over : v;
      if (cur[j] < rowMin) rowMin = cur[j];
    }
    if (hi < m) cur[hi + 1] = over; // the next row reads one cell further
    if (rowMin >= over) return over;
    [prev, cur] = [cur, prev];
  }
  return Math.min(prev[m], over);
}

/** Share of the shorter name's characters equal to the longer name's, aligned at the start or the end. */
function edgeRatio(a: readonly string[], b: readonly string[]): number {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  const shift = long.length - short.length;
  let agree = 0;
  for (let i = 0; i < short.length; i++) if (short[i] === long[i] || short[i] === long[i + shift]) agree++;
  return short.length ? agree / short.length : 0;
}

// ---------------------------------------------------------------------------------------------------
// 3. Ranking (query-lrc)

export interface LocalLyricFile {
  /** Relative path of the lyric file. */
  path: string;
  /** Its track hash `<workId>/<n>`. */
  hash: string;
}

export interface AiLyricTask {
  id: number;
  /** Relative path of the transcribed audio. */
  audio_path: string;
  status: number;
}

/** Element of query-lrc's `lyricList` (docs/API.md#lyrics). */
export interface LyricOption {
  /** File name; for AI lyrics the audio's file name + `.lrc`. */
  title: string;
  /** Folder of the file ('' at the work root). */
  subtitle: string;
  /** Track hash of a local file; the task id of an AI lyric. */
  hash: string | number;
  isAI: boolean;
  /** 0 exact, 1 contains, 2 fuzzy, +0.5 in another folder; −1 unrelated. Smaller is better. */
  matchLevel: number;
}

const LEVEL: Record<MatchGrade, number> = { exact: 0, contains: 1, fuzzy: 2 };
export const UNRELATED_LEVEL = -1;

function levelOf(audioPath: string, lyricFolder: string, grade: MatchGrade | null): number {
  if (grade === null) return UNRELATED_LEVEL;
  return LEVEL[grade] + (lyricFolder === folderOf(audioPath) ? 0 : 0.5);
}

/**
 * Every lyric candidate of the work for one audio file: its loadable local lyric files (`.lrc/.srt/.vtt`,
 * anywhere in the work) and its successful AI tasks, each with a `matchLevel`. Matches come first, best
 * first; then the unrelated ones. Within a level local files come before AI lyrics, then track order.
 */
export function rankLyricCandidates(audioPath: string, lyricFiles: readonly LocalLyricFile[], aiTasks: readonly AiLyricTask[]): LyricOption[] {
  const options: (LyricOption & { path: string })[] = [];
  const match = lyricNameMatcher(audioStem(audioPath));
  for (const file of lyricFiles) {
    if (!isLoadableLyric(extensionOf(file.path))) continue;
    const folder = folderOf(file.path);
    const matchLevel = levelOf(audioPath, folder, match(lyricStem(file.path)));
    options.push({ title: baseName(file.path), subtitle: folder, hash: file.hash, isAI: false, matchLevel, path: file.path });
  }
  for (const task of aiTasks) {
    if (task.status !== AiStatus.SUCCESS) continue;
    const folder = folderOf(task.audio_path);
    const grade = task.audio_path === audioPath ? 'exact' : match(audioStem(task.audio_path));
    const matchLevel = levelOf(audioPath, folder, grade);
    options.push({ title: baseName(task.audio_path) + '.lrc', subtitle: folder, hash: task.id, isAI: true, matchLevel, path: task.audio_path });
  }
  const bucket = (level: number): number => (level < 0 ? Number.POSITIVE_INFINITY : level);
  options.sort((x, y) => bucket(x.matchLevel) - bucket(y.matchLevel) || Number(x.isAI) - Number(y.isAI) || compareTreePaths(x.path, y.path) || String(x.hash).localeCompare(String(y.hash)));
  return options.map(({ path: _path, ...option }) => option);
}

/**
 * The AI tasks that belong to an audio file in the track tree (its status badge): the task of that very
 * file, and tasks of files whose names match it (SE variants, the same track in another format folder).
 */
export function tasksForAudio<T extends { audio_path: string }>(audioPath: string, tasks: readonly T[]): T[] {
  const match = lyricNameMatcher(audioStem(audioPath));
  return tasks.filter((task) => task.audio_path === audioPath || match(audioStem(task.audio_path)) !== null);
}
