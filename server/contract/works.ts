/**
 * Wire shapes of works (docs/API.md#work-lists-and-search, docs/API.md#work-detail-files-and-covers) and the presenters that build them from the
 * rows the browse repository returns. Pure: the web imports these types too.
 */

export type LyricStatus = '' | 'local' | 'ai' | 'ai_local';

/** `lyric_status`: the parts joined by '_' in this fixed order. */
export function lyricStatusOf(hasLocal: boolean, hasAi: boolean): LyricStatus {
  if (hasAi && hasLocal) return 'ai_local';
  if (hasAi) return 'ai';
  if (hasLocal) return 'local';
  return '';
}

export interface RateCountDetail {
  review_point: number;
  count: number;
  ratio: number;
}

export interface RankEntry {
  term: string;
  category: string;
  rank: number;
  rank_date: string;
}

export interface LabelRef<Id extends number | string> {
  id: Id;
  name: string;
}

/** Other editions of the same product present in the library; includes the work itself when non-empty. */
export interface RelatedWork {
  id: number;
  name: string;
}

/**
 * Whether the store's facts of a work are known: `ok` (fetched or edited), `pending` (not fetched yet),
 * `failed` (the last fetch failed, `metadata_error` says why), `not_found` (no site knows the work). Only
 * with `ok` do `price`, `dl_count`, `nsfw` and the ratings mean anything: they stay numbers (0 / false) on
 * the wire for the kikoeru clients, and the web shows them as unknown.
 */
export type MetadataStatus = 'ok' | 'pending' | 'failed' | 'not_found';

/** List form: `/api/works`, `/api/search`, `/api/{circles,tags,vas}/:id/works`. */
export interface WorkListItem {
  id: number;
  /** Display code, e.g. RJ123456 / BJ01234567 (extra field; old clients ignore it). */
  code: string;
  created_at: string;
  updated_at: string;
  title: string;
  /** Kept for the mobile clients. */
  circle_id: number;
  /** The circle's name (the Flutter client reads it). */
  name: string;
  nsfw: boolean;
  release: string;
  dl_count: number;
  price: number;
  review_count: number;
  rate_count: number;
  rate_average_2dp: number;
  rate_count_detail: RateCountDetail[] | null;
  rank: RankEntry[] | null;
  lyric_status: LyricStatus;
  /** The current user's stars, or null. */
  userRating: number | null;
  circle: LabelRef<number>;
  vas: LabelRef<string>[];
  tags: LabelRef<number>[];
  /** Total duration of the work's audio in seconds (`memo.totalDuration`). */
  memo: { totalDuration: number };
  relatedWorks: RelatedWork[];
  /** Extra field (old clients ignore it): see MetadataStatus. */
  metadata_status: MetadataStatus;
  /** Why the last metadata fetch failed (without request URLs), or null. */
  metadata_error: string | null;
}

export const PROGRESS_VALUES = ['marked', 'listening', 'listened', 'replay', 'postponed'] as const;
export type Progress = (typeof PROGRESS_VALUES)[number];

/** Detail form: list fields plus the current user's review and play state. */
export interface WorkDetail extends WorkListItem {
  review_text: string | null;
  progress: Progress | null;
  /** The review's owner (the current user) or null when there is no review. */
  user_name: string | null;
  /** When the current user's review/rating/progress last changed, or null. */
  review_updated_at: string | null;
  /** The current user's saved play state (opaque client JSON), or null. */
  state: unknown;
  /** Date (YYYY-MM-DD) the play state was saved, or null. */
  play_updated_at: string | null;
}

export interface Pagination {
  currentPage: number;
  pageSize: number;
  totalCount: number;
}

export interface WorksPage {
  works: WorkListItem[];
  pagination: Pagination;
}

// ---------------------------------------------------------------------------------------------------
// Presenters

