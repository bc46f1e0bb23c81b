/**
 * Numbers, dates and times for the interface language (web/src/i18n/format.ts), and how a first visit
 * picks its language (web/src/i18n/locale.ts). The hand-made fast paths must write exactly what ICU does.
 */
import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatDuration, formatRelative, formatTime, formatTimeOfDay, num, parseServerTime } from '../../web/src/i18n/format.js';
import { detectLocale, formatTagFor, localeOfTag } from '../../web/src/i18n/locale.js';

const FAST_TAGS = ['en', 'en-US', 'en-GB', 'ja', 'ja-JP', 'zh-CN'];

describe('num', () => {
  it('groups whole numbers exactly as Intl.NumberFormat does, for every fast-path tag', () => {
    const samples = [0, 1, 12, 123, 999, 1000, 1234, 12345, 123456, 999999, 1000000, 1234567, 98765432, 1234567890, Number.MAX_SAFE_INTEGER];
    for (let i = 0; i < 500; i++) samples.push(Math.floor(Math.random() * 10 ** (1 + (i % 12))));
    for (const tag of FAST_TAGS) {
      const icu = new Intl.NumberFormat(tag);
      for (const n of samples) {
        expect(num(n, tag)).toBe(icu.format(n));
        expect(num(-n || -1, tag)).toBe(icu.format(-n || -1));
      }
    }
  });
  it('leaves fractions, unsafe integers and other tags to ICU', () => {
    for (const tag of [...FAST_TAGS, 'de-DE', 'en-IN']) {
      const icu = new Intl.NumberFormat(tag);
      for (const n of [1.5, 1234.5678, 0.001, 2 ** 60, 1234567]) expect(num(n, tag)).toBe(icu.format(n));
    }
    expect(num(1234567, 'de-DE')).toBe('1.234.567');
  });
});

describe('dates and times', () => {
  it('reads SQLite and ISO server times as UTC unless they name a zone', () => {
    expect(parseServerTime('2024-01-02 03:04:05')?.toISOString()).toBe('2024-01-02T03:04:05.000Z');
    expect(parseServerTime('2024-01-02T03:04:05.250Z')?.toISOString()).toBe('2024-01-02T03:04:05.250Z');
    expect(parseServerTime('2024-01-02T03:04:05+09:00')?.toISOString()).toBe('2024-01-01T18:04:05.000Z');
    for (const bad of ['', 'yesterday', '2024-13-45 99:99', null, undefined, Number.NaN]) expect(parseServerTime(bad)).toBeUndefined();
  });

  it('writes calendar dates as ICU does per tag, the same day in every time zone', () => {
    for (const tag of [...FAST_TAGS, 'de-DE', 'fr']) {
      const icu = new Intl.DateTimeFormat(tag, { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: 'UTC' });
      for (const day of ['2024-01-02', '1999-12-31', '2020-02-29']) expect(formatDate(day, tag)).toBe(icu.format(new Date(`${day}T00:00:00Z`)));
    }
    expect(formatDate('2024-01-02', 'zh-CN')).toBe('2024/01/02');
    expect(formatDate('2024-01-02', 'ja')).toBe('2024/01/02');
    expect(formatDate('2024-01-02', 'en')).toBe('01/02/2024');
    expect(formatDate('2024-01-02', 'en-GB')).toBe('02/01/2024');
  });

  it('writes a timestamp as the day and time it was in the viewer’s time zone', () => {
    const at = '2024-01-02 23:30:00';
    const d = new Date('2024-01-02T23:30:00Z');
    expect(formatDate(at, 'ja')).toBe(new Intl.DateTimeFormat('ja', { year: 'numeric', month: '2-digit', day: '2-digit' }).format(d));
    expect(formatDateTime(at, 'en')).toBe(new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' }).format(d));
    expect(formatTimeOfDay(d.getTime(), 'zh-CN')).toBe(new Intl.DateTimeFormat('zh-CN', { hour: '2-digit', minute: '2-digit' }).format(d));
    expect(formatDate('not a date', 'en')).toBe('not a date');
    expect(formatDate(null, 'en')).toBe('');
  });

  it('says how long ago in the language', () => {
    const now = Date.parse('2024-03-10T12:00:00Z');
    expect(formatRelative('2024-03-07 12:00:00', now, 'en')).toBe('3 days ago');
    expect(formatRelative('2024-03-07 12:00:00', now, 'ja')).toBe('3 日前');
    expect(formatRelative('2024-03-07 12:00:00', now, 'zh-CN')).toBe('3天前');
    expect(formatRelative('2024-03-10 11:00:00', now, 'en')).toBe('1 hour ago');
    expect(formatRelative('2024-03-10 11:59:30', now, 'en')).toBe('now');
    expect(formatRelative('2023-03-01 00:00:00', now, 'en')).toBe('last year');
  });

  it('writes positions and lengths as a clock', () => {
    expect(formatTime(0)).toBe('0:00');
    expect(formatTime(65.9)).toBe('1:05');
    expect(formatTime(3725)).toBe('1:02:05');
    expect(formatTime(-3)).toBe('0:00');
    expect(formatDuration(59.6)).toBe('1:00');
    expect(formatDuration(0)).toBe('');
    expect(formatDuration(null)).toBe('');
  });
});

describe('language of a first visit', () => {
  it('maps ja* → ja, zh* → zh-CN, en* → en, in the browser’s order; English when none matches', () => {
    expect(detectLocale(['ja-JP', 'en-US'])).toBe('ja');
    expect(detectLocale(['zh-TW', 'ja'])).toBe('zh-CN');
    expect(detectLocale(['zh-CN'])).toBe('zh-CN');
    expect(detectLocale(['fr-FR', 'en-GB', 'ja'])).toBe('en');
    expect(detectLocale(['de', 'ko'])).toBe('en');
    expect(detectLocale([])).toBe('en');
    expect(detectLocale(undefined)).toBe('en');
    expect(localeOfTag('JA_jp')).toBe('ja');
    expect(localeOfTag('eo')).toBeUndefined();
  });
  it('formats with the browser’s own tag of the chosen language (en-GB dates), zh-CN as zh-CN', () => {
    expect(formatTagFor('en', ['fr', 'en-GB'])).toBe('en-GB');
    expect(formatTagFor('en', ['ja'])).toBe('en');
    expect(formatTagFor('ja', ['ja-JP'])).toBe('ja-JP');
    expect(formatTagFor('zh-CN', ['zh-TW'])).toBe('zh-CN');
  });
});
