import { z } from 'zod';
import type { RouteModule } from './types.js';
import { requireActor } from '../middleware/auth.js';
import { validate } from '../validate.js';
import { saveLrcBody } from '../../services/lyrics-service.js';
import { route } from '../route-policy.js';
import { MB } from '../limits.js';

const workIdParam = z.string().regex(/^\d{1,15}$/, '作品 id 必须是正整数').transform(Number);
const indexParam = z.string().regex(/^\d{1,9}$/, '文件序号必须是非负整数').transform(Number);

/** `:id/:index` = the track hash `<workId>/<n>` (n = the file's stable number). */
const hashParams = z.object({ id: workIdParam, index: indexParam });
const fetchParams = z.object({
  id: workIdParam,
  ref: z.string().regex(/^\d{1,15}$/, '必须是非负整数').transform(Number),
  isAI: z.enum(['0', '1'], { message: '必须是 0（本地歌词）或 1（AI 歌词）' }),
});

/**
 * Lyrics of a work's audio (docs/API.md#lyrics).
 * The lookups take `?token=` as media elements do (the kikoeru web client sends it on check-lrc);
 * saving needs the header.
 */
export const lyricsRoutes: RouteModule = (router, { lyrics }) => {
  const lookup = route({ queryToken: true });
  router.get('/media/check-lrc/:id/:index', lookup, async (ctx) => {
    const { id, index } = validate(hashParams, ctx.params, 'params');
    ctx.body = await lyrics.check(id, index);
  });

  router.get('/media/query-lrc/:id/:index', lookup, async (ctx) => {
    const { id, index } = validate(hashParams, ctx.params, 'params');
    ctx.body = await lyrics.query(id, index);
  });

  router.get('/media/fetch-lrc/:id/:ref/:isAI', lookup, async (ctx) => {
    const { id, ref, isAI } = validate(fetchParams, ctx.params, 'params');
    ctx.body = isAI === '1' ? await lyrics.fetchAi(id, ref) : await lyrics.fetchLocal(id, ref);
  });

  router.post('/media/save-lrc/:workId', route({ bodyLimit: 2 * MB }), async (ctx) => {
    const actor = requireActor(ctx);
    const { workId } = validate(z.object({ workId: workIdParam }), ctx.params, 'params');
    const body = validate(saveLrcBody, ctx.request.body ?? {}, 'body');
    ctx.body = await lyrics.save(actor, workId, body);
  });
};
