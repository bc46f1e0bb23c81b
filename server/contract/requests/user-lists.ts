/**
 * Request schemas of the current user's lists (`server/http/routes/user-lists.ts`,
 * docs/API.md#reviews-ratings-and-progress, docs/API.md#play-history). Pure.
 */
import { z } from 'zod';
import { PROGRESS_VALUES } from '../works.js';

/** Favourites sort fields (plus the other list orders old clients send). */
export const REVIEW_LIST_ORDERS = ['updated_at', 'userRating', 'release', 'review_count', 'dl_count', 'allage', 'nsfw', 'rating', 'price', 'rate_average_2dp', 'id', 'created_at'] as const;

const page = z
  .union([
    z.literal('').transform(() => 1),
    z
      .string()
      .regex(/^\d{1,9}$/, '必须是正整数')
      .transform(Number)
      .pipe(z.number().int().min(1, '必须是正整数')),
  ])
  .default(1);
const sort = z.enum(['asc', 'desc']).default('desc');
const pageSize = z
  .string()
  .regex(/^\d{1,3}$/, '必须是 1–100 的整数')
  .transform(Number)
  .pipe(z.number().int().min(1).max(100))
  .optional();

/** Query of `GET /api/review`. `seed` is accepted and unused (old clients send it). */
export const reviewListQuery = z
  .object({
    page,
    sort,
    order: z.enum(REVIEW_LIST_ORDERS).default('updated_at'),
    filter: z.union([z.literal('').transform(() => undefined), z.enum(PROGRESS_VALUES)]).optional(),
    seed: z
      .string()
      .regex(/^-?\d{1,9}$/, '必须是整数')
      .optional(),
    pageSize,
  })
  .passthrough();
export type ReviewListQuery = z.infer<typeof reviewListQuery>;

/** Query of `GET /api/histroy`. `order` is accepted and ignored: history is by time of play. */
export const historyListQuery = z.object({ page, sort, pageSize }).passthrough();
export type HistoryListQuery = z.infer<typeof historyListQuery>;
