import { z } from 'zod';
import type { RouteModule } from './types.js';
import { requireActor } from '../middleware/auth.js';
import { validate } from '../validate.js';
import { editWorkBody, uncensorBody } from '../../services/edit-service.js';
import { route } from '../route-policy.js';
import { KB } from '../limits.js';

const idParams = z.object({ id: z.string().regex(/^\d{1,15}$/, '作品 id 必须是正整数').transform(Number) });

const KINDS = { tag: 'tag', tags: 'tag', va: 'va', vas: 'va', circle: 'circle', circles: 'circle' } as const;
const candidatesQuery = z.object({
  type: z.enum(Object.keys(KINDS) as [keyof typeof KINDS, ...(keyof typeof KINDS)[]], { message: '必须是 tag、va 或 circle' }).transform((k) => KINDS[k]),
  q: z.string().max(100).default(''),
  limit: z.string().regex(/^\d{1,4}$/, '必须是 1–1000 的整数').transform(Number).pipe(z.number().int().min(1).max(1000)).default(200),
});
const undoQuery = z.object({ undo: z.enum(['', '0', '1', 'true', 'false']).optional() });

/**
 * Admin corrections (docs/API.md#admin-corrections): metadata edits and the editor's candidate lists, garbled
 * file name repair, and restoring censored tag names. Guests and users get 403.
 */
export const editRoutes: RouteModule = (router, { edit }) => {
  router.post('/edit/work/:id', route({ bodyLimit: 256 * KB }), async (ctx) => {
    const actor = requireActor(ctx);
    const { id } = validate(idParams, ctx.params, 'params');
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
    const { id } = validate(idParams, ctx.params, 'params');
    ctx.body = await edit.fixGbk(actor, id);
  });

  router.post('/uncensor/tags', route({ bodyLimit: 256 * KB }), async (ctx) => {
    const actor = requireActor(ctx);
    const { undo } = validate(undoQuery, ctx.query);
    const body = validate(uncensorBody, ctx.request.body ?? {}, 'body');
    ctx.body = await edit.uncensorTags(actor, { undo: undo === '1' || undo === 'true', mapping: body.mapping });
  });
};
