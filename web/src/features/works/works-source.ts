/**
 * Where a work list comes from: the route and its query decide the endpoint and
 * the title; the list preferences decide the sort and filter parameters. Pure, so the rules are easy to
 * read in one place.
 */
import { conditionsToWire, type SearchCondition } from '../search/search-conditions.js';

/**
 * The list preferences this module reads (lib/prefs.ts validates them), declared by shape so the rules
 * stay free of browser code.
 */
type SortField = string;
type SortDirection = 'asc' | 'desc';
/** nsfw_0 all, nsfw_1 all ages, nsfw_2 adult. */
type AgeRating = `nsfw_${0 | 1 | 2}`;
type LyricOption = 'local' | 'ai' | 'no';

export type LabelKindParam = 'circles' | 'tags' | 'vas';

/** What the list shows. */
export type WorksSource = { kind: 'all' } | { kind: 'keyword'; keyword: string } | { kind: 'label'; label: LabelKindParam; id: string } | { kind: 'advanced'; conditions: SearchCondition[] };

/** The label query parameters of /works, in the order they win when several are given. */
const LABEL_PARAMS: [string, LabelKindParam][] = [
  ['circleId', 'circles'],
  ['tagId', 'tags'],
  ['vaId', 'vas'],
];

/** /works?keyword=…|circleId=…|tagId=…|vaId=…, or /search with the stored conditions. */
export function sourceOf(pathname: string, params: URLSearchParams, conditions: SearchCondition[]): WorksSource {
  if (pathname === '/search') return { kind: 'advanced', conditions };
  for (const [param, label] of LABEL_PARAMS) {
    const id = params.get(param)?.trim();
    if (id) return { kind: 'label', label, id };
  }
  const keyword = params.get('keyword')?.trim();
  if (keyword) return { kind: 'keyword', keyword };
  return { kind: 'all' };
}

/** Whether the list is narrowed by search terms (the recent strip is hidden then). */
export const hasSearchTerms = (source: WorksSource): boolean => source.kind !== 'all';

export interface ListFilters {
  sortField: SortField;
  sortDirection: SortDirection;
  ageRating: AgeRating;
  lyricOptions: LyricOption[];
}

/** `lyric` parameter: the selected options sorted and joined with '_' (`ai_local`, `no`); none → absent. */
export function lyricParam(options: readonly LyricOption[]): string | undefined {
  if (options.includes('no')) return 'no';
  const parts = [...new Set(options)].sort();
  return parts.length ? parts.join('_') : undefined;
}

/**
 * Selecting lyric options: picking "no lyric" together with others leaves only "no lyric"; picking
 * another option while "no lyric" is on replaces it.
 */
export function nextLyricOptions(previous: readonly LyricOption[], picked: readonly LyricOption[]): LyricOption[] {
  const unique = [...new Set(picked)];
  if (!unique.includes('no')) return unique;
  const justAddedNo = !previous.includes('no');
  if (justAddedNo || unique.length === 1) return ['no'];
  return unique.filter((o) => o !== 'no');
}

export const nsfwParam = (age: AgeRating): number => Number(age.slice(-1));

/** A new random seed 0–99 for `order=random`. */
export const randomSeed = (): number => Math.floor(Math.random() * 100);

export interface WorksRequest {
  path: string;
  query: Record<string, string | number | undefined>;
}

/** The API call for one page of the list. */
export function worksRequest(source: WorksSource, filters: ListFilters, seed: number, page: number): WorksRequest {
  const query: WorksRequest['query'] = {
    page,
    order: filters.sortField,
    sort: filters.sortDirection,
    nsfw: nsfwParam(filters.ageRating),
    lyric: lyricParam(filters.lyricOptions),
    seed,
  };
  switch (source.kind) {
    case 'all':
      return { path: '/api/works', query };
    case 'keyword':
      return { path: '/api/search', query: { ...query, keyword: source.keyword } };
    case 'label':
      return { path: `/api/${source.label}/${encodeURIComponent(source.id)}/works`, query };
    case 'advanced':
      return { path: '/api/search', query: { ...query, isAdvance: 1, keyword: JSON.stringify(conditionsToWire(source.conditions)) } };
  }
}

/** Everything that starts the list over (new seed, first page) when it changes. */
export function resetKey(source: WorksSource, filters: ListFilters): string {
  return JSON.stringify([source, filters.sortField, filters.sortDirection, filters.ageRating, [...filters.lyricOptions].sort()]);
}

// ---- the `page` query parameter ------------------------------------------------------------------

/** A `page` value: a positive integer, or null when it is not one. */
export function parsePage(raw: string | null): number | null {
  if (raw === null) return null;
  const s = raw.trim();
  if (!/^\d{1,9}$/.test(s)) return null;
  const n = Number(s);
  return n >= 1 ? n : null;
}

/** The jump input: an integer clamped to 1..max; anything else is null (ignored). */
export function clampJump(raw: string | number, max: number): number | null {
  const n = typeof raw === 'number' ? raw : Number(String(raw).trim());
  if (!Number.isFinite(n) || String(raw).trim() === '') return null;
  return Math.min(Math.max(1, Math.round(n)), Math.max(1, max));
}

export const pageCount = (total: number, pageSize: number): number => Math.max(1, Math.ceil(total / Math.max(1, pageSize)));
