/**
 * A whole work (or one folder of it) as a ZIP made on the fly (`GET /api/media/download-work/:id`,
 * docs/API.md#media): the files of the work's file index in tree order, under one top folder named
 * after the work folder, each file found and opened through the library path gate (media/library-path)
 * like every other media read. Files that lead out of the root folder or vanished since the scan are
 * left out; the bytes of each file are streamed, never held whole.
 */
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ConfigStore } from '../config/config-store.js';
import type { FilesRepo } from '../db/repos/files-repo.js';
import type { TrackFile } from '../contract/tracks.js';
import type { Actor } from '../auth/roles.js';
import { AppError, badRequest, forbidden, notFound } from '../domain/errors.js';
import { formatWorkCode } from '../domain/work-code.js';
import { compareTreePaths } from '../domain/natural-sort.js';
import { isWithin, LibraryPathError, openLibraryFile, resolveLibraryPath } from '../media/library-path.js';
import { zipStream, type ZipEntry } from '../media/zip-writer.js';

/** Archives one user (or, without auth, one address) may be downloading at the same time. */
export const MAX_ZIPS_PER_USER = 2;

/** Read size per chunk. */
const CHUNK = 256 * 1024;

export interface WorkZip {
  /** The download's file name (`RJ01234567 Title.zip`). */
  fileName: string;
  /** The archive; destroying it stops the reads and closes the open file. */
  body: Readable;
}

const MSG = {
  busy: (max: number) => `同时最多下载 ${max} 个压缩包，请等当前的下载完成后再试`,
  folderGone: (work: string) => `作品 ${work} 的文件夹已不在磁盘上，请重新扫描`,
  subfolderNotFound: '作品中没有这个文件夹',
  subfolderInvalid: '文件夹路径无效',
};

