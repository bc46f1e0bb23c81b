/** Small display formats shared by cards, list items and the work page (dates, numbers and lengths: i18n/format.ts). */

/** Average rating with two decimals, or a dash without ratings. */
export const formatAverage = (avg: number, count: number): string => (count > 0 && Number.isFinite(avg) ? avg.toFixed(2) : '—');
