import { z } from 'zod';
import type { Context } from 'koa';
import type { RouteModule } from './types.js';
import { requireActor } from '../middleware/auth.js';
import { validate } from '../validate.js';
import { canWrite } from '../../auth/roles.js';
import { forbidden } from '../../domain/errors.js';
import { MSG, type WorkerCaller } from '../../services/ai-tasks-service.js';
import { AI_STATUS_COUNT, aiStatusCode, isAiStatusName } from '../../domain/ai-status.js';
import { integerInput } from '../../contract/requests/inputs.js';
import { route } from '../route-policy.js';
import { KB, MB } from '../limits.js';

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
      ctx.addIssue({ code: 'custom', message: `未知的任务状态 ${JSON.stringify(v)}（0–4 或 none/pending/transcribing/success/error）` });
      return z.NEVER;
    }
    out.push(n);
  }
  return [...new Set(out)];
});

const listQuery = z.object({
  page: integerInput(-1, Number.MAX_SAFE_INTEGER, '需要页码（≥ 1，或 -1）').refine((p) => p === -1 || p >= 1, '需要页码（≥ 1，或 -1）'),
  status: statusList,
  work_id: integerInput(0, Number.MAX_SAFE_INTEGER, '需要作品的数字 id').optional(),
  file_name: z.string().max(500).optional(),
});

const hashParams = z.object({
  id: positiveId,
  index: integerInput(0, 1e9, '文件序号必须是非负整数'),
});

const idArrBody = z.object({ idArr: z.array(positiveId).max(10_000).optional() }).passthrough();

/** `id` as a JSON number or a form string of digits (the Python worker sends strings). */
const taskId = integerInput(1, Number.MAX_SAFE_INTEGER, '需要任务 id');
/** Empty secrets never match anything: they are refused outright. */
const secret = z.string({ error: '需要 secret' }).trim().min(1, 'secret 不能为空').max(256);

const acquireBody = z.object({ worker_name: z.string().trim().max(100).optional() }).passthrough();
const statusBody = z.object({ id: taskId, secret, worker_status: z.string().max(2000).optional() }).passthrough();
const heldQuery = z.object({ id: taskId, secret });
const finishBody = z
  .object({
    id: taskId,
    secret,
    success: z.union([z.boolean(), z.enum(['true', 'false']).transform((s) => s === 'true')]),
    // its size is the service's to judge (a 413 over the lyric limit)
    lrc_content: z.string({ error: '需要 lrc_content（可以为空字符串）' }),
  })
  .passthrough();

function idsOf(ctx: Context): number[] {
  const { id } = validate(z.object({ id: positiveId }), ctx.params, 'params');
  const { idArr } = validate(idArrBody, ctx.request.body ?? {}, 'body');
  return [id, ...(idArr ?? [])];
}

/** A worker token, or a logged-in user who is not a guest (with auth off: the admin). */
function workerCaller(ctx: Context): WorkerCaller {
  if (ctx.state.worker) return { kind: 'token', name: ctx.state.worker.name };
  const actor = requireActor(ctx);
  if (!canWrite(actor)) throw forbidden(MSG.guestWorker);
  return { kind: 'user', name: actor.name };
}

/** AI lyric tasks: the queue API (docs/API.md#ai-lyric-tasks) and the worker protocol (docs/API.md#ai-worker-protocol). */
export const aiLyricsRoutes: RouteModule = (router, { aiTasks }) => {
  // ---- UI side
  router.get('/lyric/translate', async (ctx) => {
    requireActor(ctx);
    const q = validate(listQuery, ctx.query);
    ctx.body = await aiTasks.list({ page: q.page, statuses: q.status, workId: q.work_id, fileName: q.file_name });
  });

  router.get('/lyric/translate/lrc', async (ctx) => {
    requireActor(ctx);
    const { id } = validate(z.object({ id: integerInput(0, Number.MAX_SAFE_INTEGER, '需要任务 id') }), ctx.query);
    ctx.body = await aiTasks.lrc(id);
  });

  router.put('/lyric/translate/:id/:index', async (ctx) => {
    const actor = requireActor(ctx);
    const { id, index } = validate(hashParams, ctx.params, 'params');
    ctx.body = await aiTasks.create(actor, id, index);
  });

  router.delete('/lyric/translate/:id', route({ bodyLimit: 128 * KB }), async (ctx) => {
    const actor = requireActor(ctx);
    ctx.body = await aiTasks.remove(actor, idsOf(ctx));
  });

  router.post('/lyric/translate/redo/:id', route({ bodyLimit: 128 * KB }), async (ctx) => {
    const actor = requireActor(ctx);
    ctx.body = await aiTasks.redo(actor, idsOf(ctx));
  });

  // ---- worker protocol (the only routes a worker token reaches). The Python worker sends forms
  // (acquire, status) and JSON (finish); a trailing slash is accepted on each.
  const workerPaths = (name: string) => [`/lyric/translate/${name}`, `/lyric/translate/${name}/`];
  const asWorker = route({ access: 'worker', form: true });
  router.post(workerPaths('acquire'), asWorker, async (ctx) => {
    const caller = workerCaller(ctx);
    const { worker_name } = validate(acquireBody, ctx.request.body ?? {}, 'body');
    ctx.body = await aiTasks.acquire(caller, worker_name);
  });

  router.post(workerPaths('status'), asWorker, async (ctx) => {
    workerCaller(ctx);
    const b = validate(statusBody, ctx.request.body ?? {}, 'body');
    ctx.body = await aiTasks.report(b.id, b.secret, b.worker_status);
  });

  router.get(workerPaths('get'), asWorker, async (ctx) => {
    workerCaller(ctx);
    const q = validate(heldQuery, ctx.query);
    ctx.body = await aiTasks.held(q.id, q.secret);
  });

  router.get(workerPaths('download'), asWorker, async (ctx) => {
    workerCaller(ctx);
    const q = validate(heldQuery, ctx.query);
    const file = await aiTasks.download(q.id, q.secret);
    ctx.attachment(file.fileName);
    if (!ctx.type) ctx.type = 'application/octet-stream';
    ctx.body = file.stream;
    ctx.length = file.size;
  });

  // the lyric of a whole work can be long (the service caps `lrc_content` itself)
  router.post(workerPaths('finish'), route({ access: 'worker', form: true, bodyLimit: 2 * MB }), async (ctx) => {
    const caller = workerCaller(ctx);
    const b = validate(finishBody, ctx.request.body ?? {}, 'body');
    ctx.body = await aiTasks.finish(caller, b.id, b.secret, b.success, b.lrc_content);
  });
};
