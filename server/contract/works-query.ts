/**
 * Query parameters of the work lists (docs/API.md#work-lists-and-search): the parsed form the works
 * service plans queries from, and the keyword and advanced-condition parsers. The zod schemas of the
 * wire strings are in `requests/works.ts`. Pure.
 */
import { z } from 'zod';
import { parseProductCode } from '../domain/work-code.js';
import { normalizeText } from '../domain/normalize.js';

/**
 * The sort fields of the kikoeru web client, `betterRandom` (one random work, /api/works only), and the orders the mobile
 * apps send: `create_date` (Android, Flutter: when the work was added = `created_at`), `updated_at`
 * (Flutter: last change of the work's files or metadata) and `nsfw` (Flutter, the old web client's
 * "all ages, newest first" = `nsfw&sort=asc`: the age rating picks the group, newest release first
 * within it).
 */
export const SORT_ORDERS = ['release', 'rating', 'dl_count', 'price', 'rate_average_2dp', 'review_count', 'id', 'created_at', 'create_date', 'updated_at', 'nsfw', 'random', 'betterRandom'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];
export type SortDirection = 'asc' | 'desc';

/** Upper bound of `pageSize` (mobile clients send 20–40); larger values are capped, not refused. */
export const MAX_PAGE_SIZE = 100;
/** Pages beyond this are refused (offsets must stay exact integers). */
export const MAX_PAGE = 1_000_000;
/** Most conditions one advanced search may carry. */
export const MAX_CONDITIONS = 32;
/** Longest keyword accepted. */
export const MAX_KEYWORD_LENGTH = 256;

/** Advanced search condition types (docs/API.md#work-lists-and-search): 0 unknown (ignored), fuzzy, va, tag, circle, code. */
export const CONDITION_TYPES = { UNKNOWN: 0, FUZZY: 1, VA: 2, TAG: 3, CIRCLE: 4, CODE: 5 } as const;

export type LyricPart = 'local' | 'ai' | 'no';

/** Parsed list filter: every field ANDed; `codeId` (a code condition) overrides every other condition. */
export interface WorkFilter {
  nsfw: 0 | 1 | 2;
  /** Works match when they satisfy any of the parts (`ai_local` = any lyric); null = no lyric filter. */
  lyric: LyricPart[] | null;
  circleIds: number[];
  tagIds: number[];
  vaIds: string[];
  /** Normalised search terms (NFKC, lower case), ANDed. */
  terms: string[];
  codeId: number | null;
}

export interface ListParams {
  page: number;
  pageSize: number | null;
  order: SortOrder;
  sort: SortDirection;
  seed: number;
  nsfw: 0 | 1 | 2;
  lyric: LyricPart[] | null;
}

// ---------------------------------------------------------------------------------------------------
// Keywords and advanced conditions

/** Trigram search needs 3 characters (code points); shorter terms are tested by substring. */
export const isIndexableTerm = (term: string) => [...term].length >= 3;

/**
 * Terms under 3 characters a search may have: each is a substring test over every candidate work (the
 * whole library when no other term or filter narrows it), so their number bounds a search's cost.
 */
export const MAX_SHORT_TERMS = 4;

/** The terms of a search, refused when it has more short terms than MAX_SHORT_TERMS. */
function boundedTerms(terms: string[]): string[] {
  const unique = [...new Set(terms)].slice(0, MAX_CONDITIONS);
  if (unique.filter((t) => !isIndexableTerm(t)).length > MAX_SHORT_TERMS) {
    throw new KeywordError(`关键字中少于 3 个字符的词最多 ${MAX_SHORT_TERMS} 个，请用更长的词搜索`);
  }
  return unique;
}

/** Split a keyword into normalised terms (white space separates terms; every term must match). */
export function keywordTerms(text: string): string[] {
  return boundedTerms(normalizeText(text).split(' ').filter(Boolean));
}

/** A product code typed as (part of) a plain keyword: RJ/BJ/VJ + 6 or 8 digits, or only digits. */
const PREFIXED_CODE = /(?:^|[^a-z0-9])((?:rj|bj|vj)(?:\d{8}|\d{6}))(?![0-9])/i;