/** Characters file systems refuse in a download name. */
const unsafeName = (s: string) => s.replace(/[\\/:*?"<>|\p{Cc}]/gu, '_').trim();

export class WorkZipService {
  /** Archives being sent, per user key. */
  private readonly running = new Map<string, number>();

  constructor(
    private readonly files: FilesRepo,
    private readonly store: ConfigStore,
  ) {}

  /**
   * The archive of work `workId`, or of its sub folder `subPath` ('/'-separated, relative to the work
   * folder, as the file tree shows it). Every check happens before a byte is sent: unknown work or
   * folder 404, a folder gone from disk 404, a path leaving the work 400, a third archive at once 429.
   */
  async open(workId: number, subPath: string | undefined, who: { actor: Actor | null; address: string }): Promise<WorkZip> {
    const found = await this.files.workWithFiles(workId);
    const work = formatWorkCode(workId);
    if (!found) throw notFound(`作品 ${work} 不存在`, { code: 'WORK_NOT_FOUND', params: { work } });
    if (found.work.missing) throw notFound(`作品 ${work} 的文件夹已不在媒体库中`, { code: 'WORK_FOLDER_MISSING', params: { work } });
    const rootFolder = this.store.get().rootFolders.find((r) => r.name === found.work.root_folder);
    if (!rootFolder) throw notFound(`找不到文件夹: "${found.work.root_folder}"，请尝试重启服务器或重新扫描.`, { code: 'ROOT_FOLDER_MISSING', params: { folder: found.work.root_folder } });
    const rootAbs = path.resolve(rootFolder.path);
    const workAbs = path.resolve(rootAbs, found.work.dir);
    if (workAbs !== rootAbs && !isWithin(rootAbs, workAbs)) throw forbidden('拒绝访问：作品文件夹不在媒体库文件夹中', { code: 'PATH_OUTSIDE_LIBRARY' });

    const sub = subPath === undefined ? [] : subSegments(subPath);
    const prefix = sub.length ? `${sub.join('/')}/` : '';
    const chosen = found.files.filter((f) => normalise(f.path).startsWith(prefix)).sort((a, b) => compareTreePaths(a.path, b.path));
    if (sub.length && !chosen.length) throw notFound(MSG.subfolderNotFound, { code: 'WORK_SUBFOLDER_NOT_FOUND', params: { work } });

    // the folder (work or sub folder) must still be on disk, inside the root folder
    try {
      await resolveLibraryPath(rootAbs, workAbs, ...sub);
    } catch (err) {
      if (err instanceof LibraryPathError && err.problem === 'outside') throw forbidden('拒绝访问：文件夹链接到了媒体库文件夹之外', { code: 'PATH_OUTSIDE_LIBRARY' });
      if (err instanceof LibraryPathError && err.problem === 'root')
        throw notFound(`找不到文件夹: "${found.work.root_folder}"，请尝试重启服务器或重新扫描.`, { code: 'ROOT_FOLDER_MISSING', params: { folder: found.work.root_folder } });
      throw notFound(MSG.folderGone(work), { code: 'WORK_FOLDER_GONE', params: { work } });
    }

    const key = who.actor ? `user:${who.actor.id}` : `addr:${who.address}`;
    const release = this.take(key);
    const top = unsafeName(sub.length ? sub[sub.length - 1] : path.basename(workAbs)) || work;
    const entries = this.entries(rootAbs, workAbs, chosen, prefix, top);
    const body = Readable.from(zipStream(entries), { objectMode: false, highWaterMark: CHUNK });
    body.once('close', release);
    const title = unsafeName(found.work.title);
    const base = sub.length ? `${work} ${top}` : title && !title.includes(work) ? `${work} ${title}` : title || work;
    return { fileName: `${base.slice(0, 150)}.zip`, body };
  }

  /** Book one archive for `key`; the returned function gives it back (once). */
  private take(key: string): () => void {
    const n = this.running.get(key) ?? 0;
    if (n >= MAX_ZIPS_PER_USER) {
      throw new AppError('too_many_requests', MSG.busy(MAX_ZIPS_PER_USER), { code: 'DOWNLOAD_BUSY', params: { max: MAX_ZIPS_PER_USER }, headers: { 'Retry-After': '10' } });
    }
    this.running.set(key, n + 1);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const left = (this.running.get(key) ?? 1) - 1;
      if (left > 0) this.running.set(key, left);
      else this.running.delete(key);
    };
  }

  /** Each file, opened through the gate when its turn comes; files refused or gone are left out. */
  private async *entries(rootAbs: string, workAbs: string, files: TrackFile[], prefix: string, top: string): AsyncGenerator<ZipEntry> {
    for (const f of files) {
      const rel = normalise(f.path);
      const abs = path.resolve(workAbs, rel);
      if (abs === workAbs || !isWithin(workAbs, abs)) continue;
      let opened: Awaited<ReturnType<typeof openLibraryFile>>;
      try {
        opened = await openLibraryFile(await resolveLibraryPath(rootAbs, abs));
      } catch (err) {
        if (err instanceof LibraryPathError) continue;
        throw err;
      }
      const { handle, stat } = opened;
      try {
        yield { name: `${top}/${rel.slice(prefix.length)}`, mtimeMs: stat.mtimeMs, size: stat.size, data: readUpTo(handle, stat.size) };
      } finally {
        await handle.close().catch(() => undefined);
      }
    }
  }
}

/** A stored path with '/' separators and no empty segments. */
const normalise = (p: string): string => p.split(/[/\\]/).filter(Boolean).join('/');

/** The segments of a sub folder path; '.', '..' and empty paths are refused. */
function subSegments(p: string): string[] {
  const parts = p.split(/[/\\]/).filter(Boolean);
  if (!parts.length || parts.some((s) => s === '.' || s === '..' || s.includes('\0'))) {
    throw badRequest(MSG.subfolderInvalid, { code: 'FIELD_INVALID', field: 'path' });
  }
  return parts;
}

/** The file's bytes, at most `size` of them (a file that grew meanwhile is cut at its stat size). */
async function* readUpTo(handle: import('node:fs/promises').FileHandle, size: number): AsyncGenerator<Buffer> {
  let pos = 0;
  while (pos < size) {
    const buf = Buffer.allocUnsafe(Math.min(CHUNK, size - pos));
    const { bytesRead } = await handle.read(buf, 0, buf.length, pos);
    if (bytesRead === 0) return;
    pos += bytesRead;
    yield bytesRead === buf.length ? buf : buf.subarray(0, bytesRead);
  }
}
