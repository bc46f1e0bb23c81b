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
  router.get('/media/check-lrc/:id/:index', route({ summary: '音频文件是否有匹配的歌词', queryToken: true, params: trackHashParams }), async (ctx) => {
    const { id, index } = validate(trackHashParams, ctx.params, 'params');
    ctx.body = await lyrics.check(id, index);
  });

  router.get('/media/query-lrc/:id/:index', route({ summary: '音频文件可选的歌词（本地与 AI）', queryToken: true, params: trackHashParams }), async (ctx) => {
    const { id, index } = validate(trackHashParams, ctx.params, 'params');
    ctx.body = await lyrics.query(id, index);
  });

  router.get('/media/fetch-lrc/:id/:ref/:isAI', route({ summary: '读取一份歌词（解析后的行）', queryToken: true, params: fetchParams }), async (ctx) => {
    const { id, ref, isAI } = validate(fetchParams, ctx.params, 'params');
    ctx.body = isAI === '1' ? await lyrics.fetchAi(id, ref) : await lyrics.fetchLocal(id, ref);
  });

  router.post(
    '/media/save-lrc/:workId',
    route({ summary: '把编辑后的歌词写入作品文件夹', admin: '只有管理员能保存歌词文件.', params: saveLrcParams, body: saveLrcBody, bodyLimit: 2 * MB }),
    async (ctx) => {
      const actor = requireActor(ctx);
      const { workId } = validate(saveLrcParams, ctx.params, 'params');
      const body = validate(saveLrcBody, ctx.request.body ?? {}, 'body');
      ctx.body = await lyrics.save(actor, workId, body);
    },
  );
};
