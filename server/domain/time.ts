/** UTC timestamp in the contract's `YYYY-MM-DD HH:MM:SS` form. */
export function sqlNow(date: Date = new Date()): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

/** Date-only `YYYY-MM-DD` of a stored timestamp (or '' when absent). */
export function dateOnly(ts: string | null | undefined): string {
  return ts ? ts.slice(0, 10) : '';
}
