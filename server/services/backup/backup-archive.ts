/**
 * The container of a backup: a gzip-compressed tar (POSIX ustar) written and read here, member by
 * member as streams, so a database of any size passes through in small chunks. Only regular files and
 * the names kikoplay writes are needed: sizes beyond the 8 GiB of octal fields use the base-256 form
 * GNU tar reads; long names are split into ustar's prefix and name.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { createGunzip, createGzip } from 'node:zlib';

const BLOCK = 512;

/** The archive cannot be read as a tar.gz: `kind` tells a foreign file from a damaged one. */
export class ArchiveError extends Error {
  constructor(
    readonly kind: 'foreign' | 'truncated' | 'damaged',
    detail: string,
  ) {
    super(detail);
  }
}

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, '0') + '\0';
}

function splitName(name: string): { prefix: string; name: string } {
  if (Buffer.byteLength(name) <= 100) return { prefix: '', name };
  for (let i = name.indexOf('/'); i >= 0; i = name.indexOf('/', i + 1)) {
    const prefix = name.slice(0, i);
    const rest = name.slice(i + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(rest) <= 100) return { prefix, name: rest };
  }
  throw new Error(`name too long for the archive: ${name}`);
}

function header(name: string, size: number, mtime: Date): Buffer {
  const h = Buffer.alloc(BLOCK, 0);
  const parts = splitName(name);
  h.write(parts.name, 0, 100, 'utf8');
  h.write(octal(0o600, 8), 100, 'ascii');
  h.write(octal(0, 8), 108, 'ascii');
  h.write(octal(0, 8), 116, 'ascii');
  if (size < 0o77777777777) h.write(octal(size, 12), 124, 'ascii');
  else {
    // base-256: first byte 0x80, the size big-endian in the rest
    h[124] = 0x80;
    h.writeBigUInt64BE(BigInt(size), 124 + 4);
  }
  h.write(octal(Math.floor(mtime.getTime() / 1000), 12), 136, 'ascii');
  h.write('        ', 148, 'ascii');
  h.write('0', 156, 'ascii');
  h.write('ustar\0', 257, 'ascii');
  h.write('00', 263, 'ascii');
  h.write(parts.prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(octal(sum, 7) + ' ', 148, 'ascii');
  return h;
}

/** A member as written: its name, size and SHA-256. */
export interface MemberSum {
  name: string;
  size: number;
  sha256: string;
}

/** Writes a tar.gz member by member into `file` (created with `mode`, refused when it exists). */
export class ArchiveWriter {
  private readonly gzip = createGzip({ level: 6 });
  private readonly out: WriteStream;
  private readonly done: Promise<void>;

  constructor(file: string, mode: number) {
    this.out = createWriteStream(file, { flags: 'wx', mode });
    this.gzip.pipe(this.out);
    this.done = new Promise((resolve, reject) => {
      this.out.on('close', resolve);
      this.out.on('error', reject);
      this.gzip.on('error', reject);
    });
    // surfaced by finish(); kept from being unhandled meanwhile
    this.done.catch(() => undefined);
  }

  private async push(chunk: Buffer): Promise<void> {
    if (!this.gzip.write(chunk)) await Promise.race([once(this.gzip, 'drain'), this.done]);
  }

  /** Add a member from bytes in memory. */
  async addBuffer(name: string, data: Buffer, mtime = new Date()): Promise<MemberSum> {
    await this.push(header(name, data.length, mtime));
    await this.push(data);
    await this.pad(data.length);
    return { name, size: data.length, sha256: createHash('sha256').update(data).digest('hex') };
  }

  /**
   * Add a member from a file of `size` bytes (as it was measured). The file must not change meanwhile:
   * the bytes read must be exactly `size`.
   */
  async addFile(name: string, file: string, size: number, mtime: Date): Promise<MemberSum> {
    await this.push(header(name, size, mtime));
    const hash = createHash('sha256');
    let read = 0;
    for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
      read += chunk.length;
      if (read > size) throw new Error(`${file} grew while it was being backed up`);
      hash.update(chunk);
      await this.push(chunk);
    }
    if (read !== size) throw new Error(`${file} shrank while it was being backed up`);
    await this.pad(size);
    return { name, size, sha256: hash.digest('hex') };
  }

  private async pad(size: number): Promise<void> {
    const rest = size % BLOCK;
    if (rest) await this.push(Buffer.alloc(BLOCK - rest, 0));
  }

  /** End the archive (two empty blocks) and wait until the file is written and closed. */
  async finish(): Promise<void> {
    await this.push(Buffer.alloc(BLOCK * 2, 0));
    this.gzip.end();
    await this.done;
  }

  /** Give up: close the file (the caller removes it). */
  async abort(): Promise<void> {
    this.gzip.destroy();
    this.out.destroy();
    await this.done.catch(() => undefined);
  }
}

