/**
 * Sending a file over HTTP (docs/API.md#media): byte ranges (206, 416), validators (ETag,
 * Last-Modified) with conditional GET (304) and If-Range, HEAD, inline or attachment.
 * koa-static does not do ranges, so media goes through this.
 */
import { createReadStream, read, promises as fsp, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { finished, type Readable } from 'node:stream';
import type { Context } from 'koa';
import rangeParser from 'range-parser';
import { AppError } from '../domain/errors.js';
import { LibraryPathError, openLibraryFile } from './library-path.js';

export interface SendFileOptions {
  /** Full Content-Type value (with charset for text). */
  type: string;
  /** Send as a download with this file name (Content-Disposition: attachment, RFC 6266 filename*). */
  attachmentName?: string;
  /** Cache-Control value (default: revalidate every time; media is behind a token). */
  cacheControl?: string;
}

/** Strong validator from size and modification time (a changed file gets a new one). */
export const etagOf = (stat: { size: number; mtimeMs: number }): string => `"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;

/** Read size (Node's default): small buffers are reused by the allocator, so many streams stay cheap. */
const READ_CHUNK = 64 * 1024;

/**
 * Ranges up to this size (what players ask for while seeking and buffering) are read in one
 * positional read into a pooled buffer and written in one go: a stream would take 16 thread-pool
 * reads and 16 socket writes per MiB. Larger ranges (`bytes=0-` of a whole file) stream.
 */
const WHOLE_READ_MAX = 1024 * 1024;
/** Buffers of WHOLE_READ_MAX kept for reuse (more concurrent reads allocate and drop their own). */
const POOL_SIZE = 8;
const pool: Buffer[] = [];

function takeBuffer(): Buffer {
  return pool.pop() ?? Buffer.allocUnsafeSlow(WHOLE_READ_MAX);
}

function giveBack(buf: Buffer): void {
  if (pool.length < POOL_SIZE) pool.push(buf);
}

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
 * Answer the request with the bytes of `source` (a file the caller checked), releasing the source
 * when the response is done. Malformed or multi-part Range headers get the whole file (200), as RFC 9110 allows;
 * unsatisfiable ones 416 with `Content-Range: bytes *\/size`.
 */
export async function sendFile(ctx: Context, source: FileSource, opts: SendFileOptions): Promise<void> {
  let streaming = false;
  try {
    const part = answer(ctx, source, opts);
    if (part === null) return;
    if (part.length <= WHOLE_READ_MAX) await sendWhole(ctx, source, part);
    else streaming = stream(ctx, source, part);
  } finally {
    if (!streaming) source.release();
  }
}

interface Part {
  start: number;
  end: number;
  length: number;
}

/** One read into a pooled buffer, one write; the buffer returns to the pool once the socket has it. */
async function sendWhole(ctx: Context, source: FileSource, part: Part): Promise<void> {
  const buf = takeBuffer();
  let bytes: number;
  try {
    bytes = await source.readInto(buf, part.start, part.length);
  } catch (err) {
    giveBack(buf);
    throw err;
  }
  if (bytes !== part.length) {
    // the file was shortened since it was opened: nothing is sent yet, so say so
    giveBack(buf);
    throw new AppError('conflict', '文件在读取时发生了变化，请重试', { code: 'FILE_CHANGED' });
  }
  // only a response that finished has handed the bytes to the kernel; an aborted one may still
  // hold them in a pending write, so its buffer is left to the garbage collector
  ctx.res.once('finish', () => giveBack(buf));
  ctx.body = buf.subarray(0, bytes);
  ctx.length = bytes;
}

/** Stream a large range from `source`; true (the source is released when the response ends). */
function stream(ctx: Context, source: FileSource, { start, end, length }: Part): boolean {
  const body = source.read(start, end);
  const release = () => source.release();
  finished(body, release);
  // a file shortened while it is sent would leave the client waiting for the promised length: cut it off
  body.once('end', () => {
    if ((body as Readable & { bytesRead?: number }).bytesRead !== length) ctx.res.destroy();
  });
  ctx.res.once('close', release);
  ctx.body = body;
  ctx.length = length;
  return true;
}

/** Set status and headers; the byte range to send, or null when no body is sent. */
function answer(ctx: Context, source: FileSource, opts: SendFileOptions): Part | null {
  const stat = source;
  const etag = etagOf(stat);
  ctx.set('Accept-Ranges', 'bytes');
  ctx.set('ETag', etag);
  ctx.set('Last-Modified', new Date(stat.mtimeMs).toUTCString());
  ctx.set('Cache-Control', opts.cacheControl ?? 'private, max-age=0, must-revalidate');
  if (opts.attachmentName !== undefined) ctx.attachment(opts.attachmentName, { fallback: true });

  if ((ctx.method === 'GET' || ctx.method === 'HEAD') && notModified(ctx, etag, stat.mtimeMs)) {
    ctx.status = 304;
    return null;
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
    return null;
  }
  return { start, end, length };
}

// ---------------------------------------------------------------------------------------------------
// Open files

/** The bytes of one file version, from an open handle. */
export interface FileSource {
  readonly size: number;
  readonly mtimeMs: number;
  /** A stream of bytes `start`..`end` (inclusive), read at those positions. */
  read(start: number, end: number): Readable;
  /** Read `length` bytes at `start` into the front of `buf`; resolves to the bytes read (fewer at the end of the file). */
  readInto(buf: Buffer, start: number, length: number): Promise<number>;
  /** Hand the source back; call once (extra calls are ignored). */
  release(): void;
}

/** fs overrides for streams over a shared descriptor: reads as usual, `close` leaves it open. */
const KEEP_OPEN = { read, close: (_fd: number, cb: (err: NodeJS.ErrnoException | null) => void) => cb(null) };

/** Positional reads until `length` bytes or the end of the file; resolves to the bytes read. */
function readFully(fd: number, buf: Buffer, start: number, length: number): Promise<number> {
  return new Promise((resolve, reject) => {
    let got = 0;
    const next = () =>
      read(fd, buf, got, length - got, start + got, (err, n) => {
        if (err) return reject(err);
        got += n;
        if (n === 0 || got >= length) resolve(got);
        else next();
      });
    next();
  });
}

/** The file is gone or is not a regular file. */
export class FileGoneError extends Error {}

interface OpenEntry {
  handle: FileHandle;
  ino: number;
  size: number;
  mtimeMs: number;
  users: number;
  evicted: boolean;
}

/**
 * Open file handles kept for reuse: a player asks for many ranges of the same file, and each open
 * and close is a round trip through libuv's thread pool. Every use stats the path, and a changed or
 * replaced file is reopened. Reads are positional, so concurrent ranges of one file share a handle;
 * an evicted handle closes when its last reader ends. A library file (`root` given: its real path and
 * its root's, from resolveLibraryPath) is opened through openLibraryFile.
 */
export class OpenFiles {
  private readonly entries = new Map<string, OpenEntry>();

  constructor(private readonly max = 64) {}

  async open(file: string, root?: string): Promise<FileSource> {
    let entry = this.entries.get(file);
    if (entry) {
      // the path may now name another file (replaced) or this one changed: then reopen
      const st = await fsp.stat(file).catch(() => null);
      if (!st || !st.isFile() || st.ino !== entry.ino || st.size !== entry.size || st.mtimeMs !== entry.mtimeMs) {
        this.evict(file, entry);
        entry = undefined;
      }
    }
    if (!entry) entry = await this.openEntry(file, root);
    this.entries.delete(file);
    this.entries.set(file, entry);
    entry.users++;
    const e = entry;
    let released = false;
    return {
      size: e.size,
      mtimeMs: e.mtimeMs,
      // positional reads on the shared descriptor; destroying the stream must not close it (KEEP_OPEN)
      read: (start, end) => createReadStream('', { fd: e.handle.fd, fs: KEEP_OPEN, start, end, autoClose: false, highWaterMark: Math.min(READ_CHUNK, end - start + 1) }),
      readInto: (buf, start, length) => readFully(e.handle.fd, buf, start, length),
      release: () => {
        if (released) return;
        released = true;
        e.users--;
        if (e.evicted && e.users === 0) void e.handle.close().catch(() => undefined);
      },
    };
  }

  /** Close every handle not in use (the rest close when released). */
  closeAll(): void {
    for (const [file, entry] of this.entries) this.evict(file, entry);
  }

  private async openEntry(file: string, root: string | undefined): Promise<OpenEntry> {
    const { handle, stat: st } = root === undefined ? await openPlain(file) : await openInLibrary(file, root);
    const raced = this.entries.get(file);
    if (raced && !raced.evicted && raced.ino === st.ino && raced.size === st.size && raced.mtimeMs === st.mtimeMs) {
      await handle.close().catch(() => undefined);
      return raced;
    }
    const entry: OpenEntry = { handle, ino: st.ino, size: st.size, mtimeMs: st.mtimeMs, users: 0, evicted: false };
    if (raced) this.evict(file, raced);
    this.entries.set(file, entry);
    for (const [key, old] of this.entries) {
      if (this.entries.size <= this.max) break;
      if (old !== entry) this.evict(key, old);
    }
    return entry;
  }

  private evict(file: string, entry: OpenEntry): void {
    if (this.entries.get(file) === entry) this.entries.delete(file);
    if (entry.evicted) return;
    entry.evicted = true;
    if (entry.users === 0) void entry.handle.close().catch(() => undefined);
  }
}

/** A file outside the library (e.g. a cached thumbnail): a regular file, or FileGoneError. */
async function openPlain(file: string): Promise<{ handle: FileHandle; stat: Stats }> {
  let handle: FileHandle;
  try {
    handle = await fsp.open(file, 'r');
  } catch {
    throw new FileGoneError(file);
  }
  const stat = await handle.stat().catch(() => null);
  if (!stat || !stat.isFile()) {
    await handle.close().catch(() => undefined);
    throw new FileGoneError(file);
  }
  return { handle, stat };
}

/** A library file by its real path: refused (LibraryPathError 'outside') when it leads out of `root`; FileGoneError when it is gone. */
async function openInLibrary(real: string, root: string): Promise<{ handle: FileHandle; stat: Stats }> {
  try {
    return await openLibraryFile({ real, root });
  } catch (err) {
    if (err instanceof LibraryPathError && err.problem === 'missing') throw new FileGoneError(real);
    throw err;
  }
}
