/**
 * Request schemas of the AI lyric task routes (`server/http/routes/ai-lyrics.ts`): the queue API
 * (docs/API.md#ai-lyric-tasks) and the worker protocol (docs/API.md#ai-worker-protocol). Pure.
 */
import { z } from 'zod';
import { AI_STATUS_COUNT, aiStatusCode, isAiStatusName } from '../../domain/ai-status.js';
import { integerInput } from './inputs.js';

const positiveId = integerInput(1, Number.MAX_SAFE_INTEGER, '需要正整数 id');

/** A JSON array of statuses, numeric (0–4) or textual (none … error); `[]` = all. */
const statusList = z.string({ error: '需要 JSON 数组，例如 [] 或 [1,2]' }).transform((text, ctx) => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    ctx.addIssue({ code: 'custom', message: '需要 JSON 数组，例如 [] 或 [1,2]' });
    return z.NEVER;
  }
  if (!Array.isArray(parsed)) {
    ctx.addIssue({ code: 'custom', message: '需要 JSON 数组，例如 [] 或 [1,2]' });
    return z.NEVER;
  }
  const out: number[] = [];
  for (const v of parsed) {
    const n = isAiStatusName(v) ? aiStatusCode(v) : typeof v === 'string' && /^\d$/.test(v) ? Number(v) : v;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n >= AI_STATUS_COUNT) {
      ctx.addIssue({ code: 'custom', message: '未知的任务状态（0–4 或 none/pending/transcribing/success/error）' });
      return z.NEVER;
    }
    out.push(n);
  }
  return [...new Set(out)];
});

/** Query of `GET /api/lyric/translate`. */
export const taskListQuery = z.object({
  page: integerInput(-1, Number.MAX_SAFE_INTEGER, '需要页码（≥ 1，或 -1）').refine((p) => p === -1 || p >= 1, '需要页码（≥ 1，或 -1）'),
  status: statusList,
  work_id: integerInput(0, Number.MAX_SAFE_INTEGER, '需要作品的数字 id').optional(),
  file_name: z.string().max(500).optional(),
});

/** Query of `GET /api/lyric/translate/lrc`. */
export const taskLrcQuery = z.object({ id: integerInput(0, Number.MAX_SAFE_INTEGER, '需要任务 id') });

/** `:id/:index` of `PUT /api/lyric/translate/:id/:index` (a track hash). */
export const trackHashParams = z.object({
  id: positiveId,
  index: integerInput(0, 1e9, '文件序号必须是非负整数'),
});

/** `:id` of the routes that act on tasks (delete, redo). */
export const taskIdParams = z.object({ id: positiveId });

/** Body of delete and redo: more task ids besides `:id`. */
export const idArrBody = z.object({ idArr: z.array(positiveId).max(10_000).optional() }).passthrough();

/** `id` as a JSON number or a form string of digits (the Python worker sends strings). */
const taskId = integerInput(1, Number.MAX_SAFE_INTEGER, '需要任务 id');
/** Empty secrets never match anything: they are refused outright. */
const secret = z.string({ error: '需要 secret' }).trim().min(1, 'secret 不能为空').max(256);

export const acquireBody = z.object({ worker_name: z.string().trim().max(100).optional() }).passthrough();
export const statusBody = z.object({ id: taskId, secret, worker_status: z.string().max(2000).optional() }).passthrough();
export const heldQuery = z.object({ id: taskId, secret });
export const finishBody = z
  .object({
    id: taskId,
    secret,
    success: z.union([z.boolean(), z.enum(['true', 'false']).transform((s) => s === 'true')]),
    // its size is the service's to judge (a 413 over the lyric limit)
    lrc_content: z.string({ error: '需要 lrc_content（可以为空字符串）' }),
  })
  .passthrough();
