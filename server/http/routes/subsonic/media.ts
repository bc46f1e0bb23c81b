import { createReadStream } from 'node:fs';
import { parseAlbumId, parseSongId } from '../../../services/subsonic/ids.js';
import { subsonicNotFound } from '../../../services/subsonic/subsonic-error.js';
import { answer } from '../media.js';
import { subsonicMethod, type SubsonicModule } from './router.js';

/** Cover sizes kikoplay stores, for `getCoverArt?size=` (the smallest that is at least as large). */
function coverType(size: number | undefined): string {
  if (size === undefined) return 'main';
  if (size <= 240) return '240x240';
  if (size <= 360) return '360x360';
  return 'main';
}

/**
 * stream, download and getCoverArt: files go through the media service (the stored file index, the
 * path-safety checks, Range → 206, offload redirects); no transcoding (`format` and `maxBitRate` are
 * ignored: the original file is sent).
 */
export const subsonicMedia: SubsonicModule = (router, { media, library, subsonic, workZips }) => {
  subsonicMethod(router, 'stream', { summary: 'Subsonic: play an audio file (Range)' }, async ({ params }, ctx) => {
    const song = parseSongId(params.required('id'));
    if (!song) throw subsonicNotFound('Song');
    await answer(ctx, await media.stream(song.workId, song.n), false);
  });

  subsonicMethod(router, 'download', { summary: 'Subsonic: download an audio file, or a whole work as zip' }, async ({ actor, params }, ctx) => {
    const id = params.required('id');
    const song = parseSongId(id);
    if (song) return answer(ctx, await media.download(song.workId, song.n), true);
    const workId = parseAlbumId(id);
    if (workId === null) throw subsonicNotFound('Song');
    const zip = await workZips.open(workId, undefined, { actor, address: ctx.ip });
    ctx.res.once('close', () => zip.body.destroy());
    ctx.attachment(zip.fileName, { fallback: true });
    ctx.set('Cache-Control', 'private, no-store');
    ctx.type = 'application/zip';
    ctx.body = zip.body;
  });

  subsonicMethod(router, 'getCoverArt', { summary: 'Subsonic: cover of a work' }, async ({ params }, ctx) => {
    const workId = await subsonic.coverWorkId(params.required('id'));
    const cover = await library.cover(workId, coverType(params.optionalInt('size', 1, 100_000)));
    ctx.set('Cache-Control', 'private, max-age=3600');
    ctx.etag = cover.etag;
    ctx.lastModified = cover.mtime;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.type = 'image/jpeg';
    ctx.length = cover.size;
    ctx.body = createReadStream(cover.file);
  });
};
