import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { notFound } from '../../domain/errors.js';
import type { RouteModule } from './types.js';
import { requireActor } from '../middleware/auth.js';
import { validate } from '../validate.js';
import { route } from '../route-policy.js';
import { workIdParams } from '../../contract/requests/library.js';

/** Weak comparison of If-None-Match against the current ETag (RFC 9110 §13.1.2). */
function etagMatches(header: string, etag: string): boolean {
  if (!header) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || bare(tag) === bare(etag));
}

/**
 * Covers up to this size are sent from one read into memory (a main cover is about 60 KB, a card size
 * 7–14 KB): under load that costs the server under half the CPU of a file stream per request (0.7–1.0
 * against 1.8–2.1 ms), and a list of cards asks for one per card. Anything larger is streamed.
 */
const BUFFERED_COVER_MAX_BYTES = 1024 * 1024;

/** Covers and the per-work file rescan (docs/API.md#work-detail-files-and-covers). */
export const libraryRoutes: RouteModule = (router, { library, scan }) => {
  // <img> elements cannot send a header
  router.get('/cover/:id', route({ summary: '作品封面（type=main|thumb|240x240）', queryToken: true, params: workIdParams }), async (ctx) => {
    requireActor(ctx);
    const { id } = validate(workIdParams, ctx.params, 'params');
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
    if (ctx.method === 'HEAD' || cover.size > BUFFERED_COVER_MAX_BYTES) {
      ctx.length = cover.size;
      if (ctx.method !== 'HEAD') ctx.body = createReadStream(cover.file);
      return;
    }
    try {
      // the length comes from the bytes read (a cover replaced since its stat is sent whole)
      ctx.body = await readFile(cover.file);
    } catch (err) {
      // removed since its stat (a rescan dropping the work's covers): gone, not a server error
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw notFound(`The cover of work ${id} is gone.`, { code: 'FILE_GONE' });
      throw err;
    }
  });

  router.post('/work/scan/:id', route({ summary: '重新扫描一部作品的文件', admin: '只有管理员能进行扫描操作.', params: workIdParams }), async (ctx) => {
    const actor = requireActor(ctx);
    const { id } = validate(workIdParams, ctx.params, 'params');
    ctx.body = await scan.scanWork(actor, id);
  });
};
