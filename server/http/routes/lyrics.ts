import type { RouteModule } from './types.js';
import { requireActor } from '../middleware/auth.js';
import { validate } from '../validate.js';
import { fetchParams, saveLrcBody, saveLrcParams, trackHashParams } from '../../contract/requests/lyrics.js';
import { route } from '../route-policy.js';
import { MB } from '../limits.js';

/**
 * Lyrics of a work's audio (docs/API.md#lyrics).
 * The lookups take `?token=` as media elements do (the kikoeru web client sends it on check-lrc);
 * saving needs the header.
 */
export const lyricsRoutes: RouteModule = (router, { lyrics }) => {
  const lookup = route({ queryToken: true });
  router.get('/media/check-lrc/:id/:index', lookup, async (ctx) => {
    const { id, index } = validate(trackHashParams, ctx.params, 'params');
    ctx.body = await lyrics.check(id, index);
  });

  router.get('/media/query-lrc/:id/:index', lookup, async (ctx) => {
    const { id, index } = validate(trackHashParams, ctx.params, 'params');
    ctx.body = await lyrics.query(id, index);
  });

  router.get('/media/fetch-lrc/:id/:ref/:isAI', lookup, async (ctx) => {
    const { id, ref, isAI } = validate(fetchParams, ctx.params, 'params');
    ctx.body = isAI === '1' ? await lyrics.fetchAi(id, ref) : await lyrics.fetchLocal(id, ref);
  });

  router.post('/media/save-lrc/:workId', route({ bodyLimit: 2 * MB }), async (ctx) => {
    const actor = requireActor(ctx);
    const { workId } = validate(saveLrcParams, ctx.params, 'params');
    const body = validate(saveLrcBody, ctx.request.body ?? {}, 'body');
    ctx.body = await lyrics.save(actor, workId, body);
  });
};
