/** Small display formats shared by cards, list items and the work page. */

/** Seconds as `m:ss` or `h:mm:ss`; empty for unknown or zero. */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds <= 0) return '';
  const total = Math.round(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const mm = h ? String(m).padStart(2, '0') : String(m);
  return `${h ? `${h}:` : ''}${mm}:${String(s).padStart(2, '0')}`;
}

/** A date or timestamp (`YYYY-MM-DD…`) as its date part. */
export const dateOnly = (value: string | null | undefined): string => (value ? value.slice(0, 10) : '');

/** Average rating with two decimals, or a dash without ratings. */
export const formatAverage = (avg: number, count: number): string => (count > 0 && Number.isFinite(avg) ? avg.toFixed(2) : '—');
