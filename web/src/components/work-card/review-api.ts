/**
 * The current user's marks on a work (docs/API.md#reviews-ratings-and-progress): star rating, progress, full review, delete.
 * Query flags choose the mode exactly as the kikoeru clients send them. `user_name` is sent for old
 * servers; kikoplay takes the user from the token.
 */
import { api } from '../../api/client.js';
import type { Progress } from '../../../../server/contract/works.js';

interface Message {
  message: string;
}

export const PROGRESS_VALUES: readonly Progress[] = ['marked', 'listening', 'listened', 'replay', 'postponed'];

export const isProgress = (v: unknown): v is Progress => typeof v === 'string' && (PROGRESS_VALUES as readonly string[]).includes(v);

/** Stars only (cards, detail header). `rating` null clears the stars. */
export const putRating = (userName: string, workId: number, rating: number | null) =>
  api<Message>('PUT', '/api/review', { query: { starOnly: 'true' }, body: { user_name: userName, work_id: workId, rating } });

/** Progress only (the mark-progress menu, favourites). */
export const putProgress = (userName: string, workId: number, progress: Progress | null) =>
  api<Message>('PUT', '/api/review', { query: { starOnly: 'false', progressOnly: 'true' }, body: { user_name: userName, work_id: workId, progress } });

export interface ReviewInput {
  rating: number | null;
  review_text: string;
  progress: Progress | null;
}

/** The review dialog: rating, text and progress together. */
export const putReview = (userName: string, workId: number, review: ReviewInput) =>
  api<Message>('PUT', '/api/review', { query: { starOnly: 'false' }, body: { user_name: userName, work_id: workId, ...review } });

/** Removes the whole mark: rating, text and progress. */
export const deleteReview = (workId: number) => api<Message>('DELETE', '/api/review', { query: { work_id: workId } });
