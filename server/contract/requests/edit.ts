/**
 * Request schemas of the admin correction routes (`server/http/routes/edit.ts`,
 * docs/API.md#admin-corrections). Pure.
 */
import { z } from 'zod';
import { MAX_TAG_NAME_LENGTH } from '../../domain/uncensor-tags.js';
import { integerInput, plainText } from './inputs.js';

/** `:id` of `POST /api/edit/work/:id` and `POST /api/work/fix/gbk/:id`. */
export const workIdParams = z.object({
  id: z
    .string()
    .regex(/^\d{1,15}$/, '作品 id 必须是正整数')
    .transform(Number),
});

const KINDS = { tag: 'tag', tags: 'tag', va: 'va', vas: 'va', circle: 'circle', circles: 'circle' } as const;
/** Query of `GET /api/edit/candidates`. */
export const candidatesQuery = z.object({
  type: z.enum(Object.keys(KINDS) as [keyof typeof KINDS, ...(keyof typeof KINDS)[]], { message: '必须是 tag、va 或 circle' }).transform((k) => KINDS[k]),
  q: z.string().max(100).default(''),
  limit: z
    .string()
    .regex(/^\d{1,4}$/, '必须是 1–1000 的整数')
    .transform(Number)
    .pipe(z.number().int().min(1).max(1000))
    .default(200),
});

/** Query of `POST /api/uncensor/tags`. */
export const undoQuery = z.object({ undo: z.enum(['', '0', '1', 'true', 'false']).optional() });

const name = plainText().min(1, '名称不能为空').max(MAX_TAG_NAME_LENGTH);
const numericId = integerInput(0, 9e15, 'id 必须是非负整数');
/** Candidate objects may carry extra fields (count, t, d, type); only id and name are read. */
const numericLabel = z.object({ id: numericId, name: plainText().max(MAX_TAG_NAME_LENGTH) }).passthrough();
const vaLabel = z.object({ id: z.union([z.literal(0), plainText().min(1).max(64)]), name: plainText().max(MAX_TAG_NAME_LENGTH) }).passthrough();

/** Body of `POST /api/edit/work/:id`. Fields left out are not changed; no text may hold control characters. */
export const editWorkBody = z
  .object({
    title: plainText().min(1, '标题不能为空').max(1000).optional(),
    circle: numericLabel.optional(),
    tags: z.array(numericLabel).max(200).optional(),
    vas: z.array(vaLabel).max(200).optional(),
  })
  .passthrough()
  .refine((b) => b.title !== undefined || b.circle !== undefined || b.tags !== undefined || b.vas !== undefined, { message: '至少需要 title、circle、tags、vas 之一' });
export type EditWorkBody = z.infer<typeof editWorkBody>;

/** Body of `POST /api/uncensor/tags` (optional): extra censored → original pairs, for other tag languages. */
export const uncensorBody = z
  .object({
    mapping: z.record(name, name).optional(),
  })
  .passthrough()
  .refine((b) => Object.keys(b.mapping ?? {}).length <= 1000, { message: 'mapping 最多 1000 项', path: ['mapping'] });
