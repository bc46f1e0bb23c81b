/**
 * Natural ordering of names, and the two orders of a work's files (server/library/README.md#files-of-a-work):
 * - the list order (`compareListPaths`): the order a scan numbers new files in (the track hash `<workId>/<n>`);
 * - the tree order (`compareTreePaths`): the order of the file tree, level by level, sub-folders first.
 * Both compare names with `naturalCompare`, the one natural order of the code base (server and web).
 */

/** Compares two strings by Unicode code point (not UTF-16 unit), so astral ideographs sort after the BMP. */
export function compareCodePoints(a: string, b: string): number {
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const ca = ia.next();
    const cb = ib.next();
    if (ca.done || cb.done) return ca.done === cb.done ? 0 : ca.done ? -1 : 1;
    const d = ca.value.codePointAt(0)! - cb.value.codePointAt(0)!;
    if (d !== 0) return d < 0 ? -1 : 1;
  }
}

const CHUNK = /\d+|\D+/g;

/** NFKC (full-width digits and letters → ASCII) and lower case: the form names are compared in. */
const comparable = (s: string): string => s.normalize('NFKC').toLowerCase();

/**
 * Natural comparison: digit runs compare by value (`track2` < `track10`, `０２` = `2`), everything else
 * case-insensitively by code point (CJK safe: no locale tables, same order in Node and every browser).
 * Names equal in that sense are ordered by fewer leading zeros, then by their exact text, so the order
 * is total and stable.
 */
export function naturalCompare(a: string, b: string): number {
  if (a === b) return 0;
  const ca = comparable(a).match(CHUNK) ?? [];
  const cb = comparable(b).match(CHUNK) ?? [];
  let zeroTie = 0;
  for (let i = 0; i < Math.min(ca.length, cb.length); i++) {
    const x = ca[i];
    const y = cb[i];
    if (isDigits(x) && isDigits(y)) {
      const d = compareNumbers(x, y);
      if (d !== 0) return d;
      if (zeroTie === 0 && x.length !== y.length) zeroTie = x.length < y.length ? -1 : 1;
    } else {
      const d = compareCodePoints(x, y);
      if (d !== 0) return d;
    }
  }
  if (ca.length !== cb.length) return ca.length < cb.length ? -1 : 1;
  return zeroTie || compareCodePoints(a, b);
}

const isDigits = (s: string): boolean => s.charCodeAt(0) >= 48 && s.charCodeAt(0) <= 57;

/** Digit strings of any length by value. */
function compareNumbers(x: string, y: string): number {
  const a = x.replace(/^0+/, '');
  const b = y.replace(/^0+/, '');
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Splits a relative path on `/` and `\`. */
export const pathSegments = (path: string): string[] => path.split(/[/\\]+/).filter((s) => s !== '');

/**
 * Tree order of relative file paths: level by level, sub-folders before the files of the same folder,
 * each group in natural order. Walking the file tree depth-first gives this order (so a work's root files
 * come after all its folders, and a folder's own files after its sub-folders).
 */
export function compareTreePaths(a: string, b: string): number {
  const sa = pathSegments(a);
  const sb = pathSegments(b);
  for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
    const folderA = i < sa.length - 1;
    const folderB = i < sb.length - 1;
    if (folderA !== folderB) return folderA ? -1 : 1;
    const d = naturalCompare(sa[i], sb[i]);
    if (d !== 0) return d;
  }
  return sa.length - sb.length;
}

/**
 * List order of relative file paths, as kikoeru lists a work: by folder, then by file name. Folders
 * compare segment by segment (a folder's own files come before its sub-folders, which come right after
 * it); the files at the work's root come after every folder.
 */
export function compareListPaths(a: string, b: string): number {
  const sa = pathSegments(a);
  const sb = pathSegments(b);
  const da = sa.length - 1;
  const db = sb.length - 1;
  if ((da === 0) !== (db === 0)) return da === 0 ? 1 : -1;
  for (let i = 0; i < Math.min(da, db); i++) {
    const d = naturalCompare(sa[i], sb[i]);
    if (d !== 0) return d;
  }
  if (da !== db) return da < db ? -1 : 1;
  return naturalCompare(sa[da] ?? '', sb[db] ?? '');
}
