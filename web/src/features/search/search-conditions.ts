/**
 * Advanced search conditions: the rules for
 * adding a typed keyword or a picked candidate, with their messages, and the wire form
 * `[{t, d, name}]` of `/api/search?isAdvance=1` (docs/API.md#work-lists-and-search). Pure.
 */
import { formatWorkCode, parseProductCode } from '../../../../server/domain/work-code.js';

/**
 * A search condition, the shape the `advancedKeywords` preference stores (lib/prefs.ts).
 * Declared here too so these rules stay free of browser code (the preferences module reads storage).
 */
export type SearchType = 'fuzzy' | 'va' | 'tag' | 'circle' | 'code' | 'unknown';
export interface SearchCondition {
  type: SearchType;
  value: string | number;
  name: string;
}

/** Wire numbers of the condition types. */
export const CONDITION_T: Record<SearchType, number> = { unknown: 0, fuzzy: 1, va: 2, tag: 3, circle: 4, code: 5 };

export interface WireCondition {
  t: number;
  d: string | number;
  name: string;
}

export const conditionsToWire = (conditions: readonly SearchCondition[]): WireCondition[] => conditions.map((c) => ({ t: CONDITION_T[c.type], d: c.value, name: c.name }));

/** The types a user picks in the type selector. */
export type PickType = 'fuzzy' | 'va' | 'tag' | 'circle';
export const PICK_TYPES: readonly PickType[] = ['fuzzy', 'va', 'tag', 'circle'];

export type AddError = 'empty' | 'duplicateKeyword' | 'duplicateCondition' | 'pickCandidate';
export type AddResult = { ok: true; conditions: SearchCondition[] } | { ok: false; error: AddError };

const sameValue = (a: string | number, b: string | number): boolean => String(a).trim().toLowerCase() === String(b).trim().toLowerCase();

/**
 * The user typed `text` and pressed Enter (or the add button) with `type` selected:
 * - empty text is refused;
 * - voice actor, tag and circle must be picked from the candidates, not typed;
 * - a product code (optional RJ/BJ/VJ + 6 or 8 digits) becomes a code condition;
 * - anything else is a fuzzy keyword, refused when already there.
 */
export function addTyped(conditions: readonly SearchCondition[], type: PickType, text: string): AddResult {
  const value = text.trim();
  if (!value) return { ok: false, error: 'empty' };
  if (type !== 'fuzzy') return { ok: false, error: 'pickCandidate' };
  const codeId = parseProductCode(value);
  if (codeId !== null) {
    const code = formatWorkCode(codeId);
    if (conditions.some((c) => c.type === 'code' && sameValue(c.value, code))) return { ok: false, error: 'duplicateCondition' };
    return { ok: true, conditions: [...conditions, { type: 'code', value: code, name: code }] };
  }
  if (conditions.some((c) => c.type === 'fuzzy' && sameValue(c.value, value))) return { ok: false, error: 'duplicateKeyword' };
  return { ok: true, conditions: [...conditions, { type: 'fuzzy', value, name: value }] };
}

/** A candidate (voice actor, tag or circle) was picked. */
export function addPicked(conditions: readonly SearchCondition[], picked: SearchCondition): AddResult {
  if (conditions.some((c) => c.type === picked.type && sameValue(c.value, picked.value))) return { ok: false, error: 'duplicateCondition' };
  return { ok: true, conditions: [...conditions, picked] };
}

export const removeAt = (conditions: readonly SearchCondition[], index: number): SearchCondition[] => conditions.filter((_, i) => i !== index);

/** A code condition makes the server ignore the others. */
export const hasCode = (conditions: readonly SearchCondition[]): boolean => conditions.some((c) => c.type === 'code');

// ---- candidates --------------------------------------------------------------------------------

export interface LabelCandidate {
  type: 'va' | 'tag' | 'circle';
  id: number | string;
  name: string;
  count: number;
}

const norm = (s: string): string => s.normalize('NFKC').toLowerCase();

/**
 * The candidates to list for `text` under `type`: names containing the text (NFKC, case-insensitive),
 * names starting with it first, then by count; `fuzzy` (auto) looks in all three lists. At most `limit`.
 */
export function matchCandidates(lists: Record<'va' | 'tag' | 'circle', readonly LabelCandidate[]>, type: PickType, text: string, limit = 24): LabelCandidate[] {
  const q = norm(text.trim());
  const pools = type === 'fuzzy' ? [lists.va, lists.tag, lists.circle] : [lists[type]];
  const hits: { c: LabelCandidate; starts: boolean }[] = [];
  for (const pool of pools) {
    for (const c of pool) {
      if (!q) {
        hits.push({ c, starts: false });
        continue;
      }
      const name = norm(c.name);
      const at = name.indexOf(q);
      if (at >= 0) hits.push({ c, starts: at === 0 });
    }
  }
  hits.sort((a, b) => Number(b.starts) - Number(a.starts) || b.c.count - a.c.count);
  return hits.slice(0, limit).map((h) => h.c);
}

export const candidateCondition = (c: LabelCandidate): SearchCondition => ({ type: c.type, value: c.id, name: c.name });