/** What a reader does with a member's bytes: null skips them (they are still checked). */
export interface MemberSink {
  write(chunk: Buffer): Promise<void> | void;
  end(): Promise<void> | void;
}

export interface MemberInfo {
  name: string;
  size: number;
}

function parseSize(h: Buffer): number {
  if (h[124]! & 0x80) return Number(h.readBigUInt64BE(124 + 4));
  return parseInt(h.toString('ascii', 124, 136).replace(/\0.*$/, '').trim() || '0', 8);
}

function parseHeader(h: Buffer): MemberInfo & { type: string } {
  if (h.toString('ascii', 257, 262) !== 'ustar') throw new ArchiveError('foreign', 'not a tar archive');
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : h[i]!;
  const stored = parseInt(h.toString('ascii', 148, 156).replace(/\0.*$/, '').trim(), 8);
  if (stored !== sum) throw new ArchiveError('damaged', 'a member header is damaged (checksum mismatch)');
  const cut = (start: number, len: number) => h.toString('utf8', start, start + len).replace(/\0.*$/s, '');
  const prefix = cut(345, 155);
  const name = cut(0, 100);
  return { name: prefix ? `${prefix}/${name}` : name, size: parseSize(h), type: String.fromCharCode(h[156]!) };
}

/**
 * Read a tar.gz from `file`, calling `onMember` for each member (in order); the returned sink gets its
 * bytes. Throws ArchiveError: `foreign` when the file is not a gzip'd tar, `truncated` when it ends early,
 * `damaged` when its compressed data or a header does not check out.
 */
export async function readArchive(file: string, onMember: (m: MemberInfo) => Promise<MemberSink | null> | MemberSink | null): Promise<void> {
  const gunzip = createGunzip();
  const source = createReadStream(file);
  source.on('error', (err) => gunzip.destroy(err));
  source.pipe(gunzip);
  let pending: Buffer = Buffer.alloc(0);
  let state: { kind: 'header' } | { kind: 'body'; left: number; pad: number; sink: MemberSink | null } | { kind: 'end' } = { kind: 'header' };
  let sawHeader = false;
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      for (;;) {
        if (state.kind === 'end') {
          pending = Buffer.alloc(0);
          break;
        }
        if (state.kind === 'header') {
          if (pending.length < BLOCK) break;
          const h = pending.subarray(0, BLOCK);
          pending = pending.subarray(BLOCK);
          if (h.every((b) => b === 0)) {
            if (!sawHeader) throw new ArchiveError('foreign', 'not a tar archive');
            state = { kind: 'end' };
            continue;
          }
          const info = parseHeader(h);
          sawHeader = true;
          if (info.type !== '0' && info.type !== '\0') throw new ArchiveError('foreign', `unexpected member type in the archive: ${info.name}`);
          const sink = await onMember({ name: info.name, size: info.size });
          const rest = info.size % BLOCK;
          state = { kind: 'body', left: info.size, pad: rest ? BLOCK - rest : 0, sink };
          if (info.size === 0) {
            await sink?.end();
            state = { kind: 'header' };
          }
          continue;
        }
        // body
        if (state.left > 0) {
          if (!pending.length) break;
          const take = Math.min(state.left, pending.length);
          await state.sink?.write(pending.subarray(0, take));
          pending = pending.subarray(take);
          state.left -= take;
          if (state.left > 0) break;
          await state.sink?.end();
        }
        if (pending.length < state.pad) break;
        pending = pending.subarray(state.pad);
        state = { kind: 'header' };
      }
    }
  } catch (err) {
    source.destroy();
    if (err instanceof ArchiveError) throw err;
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'Z_BUF_ERROR' || /unexpected end of file/i.test(e.message)) throw new ArchiveError('truncated', 'the file ends early (truncated)');
    if (e.code === 'Z_DATA_ERROR') throw new ArchiveError(sawHeader ? 'damaged' : 'foreign', sawHeader ? `the compressed data is damaged (${e.message})` : 'not a gzip-compressed archive');
    throw err;
  }
  if (state.kind !== 'end') throw new ArchiveError(sawHeader ? 'truncated' : 'foreign', sawHeader ? 'the archive ends early (truncated)' : 'not a tar archive');
}
