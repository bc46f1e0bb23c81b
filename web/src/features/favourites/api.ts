/**
 * The current user's lists (docs/API.md#reviews-ratings-and-progress, docs/API.md#play-history): "my ratings / my progress"
 * (`GET /api/review`) and play history (`GET /api/histroy`, the contract's spelling), and deleting a
 * work's play record.
 */
import { api, apiGet } from '../../api/client.js';
import type { Pagination, Progress, WorkListItem } from '../../../../server/contract/works.js';
import type { FavouritesSort } from '../../lib/prefs.js';

/** `GET /api/review`: list form plus the user's review. */
export interface ReviewListWork extends WorkListItem {
  review_text: string | null;
  progress: Progress | null;
  /** The review's date, `YYYY-MM-DD`. */
  updated_at: string;
}

/** `GET /api/histroy`: list form without `userRating`, plus the saved play state. */
export type HistoryListWork = Omit<WorkListItem, 'userRating'> & {
  state: unknown;
  play_updated_at: string;
};

export interface ListPage<T> {
  works: T[];
  pagination: Pagination;
}

/** `allage` and `nsfw` are the all-ages-first and adult-first orders of the nsfw column (docs/API.md#reviews-ratings-and-progress). */
export function reviewOrder(sort: FavouritesSort): { order: string; sort: 'asc' | 'desc' } {
  if (sort === 'allage') return { order: 'nsfw', sort: 'asc' };
  if (sort === 'nsfw') return { order: 'nsfw', sort: 'desc' };
  return { order: sort, sort: 'desc' };
}

export const fetchReviews = (page: number, sort: FavouritesSort, filter: Progress | undefined, signal?: AbortSignal) =>
  apiGet<ListPage<ReviewListWork>>('/api/review', { page, ...reviewOrder(sort), filter }, signal);

export const fetchHistory = (page: number, signal?: AbortSignal) => apiGet<ListPage<HistoryListWork>>('/api/histroy', { page, sort: 'desc' }, signal);

export const deleteHistory = (workId: number) => api<{ message: string }>('DELETE', '/api/histroy', { body: { work_id: workId } });

export const FAVOURITES_KEY = ['favourites'] as const;
export const HISTORY_KEY = ['favourites', 'histroy'] as const;