export function emptyFilter(base: { nsfw: 0 | 1 | 2; lyric: LyricPart[] | null }): WorkFilter {
  return { nsfw: base.nsfw, lyric: base.lyric, circleIds: [], tagIds: [], vaIds: [], terms: [], codeId: null };
}

/** Plain keyword (`/api/search?keyword=` and `/api/search/:keyword`). */
export function filterFromKeyword(keyword: string, base: { nsfw: 0 | 1 | 2; lyric: LyricPart[] | null }): WorkFilter {
  const filter = emptyFilter(base);
  const text = keyword.trim();
  if ([...text].length > MAX_KEYWORD_LENGTH) throw new KeywordError(`关键字过长（最多 ${MAX_KEYWORD_LENGTH} 个字符）`);
  const whole = parseProductCode(text);
  if (whole !== null) {
    filter.codeId = whole;
    return filter;
  }
  const m = PREFIXED_CODE.exec(text);
  if (m) {
    filter.codeId = parseProductCode(m[1]);
    return filter;
  }
  filter.terms = keywordTerms(text);
  return filter;
}

/** A keyword or condition list the search cannot use: the route answers 400 with the message. */
export class KeywordError extends Error {}

const conditionSchema = z.object({
  t: z.union([z.number(), z.string().regex(/^\d+$/).transform(Number)]).pipe(z.number().int().min(0).max(5)),
  d: z.unknown(),
  name: z.unknown().optional(),
});

/** Advanced search (`isAdvance=1`): keyword is a JSON list of `{t, d, name}` conditions, ANDed. */
export function filterFromConditions(keyword: string, base: { nsfw: 0 | 1 | 2; lyric: LyricPart[] | null }): WorkFilter {
  const filter = emptyFilter(base);
  const text = keyword.trim();
  if (text === '') return filter;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new KeywordError('高级搜索的 keyword 必须是 JSON 条件列表 [{"t":类型,"d":值}]');
  }
  if (!Array.isArray(raw)) throw new KeywordError('高级搜索的 keyword 必须是 JSON 数组');
  if (raw.length > MAX_CONDITIONS) throw new KeywordError(`搜索条件过多（最多 ${MAX_CONDITIONS} 个）`);
  const terms: string[] = [];
  for (const [i, item] of raw.entries()) {
    const parsed = conditionSchema.safeParse(item);
    if (!parsed.success) throw new KeywordError(`第 ${i + 1} 个搜索条件无效：需要 {"t":0-5,"d":值}`);
    const { t, d } = parsed.data;
    const value = typeof d === 'number' ? String(d) : typeof d === 'string' ? d.trim() : null;
    if (t === CONDITION_TYPES.UNKNOWN) continue;
    if (value === null || value === '') throw new KeywordError(`第 ${i + 1} 个搜索条件的值 d 不能为空`);
    switch (t) {
      case CONDITION_TYPES.FUZZY:
        if ([...value].length > MAX_KEYWORD_LENGTH) throw new KeywordError(`关键字过长（最多 ${MAX_KEYWORD_LENGTH} 个字符）`);
        terms.push(...normalizeText(value).split(' ').filter(Boolean));
        break;
      case CONDITION_TYPES.VA:
        if (value.length > 64) throw new KeywordError(`第 ${i + 1} 个搜索条件的声优 id 无效`);
        if (!filter.vaIds.includes(value)) filter.vaIds.push(value);
        break;
      case CONDITION_TYPES.TAG:
      case CONDITION_TYPES.CIRCLE: {
        if (!/^\d{1,15}$/.test(value)) throw new KeywordError(`第 ${i + 1} 个搜索条件的${t === CONDITION_TYPES.TAG ? '标签' : '社团'} id 必须是整数`);
        const list = t === CONDITION_TYPES.TAG ? filter.tagIds : filter.circleIds;
        if (!list.includes(Number(value))) list.push(Number(value));
        break;
      }
      case CONDITION_TYPES.CODE: {
        const id = parseProductCode(value);
        if (id === null) throw new KeywordError(`第 ${i + 1} 个搜索条件不是有效的作品编号（RJ/BJ/VJ + 6 或 8 位数字）`);
        filter.codeId = id;
        break;
      }
    }
  }
  filter.terms = boundedTerms(terms);
  if (filter.codeId !== null) return { ...emptyFilter(base), codeId: filter.codeId };
  return filter;
}
