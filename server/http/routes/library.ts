import { createReadStream } from 'node:fs';
import { z } from 'zod';
import type { RouteModule } from './types.js';
import { requireActor } from '../middleware/auth.js';
import { validate } from '../validate.js';

/** Weak comparison of If-None-Match against the current ETag (RFC 9110 §13.1.2). */
function etagMatches(header: string, etag: string): boolean {
  if (!header) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || bare(tag) === bare(etag));
}

const idParam = z.object({ id: z.string().regex(/^\d{1,16}$/, '作品 id 必须是整数').transform(Number) });

/** Covers and the per-work file rescan (api-contract §4.6). */
export const libraryRoutes: RouteModule = (router, { library, scan }) => {
  router.get('/cover/:id', async (ctx) => {
    requireActor(ctx);
    const { id } = validate(idParam, ctx.params, 'params');
    const cover = await library.cover(id, ctx.query.type);
    ctx.status = 200;
    ctx.set('Cache-Control', 'private, no-cache');
    ctx.etag = cover.etag;
    ctx.lastModified = cover.mtime;
    if (etagMatches(ctx.get('If-None-Match'), cover.etag)) {
      ctx.status = 304;
      return;
    }
    ctx.type = 'image/jpeg';
    ctx.length = cover.size;
    if (ctx.method !== 'HEAD') ctx.body = createReadStream(cover.file);
  });

  router.post('/work/scan/:id', async (ctx) => {
    const actor = requireActor(ctx);
    const { id } = validate(idParam, ctx.params, 'params');
    ctx.body = await scan.scanWork(actor, id);
  });
};
