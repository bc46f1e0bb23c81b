/**
 * Request schemas of ratings, reviews, progress and play history (`server/http/routes/user-data.ts`,
 * docs/API.md#reviews-ratings-and-progress, docs/API.md#play-history). Pure.
 */
import { z } from 'zod';
import { PROGRESS_VALUES } from '../works.js';
import { integerInput } from './inputs.js';
import { valueDepth } from '../../domain/json-depth.js';

/** A work id as a JSON integer or a string of digits (see integerInput). */
export const workIdInput = integerInput(1, 9e15, '需要作品的数字 id');
/** 1–5 as a number or a one-digit string, or null (clear); booleans and arrays are refused, not coerced. */
const rating = z.union(
  [
    z.null(),
    z.number().int().min(1).max(5),
    z
      .string()
      .trim()
      .regex(/^[1-5]$/)
      .transform(Number),
  ],
  { error: '需要 1–5 的整数或 null' },
);
const progress = z.union([z.null(), z.literal(''), z.enum(PROGRESS_VALUES)]);

/** Body of PUT /api/review (docs/API.md#reviews-ratings-and-progress). `user_name` is ignored: the actor is the token's user. */
export const reviewBody = z.object({
  work_id: workIdInput,
  rating: rating.optional(),
  review_text: z.union([z.null(), z.string()]).optional(),
  progress: progress.optional(),
  user_name: z.unknown().optional(),
});

/** Query of `DELETE /api/review` (`work_id` may also come in the body). */
export const deleteReviewQuery = z.object({ work_id: workIdInput });

/**
 * The most levels of arrays and objects in a play state: the state, its queue, an entry of the queue
 * (kikoeru clients' entries are flat objects of strings and numbers) and three more inside an entry.
 */
export const STATE_MAX_DEPTH = 6;

/**
 * The play state the client saves: an object with an array `queue` of objects, integer `index` and
 * numeric `seconds`, other fields kept as sent, at most STATE_MAX_DEPTH levels deep in all.
 */
export const historyState = z
  .object({
    queue: z.array(z.record(z.string(), z.unknown(), { error: '队列的每一项必须是对象' })),
    index: z.number().int().min(0),
    seconds: z.number().min(0),
  })
  .passthrough()
  .refine((s) => valueDepth(s, STATE_MAX_DEPTH) <= STATE_MAX_DEPTH, { message: `嵌套不能超过 ${STATE_MAX_DEPTH} 层` });
