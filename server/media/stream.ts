/**
 * Sending a file over HTTP (api-contract §4.7): byte ranges (206, 416), validators (ETag,
 * Last-Modified) with conditional GET (304) and If-Range, HEAD, inline or attachment.
 * koa-static does not do ranges, so media goes through this.
 */
import { createReadStream, type Stats } from 'node:fs';
import type { Context } from 'koa';
import rangeParser from 'range-parser';
import { AppError } from '../domain/errors.js';

export interface SendFileOptions {
  /** Full Content-Type value (with charset for text). */
  type: string;
  /** Send as a download with this file name (Content-Disposition: attachment, RFC 6266 filename*). */
  attachmentName?: string;
  /** Cache-Control value (default: revalidate every time; media is behind a token). */
  cacheControl?: string;
}

/** Strong validator from size and modification time (a changed file gets a new one). */
export const etagOf = (stat: Pick<Stats, 'size' | 'mtimeMs'>): string => `"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;

/** Read size: a typical player range (1 MB) is one read. */
const READ_CHUNK = 1024 * 1024;

function etagMatches(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

/** Seconds precision, as HTTP dates carry. */
const httpSeconds = (ms: number) => Math.floor(ms / 1000);

function notModified(ctx: Context, etag: string, mtimeMs: number): boolean {
  const inm = ctx.get('If-None-Match');
  if (inm) return etagMatches(inm, etag);
  const ims = ctx.get('If-Modified-Since');
  if (ims) {
    const t = Date.parse(ims);
    return !Number.isNaN(t) && httpSeconds(mtimeMs) <= httpSeconds(t);
  }
  return false;
}

/** If-Range: the range applies only while the client's validator is still current. */
function rangeStillValid(ctx: Context, etag: string, mtimeMs: number): boolean {
  const ifRange = ctx.get('If-Range');
  if (!ifRange) return true;
  if (ifRange.startsWith('"') || ifRange.startsWith('W/')) return ifRange.trim() === etag;
  const t = Date.parse(ifRange);
  return !Number.isNaN(t) && httpSeconds(t) === httpSeconds(mtimeMs);
}

/**
 * Answer the request with the file at `absPath` (already checked by the caller), whose `stat` was
 * just read. Malformed or multi-part Range headers get the whole file (200), as RFC 9110 allows;
 * unsatisfiable ones 416 with `Content-Range: bytes *\/size`.
 */
export function sendFile(ctx: Context, absPath: string, stat: Pick<Stats, 'size' | 'mtimeMs'>, opts: SendFileOptions): void {
  const etag = etagOf(stat);
  ctx.set('Accept-Ranges', 'bytes');
  ctx.set('ETag', etag);
  ctx.set('Last-Modified', new Date(stat.mtimeMs).toUTCString());
  ctx.set('Cache-Control', opts.cacheControl ?? 'private, max-age=0, must-revalidate');
  if (opts.attachmentName !== undefined) ctx.attachment(opts.attachmentName, { fallback: true });

  if ((ctx.method === 'GET' || ctx.method === 'HEAD') && notModified(ctx, etag, stat.mtimeMs)) {
    ctx.status = 304;
    return;
  }

  let start = 0;
  let end = stat.size - 1;
  ctx.status = 200;
  const range = ctx.get('Range');
  if (range && rangeStillValid(ctx, etag, stat.mtimeMs)) {
    const parsed = rangeParser(stat.size, range, { combine: true });
    if (parsed === -1) {
      throw new AppError('range_not_satisfiable', `请求的范围无效（文件大小 ${stat.size} 字节）`, {
        headers: { 'Content-Range': `bytes */${stat.size}` },
      });
    }
    if (parsed !== -2 && parsed.type === 'bytes' && parsed.length === 1) {
      start = parsed[0].start;
      end = parsed[0].end;
      ctx.status = 206;
      ctx.set('Content-Range', `bytes ${start}-${end}/${stat.size}`);
    }
  }

  ctx.type = opts.type;
  const length = stat.size === 0 ? 0 : end - start + 1;
  if (ctx.method === 'HEAD' || length === 0) {
    // no file handle for a body that is never sent; Koa sends only the headers for HEAD
    ctx.body = Buffer.alloc(0);
    ctx.length = length;
    return;
  }
  ctx.body = createReadStream(absPath, { start, end, highWaterMark: Math.min(READ_CHUNK, length) });
  ctx.length = length;
}
