import type { RouteModule } from './types.js';
import { requireActor } from '../middleware/auth.js';
import { validate } from '../validate.js';
import { candidatesQuery, editWorkBody, uncensorBody, undoQuery, workIdParams } from '../../contract/requests/edit.js';
import { route } from '../route-policy.js';
import { KB } from '../limits.js';

/**
 * Admin corrections (docs/API.md#admin-corrections): metadata edits and the editor's candidate lists, garbled
 * file name repair, and restoring censored tag names. Guests and users get 403.
 */
export const editRoutes: RouteModule = (router, { edit }) => {
  router.post('/edit/work/:id', route({ summary: '修改作品的标题、社团、标签或声优', admin: true, params: workIdParams, body: editWorkBody, bodyLimit: 256 * KB }), async (ctx) => {
    const actor = requireActor(ctx);
    const { id } = validate(workIdParams, ctx.params, 'params');
    ctx.body = await edit.editWork(actor, id, validate(editWorkBody, ctx.request.body ?? {}, 'body'));
  });

  /** Candidates for the editor's pickers: every label (unused and custom ones too) matching `q`. */
  router.get('/edit/candidates', route({ summary: '编辑器的候选标签、声优或社团', admin: true, query: candidatesQuery }), async (ctx) => {
    const actor = requireActor(ctx);
    const q = validate(candidatesQuery, ctx.query);
    ctx.body = await edit.candidates(actor, q.type, q.q, q.limit);
  });

  router.post('/work/fix/gbk/:id', route({ summary: '修复作品文件夹中乱码的文件名', admin: true, params: workIdParams }), async (ctx) => {
    const actor = requireActor(ctx);
    const { id } = validate(workIdParams, ctx.params, 'params');
    ctx.body = await edit.fixGbk(actor, id);
  });

  router.post('/uncensor/tags', route({ summary: '还原被屏蔽的标签名（undo=1 撤销）', admin: true, query: undoQuery, body: uncensorBody, bodyLimit: 256 * KB }), async (ctx) => {
    const actor = requireActor(ctx);
    const { undo } = validate(undoQuery, ctx.query);
    const body = validate(uncensorBody, ctx.request.body ?? {}, 'body');
    ctx.body = await edit.uncensorTags(actor, { undo: undo === '1' || undo === 'true', mapping: body.mapping });
  });
};
