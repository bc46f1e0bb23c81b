/**
 * Natural ordering ("track2" < "track10") and the track-list order of server/library/README.md#files-of-a-work:
 * by (folder, file name, extension), with the files at the work's root after every subfolder.
 * Local to the scanner until a shared `server/domain/natural-sort.ts` exists.
 */
const collator = new Intl.Collator('ja', { numeric: true, sensitivity: 'variant' });

export function naturalCompare(a: string, b: string): number {
  const c = collator.compare(a, b);
  return c !== 0 ? c : a < b ? -1 : a > b ? 1 : 0;
}

/** Compare two '/'-separated relative file paths in track-list order. */
export function trackPathCompare(a: string, b: string): number {
  const ia = a.lastIndexOf('/');
  const ib = b.lastIndexOf('/');
  const da = ia < 0 ? null : a.slice(0, ia);
  const db = ib < 0 ? null : b.slice(0, ib);
  if (da !== db) {
    if (da === null) return 1;
    if (db === null) return -1;
    const c = naturalCompare(da, db);
    if (c !== 0) return c;
  }
  return naturalCompare(a.slice(ia + 1), b.slice(ib + 1));
}
