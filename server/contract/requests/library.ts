/** Request schemas of the cover and per-work rescan routes (`server/http/routes/library.ts`). Pure. */
import { z } from 'zod';

/** `:id` of `GET /api/cover/:id` and `POST /api/work/scan/:id`. */
export const workIdParams = z.object({
  id: z
    .string()
    .regex(/^\d{1,16}$/, '作品 id 必须是整数')
    .transform(Number),
});
