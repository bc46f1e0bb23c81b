/**
 * Natural ordering of names ("track2" < "track10"), locale-aware for Japanese names; ties broken by
 * code units so the order is total. Used by the track tree until a shared domain helper exists.
 */
const collator = new Intl.Collator('ja', { numeric: true, sensitivity: 'variant' });

export function naturalCompare(a: string, b: string): number {
  const c = collator.compare(a, b);
  return c !== 0 ? c : a < b ? -1 : a > b ? 1 : 0;
}
