/**
 * Request schemas of ratings, reviews, progress and play history (`server/http/routes/user-data.ts`,
 * docs/API.md#reviews-ratings-and-progress, docs/API.md#play-history). Pure.
 */
import { z } from 'zod';
import { PROGRESS_VALUES } from '../works.js';
import { integerInput } from './inputs.js';

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

/** The play state the client saves: any object with an array `queue`, integer `index` and numeric `seconds`. */
export const historyState = z
  .object({
    queue: z.array(z.unknown()),
    index: z.number().int().min(0),
    seconds: z.number().min(0),
  })
  .passthrough();
