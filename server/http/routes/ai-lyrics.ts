import type { Context } from 'koa';
import type { RouteModule } from './types.js';
import { requireActor, requireAdmin } from '../middleware/auth.js';
import { validate } from '../validate.js';
import { canWrite } from '../../auth/roles.js';
import { forbidden } from '../../domain/errors.js';
import { MSG, type WorkerCaller } from '../../services/ai-tasks-service.js';
import { acquireBody, finishBody, heldQuery, idArrBody, statusBody, taskIdParams, taskListQuery, taskLrcQuery, trackHashParams } from '../../contract/requests/ai-lyrics.js';
import { route } from '../route-policy.js';
import { KB, MB } from '../limits.js';

function idsOf(ctx: Context): number[] {
  const { id } = validate(taskIdParams, ctx.params, 'params');
  const { idArr } = validate(idArrBody, ctx.request.body ?? {}, 'body');
  return [id, ...(idArr ?? [])];
}

/** A worker token, or a logged-in user who is not a guest (with auth off: the admin). */
function workerCaller(ctx: Context): WorkerCaller {
  if (ctx.state.worker) return { kind: 'token', name: ctx.state.worker.name };
  const actor = requireActor(ctx);
  if (!canWrite(actor)) throw forbidden(MSG.guestWorker, { code: 'GUEST_READ_ONLY' });
  return { kind: 'user', name: actor.name };
}

/** AI lyric tasks: the queue API (docs/API.md#ai-lyric-tasks) and the worker protocol (docs/API.md#ai-worker-protocol). */
export const aiLyricsRoutes: RouteModule = (router, { aiTasks, workerTokens }) => {
  // ---- UI side
  router.get('/lyric/translate', route({ summary: 'AI 歌词任务列表（附带等待的任务数和是否有工作节点在运行）', query: taskListQuery }), async (ctx) => {
    const actor = requireActor(ctx);
    const q = validate(taskListQuery, ctx.query);
    ctx.body = await aiTasks.listFor(actor, { page: q.page, statuses: q.status, workId: q.work_id, fileName: q.file_name });
  });

  router.get('/lyric/translate/lrc', route({ summary: '一个任务生成的歌词', query: taskLrcQuery }), async (ctx) => {
    requireActor(ctx);
    const { id } = validate(taskLrcQuery, ctx.query);
    ctx.body = await aiTasks.lrc(id);
  });

  router.put('/lyric/translate/:id/:index', route({ summary: '为一个音频文件创建 AI 歌词任务', params: trackHashParams }), async (ctx) => {
    const actor = requireActor(ctx);
    const { id, index } = validate(trackHashParams, ctx.params, 'params');
    ctx.body = await aiTasks.create(actor, id, index);
  });

  router.delete('/lyric/translate/:id', route({ summary: '删除任务（自己的，管理员可删除任何人的）', params: taskIdParams, body: idArrBody, bodyLimit: 128 * KB }), async (ctx) => {
    const actor = requireActor(ctx);
    ctx.body = await aiTasks.remove(actor, idsOf(ctx));
  });

  router.post('/lyric/translate/redo/:id', route({ summary: '重做任务（自己的，管理员可重做任何人的）', params: taskIdParams, body: idArrBody, bodyLimit: 128 * KB }), async (ctx) => {
    const actor = requireActor(ctx);
    ctx.body = await aiTasks.redo(actor, idsOf(ctx));
  });

  // the AI centre's "start a worker" hint: a fresh worker token under a generated name
  router.post('/lyric/worker-tokens', route({ summary: '新建一个工作节点令牌（名称自动生成，令牌只显示这一次）', admin: true }), async (ctx) => {
    requireAdmin(ctx);
    ctx.body = await workerTokens.createGenerated('web');
  });

  // ---- worker protocol (the only routes a worker token reaches). The Python worker sends forms
  // (acquire, status) and JSON (finish); a trailing slash is accepted on each.
  const workerPaths = (name: string) => [`/lyric/translate/${name}`, `/lyric/translate/${name}/`];
  router.post(workerPaths('acquire'), route({ summary: '工作节点领取一个待转写任务', access: 'worker', form: true, body: acquireBody }), async (ctx) => {
    const caller = workerCaller(ctx);
    const { worker_name } = validate(acquireBody, ctx.request.body ?? {}, 'body');
    ctx.body = await aiTasks.acquire(caller, worker_name);
  });

  router.post(workerPaths('status'), route({ summary: '工作节点报告任务进度', access: 'worker', form: true, body: statusBody }), async (ctx) => {
    workerCaller(ctx);
    const b = validate(statusBody, ctx.request.body ?? {}, 'body');
    ctx.body = await aiTasks.report(b.id, b.secret, b.worker_status);
  });

  router.get(workerPaths('get'), route({ summary: '工作节点读取领取的任务', access: 'worker', query: heldQuery }), async (ctx) => {
    workerCaller(ctx);
    const q = validate(heldQuery, ctx.query);
    ctx.body = await aiTasks.held(q.id, q.secret);
  });

  router.get(workerPaths('download'), route({ summary: '工作节点下载任务的音频文件', access: 'worker', query: heldQuery }), async (ctx) => {
    workerCaller(ctx);
    const q = validate(heldQuery, ctx.query);
    const file = await aiTasks.download(q.id, q.secret);
    ctx.attachment(file.fileName);
    if (!ctx.type) ctx.type = 'application/octet-stream';
    ctx.body = file.stream;
    ctx.length = file.size;
  });

  // the lyric of a whole work can be long (the service caps `lrc_content` itself)
  router.post(workerPaths('finish'), route({ summary: '工作节点提交转写结果', access: 'worker', form: true, body: finishBody, bodyLimit: 2 * MB }), async (ctx) => {
    const caller = workerCaller(ctx);
    const b = validate(finishBody, ctx.request.body ?? {}, 'body');
    ctx.body = await aiTasks.finish(caller, b.id, b.secret, b.success, b.lrc_content);
  });
};
