import { v5 as uuidv5 } from 'uuid';
import type { Config } from '../../config/schema.js';
import { WORK_PREFIXES, workIdFromParts, type WorkPrefix } from '../../domain/work-code.js';
import { VA_NAMESPACE } from '../../domain/work-metadata.js';

/** Small, tolerant converters shared by the scrapers: remote JSON and HTML are never trusted to be typed. */

export type TagLanguage = Config['tagLanguage'];

export type Json = Record<string, unknown>;

export const asRecord = (v: unknown): Json => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
export const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const asText = (v: unknown): string => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');

/** A non-negative integer from a number or a string like "1,234" / "1234円"; 0 when there is none. */
export function toInt(v: unknown): number {
  const n = typeof v === 'number' ? v : Number(asText(v).replace(/[^\d.-]/g, ''));
  return Number.isFinite(n) && n > 0 ? Math.round(n) : 0;
}

export function toFloat(v: unknown): number {
  const n = typeof v === 'number' ? v : Number(asText(v));
  return Number.isFinite(n) && n > 0 ? n : 0;
}

/** A voice actor: id = uuidv5(name, VA_NAMESPACE) (docs/API.md#identifiers). */
export function vaFromName(name: string): { id: string; name: string } {
  const clean = name.trim();
  return { id: uuidv5(clean, VA_NAMESPACE), name: clean };
}

/** Drop duplicate names (same person linked twice) keeping the first order. */
export function uniqueVas(names: string[]): { id: string; name: string }[] {
  const seen = new Set<string>();
  const out: { id: string; name: string }[] = [];
  for (const raw of names) {
    const name = raw.trim();
    if (!name || seen.has(name)) continue;
    seen.add(name);
    out.push(vaFromName(name));
  }
  return out;
}

export function uniqueById<T extends { id: number }>(items: T[]): T[] {
  const seen = new Set<number>();
  return items.filter((item) => (seen.has(item.id) ? false : (seen.add(item.id), true)));
}

function validDate(y: number, m: number, d: number): string {
  if (y < 1970 || y > 2999 || m < 1 || m > 12 || d < 1 || d > 31) return '';
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** `2021年03月05日` / `2021/03/05` / `2021-03-05 16:00:00` → `2021-03-05`; '' when there is no date. */
export function parseDate(text: string): string {
  const m = /(\d{4})\D{1,3}(\d{1,2})\D{1,3}(\d{1,2})/.exec(text);
  if (m) return validDate(Number(m[1]), Number(m[2]), Number(m[3]));
  const digits = text.replace(/\D/g, '');
  if (digits.length >= 8) return validDate(Number(digits.slice(0, 4)), Number(digits.slice(4, 6)), Number(digits.slice(6, 8)));
  return '';
}

export const hasLatinLetter = (name: string): boolean => /[a-z]/i.test(name);

const MAKER_PREFIXES: Record<string, WorkPrefix> = { RG: 'RJ', BG: 'BJ', VG: 'VJ' };

/**
 * Circle id from a DLsite maker id. `RG12345` → 12345 (the kikoeru contract); the makers of the books
 * (`BG…`) and pro (`VG…`) floors get the offsets of their works (1e12 / 2e12 + digits, like BJ/VJ work ids)
 * so they can never collide with a doujin circle of the same digits. Null when the text holds no maker id.
 */
export function circleIdFromMakerId(text: string): number | null {
  const m = /(RG|BG|VG)(\d+)/i.exec(text);
  if (m) return workIdFromParts(MAKER_PREFIXES[m[1].toUpperCase()], Number(m[2]));
  const digits = /^\d+$/.exec(text.trim());
  return digits ? Number(digits[0]) : null;
}

/** A work id from a product code anywhere in a text (a URL, `RJ01234567`, an image file name). */
export function workIdFromText(text: string): number | null {
  const m = /(RJ|BJ|VJ)(\d{8}|\d{6})(?!\d)/i.exec(text);
  if (!m) return null;
  const prefix = m[1].toUpperCase() as WorkPrefix;
  return WORK_PREFIXES.includes(prefix) ? workIdFromParts(prefix, Number(m[2])) : null;
}

/** All work ids found in a text, in order. */
export function workIdsInText(text: string): number[] {
  const out: number[] = [];
  for (const m of text.matchAll(/(RJ|BJ|VJ)(\d{8}|\d{6})(?!\d)/gi)) out.push(workIdFromParts(m[1].toUpperCase() as WorkPrefix, Number(m[2])));
  return out;
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
