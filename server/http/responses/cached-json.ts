import { gzipSync } from 'node:zlib';
import type { Context } from 'koa';

interface Entry {
  version: number;
  etag: string;
  json: Buffer;
  gzip: Buffer;
}

/**
 * Serialized JSON bodies that are the same for every user until the library changes (label lists):
 * serialized and gzipped once per library version, answered with an ETag (304 on revalidation).
 */
export class CachedJsonBodies {
  private readonly entries = new Map<string, Entry>();

  send(ctx: Context, key: string, version: number, build: () => unknown): void {
    let entry = this.entries.get(key);
    if (!entry || entry.version !== version) {
      const json = Buffer.from(JSON.stringify(build()));
      entry = { version, etag: `"${key}-v${version}-${json.length.toString(16)}"`, json, gzip: gzipSync(json, { level: 6 }) };
      this.entries.set(key, entry);
    }
    ctx.set('ETag', entry.etag);
    ctx.set('Cache-Control', 'private, no-cache');
    ctx.vary('Accept-Encoding');
    const inm = ctx.get('If-None-Match');
    if (inm && inm.split(',').some((t) => t.trim().replace(/^W\//, '') === entry.etag)) {
      ctx.status = 304;
      return;
    }
    Object.assign(ctx, { compress: false }); // koa-compress: already encoded (or deliberately not)
    ctx.type = 'application/json; charset=utf-8';
    if (ctx.acceptsEncodings('gzip', 'identity') === 'gzip') {
      ctx.set('Content-Encoding', 'gzip');
      ctx.body = entry.gzip;
    } else {
      ctx.body = entry.json;
    }
  }
}