/** One work as the browse repository reads it (JSON columns still text). */
export interface WorkRow {
  id: number;
  code: string;
  created_at: string;
  updated_at: string;
  title: string;
  circle_id: number;
  circle_name: string | null;
  nsfw: number;
  release: string;
  dl_count: number;
  price: number;
  review_count: number;
  rate_count: number;
  rate_average_2dp: number;
  rate_count_detail: string | null;
  rank: string | null;
  has_local_lyric: number;
  has_ai_lyric: number;
  total_duration: number;
  metadata_status: MetadataStatus;
  metadata_error: string | null;
  /** JSON [[id, name], …] in tag id order. */
  tags_json: string | null;
  /** JSON [[id, name], …] in credit order. */
  vas_json: string | null;
  /** JSON [[id, name], …]: editions listed in `related` that exist in the library (may include itself). */
  related_json: string | null;
}

/** The current user's own data about one work (review row, play history row); absent rows give nulls. */
export interface UserWorkRow {
  user_rating: number | null;
  review_text: string | null;
  progress: Progress | null;
  review_updated_at: string | null;
  user_name: string | null;
  history_state: string | null;
  history_updated_at: string | null;
}

function parseJson<T>(text: string | null): T | null {
  if (text === null || text === '') return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

function pairs<Id extends number | string>(text: string | null): LabelRef<Id>[] {
  const list = parseJson<[Id, string][]>(text);
  return Array.isArray(list) ? list.map(([id, name]) => ({ id, name })) : [];
}

const arrayOrNull = <T>(text: string | null): T[] | null => {
  const v = parseJson<T[]>(text);
  return Array.isArray(v) ? v : null;
};

/** relatedWorks: the editions in the library, the work itself first, only when there is another one. */
function relatedOf(row: WorkRow): RelatedWork[] {
  const list = pairs<number>(row.related_json);
  const others = list.filter((r) => r.id !== row.id);
  if (!others.length) return [];
  const self = list.find((r) => r.id === row.id) ?? { id: row.id, name: row.title };
  const seen = new Set<number>([row.id]);
  const out: RelatedWork[] = [self];
  for (const r of others) {
    if (seen.has(r.id)) continue;
    seen.add(r.id);
    out.push(r);
  }
  return out;
}

/** List form of a work; `userRating` is the current user's (rows are shared between users). */
export function presentWork(row: WorkRow, userRating: number | null = null): WorkListItem {
  const circleName = row.circle_name ?? '';
  return {
    id: row.id,
    code: row.code,
    created_at: row.created_at,
    updated_at: row.updated_at,
    title: row.title,
    circle_id: row.circle_id,
    name: circleName,
    nsfw: row.nsfw !== 0,
    release: row.release ?? '',
    dl_count: row.dl_count,
    price: row.price,
    review_count: row.review_count,
    rate_count: row.rate_count,
    rate_average_2dp: row.rate_average_2dp,
    rate_count_detail: arrayOrNull<RateCountDetail>(row.rate_count_detail),
    rank: arrayOrNull<RankEntry>(row.rank),
    lyric_status: lyricStatusOf(row.has_local_lyric !== 0, row.has_ai_lyric !== 0),
    userRating,
    circle: { id: row.circle_id, name: circleName },
    vas: pairs<string>(row.vas_json),
    tags: pairs<number>(row.tags_json),
    memo: { totalDuration: row.total_duration ?? 0 },
    relatedWorks: relatedOf(row),
    metadata_status: row.metadata_status ?? 'ok',
    metadata_error: row.metadata_status === 'failed' && row.metadata_error ? withoutUrls(row.metadata_error) : null,
  };
}

/** A fetch error without the URLs it names (a mirror's address is the admin's business). */
const withoutUrls = (text: string): string => text.replace(/\s*\(https?:\/\/[^)\s]*\)/g, '').trim();

/** Detail form: the list form of the work with the current user's review and play state. */
export function presentWorkDetail(work: WorkListItem, user: UserWorkRow | undefined): WorkDetail {
  return {
    ...work,
    userRating: user?.user_rating ?? null,
    review_text: user?.review_text ?? null,
    progress: user?.progress ?? null,
    user_name: user?.user_name ?? null,
    review_updated_at: user?.review_updated_at ?? null,
    state: parseJson<unknown>(user?.history_state ?? null),
    play_updated_at: user?.history_updated_at ? user.history_updated_at.slice(0, 10) : null,
  };
}
