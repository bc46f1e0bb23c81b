/** Request schemas of the circle, tag and voice actor routes (`server/http/routes/labels.ts`, docs/API.md#labels). Pure. */
import { z } from 'zod';
import type { LabelKind } from '../labels.js';

/** `:id` of circles and tags (DLsite ids). */
export const numericIdSchema = z
  .string()
  .trim()
  .regex(/^\d{1,15}$/, 'id 必须是非负整数')
  .transform(Number);
/** `:id` of voice actors (uuid, or '0' for the N/A placeholder). */
export const vaIdSchema = z.string().trim().min(1, 'id 不能为空').max(64, 'id 过长');

/** `:id` of `/api/<kind>/:id` and `/api/<kind>/:id/works`, per label kind. */
export const labelIdParams: Record<LabelKind, z.ZodType<number | string>> = {
  circles: z.object({ id: numericIdSchema }).transform((p) => p.id),
  tags: z.object({ id: numericIdSchema }).transform((p) => p.id),
  vas: z.object({ id: vaIdSchema }).transform((p) => p.id),
};
