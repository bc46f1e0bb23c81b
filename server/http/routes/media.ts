import type { Context } from 'koa';
import type { RouteModule } from './types.js';
import { validate } from '../validate.js';
import { sendFile } from '../../media/stream.js';
import type { MediaTarget } from '../../services/media-service.js';
import { route } from '../route-policy.js';
import { trackHashParams, workZipParams, workZipQuery } from '../../contract/requests/media.js';

/** Send a media target: the file (Range → 206), or the offload redirect. Also used by the Subsonic `stream` and `download`. */
export async function answer(ctx: Context, target: MediaTarget, attachment: boolean): Promise<void> {
  if ('redirect' in target) {
    ctx.status = 302;
    ctx.set('Location', target.redirect);
    ctx.set('Cache-Control', 'private, no-store');
    ctx.body = `Redirecting to ${target.redirect}`;
    return;
  }
  await sendFile(ctx, target.source, { type: target.type, attachmentName: attachment ? target.name : undefined });
}

/**
 * Streams, downloads and thumbnails of work files (docs/API.md#media). Tokens may come as `?token=`.
 *
 * Flutter builds `/api/media/download/<hash>/<file name>` (and `/stream/<hash>/<file name>`) when a
 * track has no media URL: the name is informational and not compared with the file's. The hash alone
 * names the file (a number is never reused for another path), while the name the app sends is its own
 * copy of the track title (other Unicode normalisation, an older tree, its own encoding), so refusing a
 * mismatch would only break downloads. The response names the real file either way.
 */
export const mediaRoutes: RouteModule = (router, { media, workZips }) => {
  // <audio>, <video>, <img> and download links cannot send a header
  for (const suffix of ['', '/:name']) {
    router.get(`/media/stream/:id/:index${suffix}`, route({ summary: '播放一个文件（支持 Range）', queryToken: true, params: trackHashParams }), async (ctx) => {
      const { id, index } = validate(trackHashParams, ctx.params, 'params');
      await answer(ctx, await media.stream(id, index), false);
    });

    router.get(`/media/download/:id/:index${suffix}`, route({ summary: '下载一个文件', queryToken: true, params: trackHashParams }), async (ctx) => {
      const { id, index } = validate(trackHashParams, ctx.params, 'params');
      await answer(ctx, await media.download(id, index), true);
    });
  }

  router.get('/media/small-img/:id/:index', route({ summary: '图片文件的缩略图', queryToken: true, params: trackHashParams }), async (ctx) => {
    const { id, index } = validate(trackHashParams, ctx.params, 'params');
    await answer(ctx, await media.smallImage(id, index), false);
  });

  router.get('/media/download-work/:id', route({ summary: '把整个作品（或 ?path= 指定的文件夹）打包成 zip 下载', queryToken: true, params: workZipParams, query: workZipQuery }), async (ctx) => {
    const { id } = validate(workZipParams, ctx.params, 'params');
    const { path } = validate(workZipQuery, ctx.query, 'query');
    const zip = await workZips.open(id, path, { actor: ctx.state.actor ?? null, address: ctx.ip });
    // the archive stops reading the moment the client goes away
    ctx.res.once('close', () => zip.body.destroy());
    ctx.attachment(zip.fileName, { fallback: true });
    ctx.set('Cache-Control', 'private, no-store');
    ctx.type = 'application/zip';
    ctx.body = zip.body;
  });
};
