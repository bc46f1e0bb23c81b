/**
 * Small thumbnails of a work's images (`/api/media/small-img/:hash`, docs/API.md#media): made once with sharp, kept on disk under the thumbnail folder keyed by the source's size
 * and mtime (a changed image gets a new thumbnail), served from there afterwards.
 */
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';

/** Longest side of a thumbnail (64 CSS px at 2x). */
export const THUMB_SIZE = 128;

export interface ThumbSource {
  /** The image's bytes, read from a handle the caller opened and checked (never by path here). */
  read(): Promise<Buffer>;
  workId: number;
  n: number;
  size: number;
  mtimeMs: number;
}

export class ThumbnailError extends Error {}

export class Thumbnails {
  private readonly running = new Map<string, Promise<string>>();

  constructor(private readonly dir: () => string) {}

  /** Path of the cached JPEG thumbnail of `src`, made now when absent. */
  async get(src: ThumbSource): Promise<string> {
    const folder = path.join(this.dir(), String(src.workId));
    const file = path.join(folder, `${src.n}-${src.size}-${Math.floor(src.mtimeMs)}.jpg`);
    try {
      await fsp.access(file);
      return file;
    } catch {
      /* not made yet */
    }
    let p = this.running.get(file);
    if (!p) {
      p = this.make(src, folder, file).finally(() => this.running.delete(file));
      this.running.set(file, p);
    }
    return p;
  }

  private async make(src: ThumbSource, folder: string, file: string): Promise<string> {
    let data: Buffer;
    try {
      // loaded on first use: libvips costs ~20 MB of memory that a server without thumbnails never needs
      const { default: sharp } = await import('sharp');
      data = await sharp(await src.read(), { failOn: 'error', limitInputPixels: 100_000_000 })
        .rotate()
        .resize(THUMB_SIZE, THUMB_SIZE, { fit: 'inside', withoutEnlargement: true })
        .flatten({ background: '#ffffff' })
        .jpeg({ quality: 80, mozjpeg: true })
        .toBuffer();
    } catch (err) {
      throw new ThumbnailError((err as Error).message);
    }
    await fsp.mkdir(folder, { recursive: true });
    const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      await fsp.writeFile(tmp, data);
      await fsp.rename(tmp, file);
    } catch (err) {
      await fsp.rm(tmp, { force: true });
      throw err;
    }
    // thumbnails of older versions of the same file are no longer reachable
    const prefix = `${src.n}-`;
    for (const name of await fsp.readdir(folder)) {
      if (name.startsWith(prefix) && name.endsWith('.jpg') && path.join(folder, name) !== file) await fsp.rm(path.join(folder, name), { force: true });
    }
    return file;
  }
}
