/**
 * Pure mappings of kikoeru rows to kikoplay's: roles, work metadata, reviews, play-history track hashes
 * and AI task statuses. No I/O here.
 */
import type { Role } from '../../auth/roles.js';
import type { ImportWorkMetadata } from '../../db/repos/kikoeru-import-repo.js';
import { compareListPaths } from '../../domain/natural-sort.js';
import type { KikoeruData, KikoeruWorkRow } from './source.js';

export const ROLE_OF_GROUP: Record<string, Role> = { administrator: 'admin', user: 'user', guest: 'guest' };

const PROGRESS = new Set(['marked', 'listening', 'listened', 'replay', 'postponed']);

const TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** kikoeru's `YYYY-MM-DD HH:MM:SS` (UTC) as kikoplay stores it; other forms (ISO, epoch ms) converted; `fallback` otherwise. */
export function sqlTime(value: unknown, fallback: string): string {
  if (typeof value === 'string' && TIMESTAMP.test(value)) return value;
  const d = typeof value === 'number' ? new Date(value) : typeof value === 'string' ? new Date(value.replace(' ', 'T') + (/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? '' : 'Z')) : null;
  if (!d || Number.isNaN(d.getTime())) return fallback;
  return d.toISOString().slice(0, 19).replace('T', ' ');
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v.trim() && Number.isFinite(Number(v)) ? Number(v) : 0);

/** A JSON array text re-serialised, or null when it is not one. */
function jsonArray(text: string | null): string | null {
  if (text === null || text === '') return null;
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) && parsed.length ? JSON.stringify(parsed) : null;
  } catch {
    return null;
  }
}

export interface Memo {
  duration: Record<string, number>;
  isContainLyric: boolean;
}

export function parseMemo(text: string | null): Memo {
  try {
    const m = JSON.parse(text ?? '') as { duration?: unknown; isContainLyric?: unknown };
    const duration: Record<string, number> = {};
    if (m && typeof m.duration === 'object' && m.duration) {
      for (const [k, v] of Object.entries(m.duration as Record<string, unknown>)) if (typeof v === 'number' && Number.isFinite(v) && v >= 0) duration[k] = v;
    }
    return { duration, isContainLyric: m?.isContainLyric === true };
  } catch {
    return { duration: {}, isContainLyric: false };
  }
}

/** kikoeru's work row as the metadata kikoplay stores. */
export function workMetadata(row: KikoeruWorkRow, data: KikoeruData, now: string): ImportWorkMetadata {
  const memo = parseMemo(row.memo);
  const total = Object.values(memo.duration).reduce((a, b) => a + b, 0);
  const tags = (data.workTags.get(row.id) ?? []).filter((id) => data.tags.has(id)).map((id) => ({ id, name: data.tags.get(id)! }));
  const vas = (data.workVas.get(row.id) ?? []).filter((id) => data.vas.has(id)).map((id) => ({ id, name: data.vas.get(id)! }));
  const release = typeof row.release === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(row.release) ? row.release : '';
  const lyric = row.lyric_status ?? '';
  return {
    title: row.title,
    circle: { id: Number(row.circle_id) || 0, name: data.circles.get(Number(row.circle_id)) ?? '' },
    nsfw: row.nsfw === 1 || (row.nsfw as unknown) === true || (row.nsfw as unknown) === 'true',
    release,
    dlCount: Math.round(num(row.dl_count)),
    price: Math.round(num(row.price)),
    reviewCount: Math.round(num(row.review_count)),
    rateCount: Math.round(num(row.rate_count)),
    rateAverage: num(row.rate_average_2dp),
    rateCountDetail: jsonArray(row.rate_count_detail),
    rank: jsonArray(row.rank),
    hasLocalLyric: memo.isContainLyric || lyric === 'local' || lyric === 'ai_local',
    totalDuration: Math.round(total * 1000) / 1000,
    tags,
    vas,
    sourceUpdatedAt: sqlTime(row.updated_at, now),
  };
}

/** A review's fields as kikoplay keeps them, or null when nothing is left (kikoplay keeps no empty rows). */
export function reviewFields(r: { rating: number | null; review_text: string | null; progress: string | null }): {
  rating: number | null;
  text: string | null;
  progress: string | null;
} | null {
  const rating = typeof r.rating === 'number' && Number.isInteger(r.rating) && r.rating >= 1 && r.rating <= 5 ? r.rating : null;
  const text = typeof r.review_text === 'string' && r.review_text !== '' ? r.review_text : null;
  const progress = typeof r.progress === 'string' && PROGRESS.has(r.progress) ? r.progress : null;
  if (rating === null && text === null && progress === null) return null;
  return { rating, text, progress };
}

/** kikoeru's review work id (text holding the integer id). */
export function reviewWorkId(text: string): number | null {
  return /^\s*\d+\s*$/.test(text) ? Number(text) : null;
}

/**
 * The play state with its track hashes `<workId>/<index>` mapped to kikoplay's stable file numbers:
 * kikoeru's index is the file's position in its listing order, which is the list order kikoplay numbers a
 * folder's files in (compareListPaths). For a work kikoplay has listed, the index-th file in that order
 * gives the number; for one it has not listed yet, the index is kept: its first scan numbers the files in
 * that same order, so index and number agree. Returns the text unchanged when nothing changes.
 */
export function mapHistoryState(state: string, files: (workId: number) => { n: number; path: string }[] | undefined): { state: string; mapped: number; unmapped: number } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(state);
  } catch {
    return { state, mapped: 0, unmapped: 0 };
  }
  const queue = (parsed as { queue?: unknown })?.queue;
  if (!Array.isArray(queue)) return { state, mapped: 0, unmapped: 0 };
  let changed = false;
  let mapped = 0;
  let unmapped = 0;
  const ordered = new Map<number, { n: number; path: string }[] | null>();
  for (const item of queue) {
    const hash = (item as { hash?: unknown })?.hash;
    if (typeof hash !== 'string') continue;
    const m = /^(\d+)\/(\d+)$/.exec(hash);
    if (!m) continue;
    const workId = Number(m[1]);
    const index = Number(m[2]);
    if (!ordered.has(workId)) {
      const list = files(workId);
      ordered.set(workId, list && list.length ? list.slice().sort((a, b) => compareListPaths(a.path, b.path)) : null);
    }
    const list = ordered.get(workId);
    if (!list) {
      unmapped++;
      continue;
    }
    const file = list[index];
    if (!file) {
      unmapped++;
      continue;
    }
    mapped++;
    if (file.n !== index) {
      (item as { hash: string }).hash = `${workId}/${file.n}`;
      changed = true;
    }
  }
  return { state: changed ? JSON.stringify(parsed) : state, mapped, unmapped };
}
