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
  router.post('/edit/work/:id', route({ bodyLimit: 256 * KB }), async (ctx) => {
    const actor = requireActor(ctx);
    const { id } = validate(workIdParams, ctx.params, 'params');
    ctx.body = await edit.editWork(actor, id, validate(editWorkBody, ctx.request.body ?? {}, 'body'));
  });

  /** Candidates for the editor's pickers: every label (unused and custom ones too) matching `q`. */
  router.get('/edit/candidates', async (ctx) => {
    const actor = requireActor(ctx);
    const q = validate(candidatesQuery, ctx.query);
    ctx.body = await edit.candidates(actor, q.type, q.q, q.limit);
  });

  router.post('/work/fix/gbk/:id', async (ctx) => {
    const actor = requireActor(ctx);
    const { id } = validate(workIdParams, ctx.params, 'params');
    ctx.body = await edit.fixGbk(actor, id);
  });

  router.post('/uncensor/tags', route({ bodyLimit: 256 * KB }), async (ctx) => {
    const actor = requireActor(ctx);
    const { undo } = validate(undoQuery, ctx.query);
    const body = validate(uncensorBody, ctx.request.body ?? {}, 'body');
    ctx.body = await edit.uncensorTags(actor, { undo: undo === '1' || undo === 'true', mapping: body.mapping });
  });
};
