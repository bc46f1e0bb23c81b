/**
 * Every number, date and time the web app shows, formatted for the active language with `Intl` in the
 * viewer's time zone. One module: screens never call toLocale*() or slice date strings themselves.
 *
 * Whole numbers and calendar dates are formatted by hand for the tags whose output is known (checked
 * against ICU in test/unit/web-format.test.ts): the first ICU format of a fresh page costs tens of
 * milliseconds (locale data), on the path to the first work cards. Anything else goes to ICU.
 *
 * Lengths of time (a track, a work, a position) are written as a clock, `m:ss` or `h:mm:ss`: the same
 * in English, Japanese and Chinese, and no ICU on the first cards.
 */
import { activeFormatTag } from './active.js';

/** Thousands separators of the tags whose whole numbers are grouped by three (as ICU writes them). */
const GROUPING: Record<string, string> = { en: ',', 'en-US': ',', 'en-GB': ',', ja: ',', 'ja-JP': ',', 'zh-CN': ',' };

/** Calendar dates (year, 2-digit month, 2-digit day) as ICU writes them for these tags. */
const DATE_ORDER: Record<string, (y: string, m: string, d: string) => string> = {
  en: (y, m, d) => `${m}/${d}/${y}`,
  'en-US': (y, m, d) => `${m}/${d}/${y}`,
  'en-GB': (y, m, d) => `${d}/${m}/${y}`,
  ja: (y, m, d) => `${y}/${m}/${d}`,
  'ja-JP': (y, m, d) => `${y}/${m}/${d}`,
  'zh-CN': (y, m, d) => `${y}/${m}/${d}`,
};

/** ICU formatters, one per tag and options, made on first use. */
const cache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat | Intl.RelativeTimeFormat>();
function cached<F extends Intl.NumberFormat | Intl.DateTimeFormat | Intl.RelativeTimeFormat>(key: string, make: () => F): F {
  let f = cache.get(key) as F | undefined;
  if (!f) cache.set(key, (f = make()));
  return f;
}

/** A number: digits grouped, decimals as the language writes them. */
export function num(n: number, tag = activeFormatTag()): string {
  const sep = GROUPING[tag];
  if (sep !== undefined && Number.isSafeInteger(n)) {
    const digits = String(Math.abs(n));
    let out = digits;
    if (digits.length > 3) {
      const head = digits.length % 3 || 3;
      out = digits.slice(0, head);
      for (let i = head; i < digits.length; i += 3) out += `${sep}${digits.slice(i, i + 3)}`;
    }
    return n < 0 ? `-${out}` : out;
  }
  return cached(`n:${tag}`, () => new Intl.NumberFormat(tag)).format(n);
}

const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const SERVER_TIME = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * A server time as a Date: `YYYY-MM-DD HH:MM:SS` (SQLite, UTC) or ISO 8601 (a zone, or UTC without
 * one); epoch ms as is. Undefined for anything else.
 */
export function parseServerTime(value: string | number | Date | null | undefined): Date | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value;
  if (typeof value === 'number') return Number.isFinite(value) ? new Date(value) : undefined;
  const m = SERVER_TIME.exec(value.trim());
  if (!m) return undefined;
  const d = new Date(`${m[1]}T${m[2]}${m[3] ?? 'Z'}`);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

const pad = (n: number) => String(n).padStart(2, '0');

function dateParts(y: number, m: number, d: number, timeZone: string | undefined, tag: string): string {
  const order = DATE_ORDER[tag];
  if (order) return order(String(y), pad(m), pad(d));
  return cached(`d:${tag}:${timeZone ?? ''}`, () => new Intl.DateTimeFormat(tag, { year: 'numeric', month: '2-digit', day: '2-digit', timeZone })).format(new Date(Date.UTC(y, m - 1, d, 12)));
}

/**
 * A date. A calendar date (`YYYY-MM-DD`, a release date) is that day wherever the viewer is; a
 * timestamp is the day it was in the viewer's time zone. Text that is neither is shown as it is.
 */
export function formatDate(value: string | number | Date | null | undefined, tag = activeFormatTag()): string {
  if (value === null || value === undefined || value === '') return '';
  if (typeof value === 'string') {
    const cal = CALENDAR_DATE.exec(value.trim());
    if (cal) return dateParts(Number(cal[1]), Number(cal[2]), Number(cal[3]), 'UTC', tag);
  }
  const d = parseServerTime(value);
  if (!d) return String(value);
  return dateParts(d.getFullYear(), d.getMonth() + 1, d.getDate(), undefined, tag);
}

/** A moment: date and time of day in the viewer's time zone. */
export function formatDateTime(value: string | number | Date | null | undefined, tag = activeFormatTag()): string {
  const d = parseServerTime(value);
  if (!d) return value === null || value === undefined ? '' : String(value);
  return cached(`dt:${tag}`, () => new Intl.DateTimeFormat(tag, { dateStyle: 'medium', timeStyle: 'short' })).format(d);
}

/** A time of day (hours and minutes) in the viewer's time zone, e.g. when the sleep timer stops. */
export function formatTimeOfDay(value: number | Date, tag = activeFormatTag()): string {
  return cached(`t:${tag}`, () => new Intl.DateTimeFormat(tag, { hour: '2-digit', minute: '2-digit' })).format(value);
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400],
  ['month', 30 * 86_400],
  ['week', 7 * 86_400],
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
  ['second', 1],
];

/** How long ago (or how far ahead) a moment is: "3 days ago", "3 日前", "3天前"; "now" within a minute. */
export function formatRelative(value: string | number | Date | null | undefined, now = Date.now(), tag = activeFormatTag()): string {
  const d = parseServerTime(value);
  if (!d) return value === null || value === undefined ? '' : String(value);
  const seconds = (d.getTime() - now) / 1000;
  const rtf = cached(`r:${tag}`, () => new Intl.RelativeTimeFormat(tag, { numeric: 'auto' }));
  if (Math.abs(seconds) < 60) return rtf.format(0, 'second');
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return rtf.format(Math.trunc(seconds / size), unit);
  }
  return rtf.format(0, 'second');
}

/** A position or length of time as a clock: `m:ss`, `h:mm:ss` from an hour on; negative and unknown read as 0:00. */
export function formatTime(seconds: number): string {
  const total = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const ss = pad(total % 60);
  return h > 0 ? `${h}:${pad(m)}:${ss}` : `${m}:${ss}`;
}

/** The length of a work or file as a clock (rounded to the second); empty for unknown or zero. */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds <= 0) return '';
  return formatTime(Math.round(seconds));
}

/** Time left, rounded up to the second (a countdown never shows 0:00 before it is over). */
export const formatRemaining = (ms: number): string => formatTime(Math.max(0, Math.ceil(ms / 1000)));
