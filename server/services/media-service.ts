import path from 'node:path';
import mime from 'mime-types';
import type { ConfigStore } from '../config/config-store.js';
import { AppError, forbidden, notFound } from '../domain/errors.js';
import { formatWorkCode } from '../domain/work-code.js';
import type { FilesRepo, MediaFileRow } from '../db/repos/files-repo.js';
import { offloadUrl, trackHash } from '../contract/tracks.js';
import { decodeText } from '../media/charset.js';
import { hidePaths } from '../domain/hide-paths.js';
import { ThumbnailError, type Thumbnails } from '../media/thumbnails.js';
import { FileGoneError, OpenFiles, type FileSource } from '../media/stream.js';
import { isWithin, LibraryPathError, resolveLibraryPath, type LibraryPath } from '../media/library-path.js';

/** A file ready to send, or where the reverse proxy serves it (`offloadMedia`). */
export type MediaTarget = { redirect: string } | { source: FileSource; type: string; name: string };

/** Content types the browser players need (iOS refuses audio/x-flac), by lower-case extension. */
const TYPE_OVERRIDES: Record<string, string> = {
  '.flac': 'audio/flac',
  '.m4a': 'audio/mp4',
  '.mka': 'audio/x-matroska',
  '.opus': 'audio/ogg',
  '.lrc': 'text/plain',
  '.srt': 'text/plain',
  '.ass': 'text/plain',
  '.txt': 'text/plain',
  '.vtt': 'text/vtt',
};

/** Bytes read to detect the charset of a text file. */
const CHARSET_SAMPLE = 1024 * 1024;

/** Bounded cache size (file rows). */
const CACHE_LIMIT = 5000;

/** A bounded map whose oldest entries go first. */
function remember<K, V>(map: Map<K, V>, key: K, value: V): void {
  if (map.size >= CACHE_LIMIT) map.delete(map.keys().next().value as K);
  map.set(key, value);
}

/**
 * Media of works (docs/API.md#media): files are found through the stored file index by their stable
 * number; the indexed path must lie in its work's folder, and its real path (symlinks followed, resolved
 * on every request by resolveLibraryPath) must stay inside the real root folder. The real path is what
 * is opened.
 */
export class MediaService {
  private readonly charsets = new Map<string, string>();
  /** File rows by hash for the current library version (seeking players ask for many ranges of a file). */
  private readonly rows = new Map<string, { version: number; row: MediaFileRow }>();
  /** Open handles of recently streamed files. */
  private readonly open = new OpenFiles();

  constructor(
    private readonly files: FilesRepo,
    private readonly store: ConfigStore,
    private readonly thumbs: Thumbnails,
    /** The library version (bumped by every write to works or files). */
    private readonly libraryVersion: () => Promise<number>,
  ) {}

  /** `GET /api/media/stream/:id/:index`: inline, text with its detected charset. */
  async stream(workId: number, n: number): Promise<MediaTarget> {
    const row = await this.lookup(workId, n);
    const config = this.store.get();
    if (config.offloadMedia && row.kind !== 'text') return { redirect: offloadUrl(config.offloadStreamPath, this.location(row), row.path) };
    return this.target(row, await this.resolve(row));
  }

  /** `GET /api/media/download/:id/:index`: the same file as an attachment. */
  async download(workId: number, n: number): Promise<MediaTarget> {
    const row = await this.lookup(workId, n);
    const config = this.store.get();
    if (config.offloadMedia) return { redirect: offloadUrl(config.offloadDownloadPath, this.location(row), row.path) };
    return this.target(row, await this.resolve(row));
  }

  /** `GET /api/media/small-img/:id/:index`: a JPEG thumbnail of an image file, cached on disk. */
  async smallImage(workId: number, n: number): Promise<MediaTarget> {
    const row = await this.lookup(workId, n);
    if (row.kind !== 'image') {
      throw new AppError('bad_request', `获取小图像失败，不支持的图像格式"${path.extname(row.path).toLowerCase()}"`, { code: 'IMAGE_UNSUPPORTED', status: 415 });
    }
    const file = await this.resolve(row);
    const image = await this.openSource(file, row);
    let thumb: string;
    try {
      // the image is read from the handle opened and checked above, not by its path again
      thumb = await this.thumbs.get({ read: () => readWhole(image), workId, n, size: image.size, mtimeMs: image.mtimeMs });
    } catch (err) {
      if (err instanceof ThumbnailError) {
        // the decoder may quote the file it read: the user sees the path inside the work, never the disk's
        const known = [[file.real, row.path] as const, [file.root, row.root_folder] as const, ...this.store.get().rootFolders.map((r) => [r.path, r.name] as const)];
        throw new AppError('bad_request', `获取小图像失败，图像 "${row.path}" 无法解码: ${hidePaths(err.message, known)}`, { code: 'IMAGE_UNSUPPORTED', status: 415 });
      }
      throw err;
    } finally {
      image.release();
    }
    return { source: await this.openSource({ real: thumb }, row), type: 'image/jpeg', name: `${path.parse(row.path).name}.jpg` };
  }

  /** Release every open file not in use (shutdown). */
  close(): void {
    this.open.closeAll();
  }

  private async target(row: MediaFileRow, file: LibraryPath): Promise<MediaTarget> {
    const source = await this.openSource(file, row);
    try {
      return { source, type: await this.contentType(row, source), name: path.basename(row.path) };
    } catch (err) {
      source.release();
      throw err;
    }
  }

  /** An open library file (its real path and root), or a file of the server's own (a thumbnail: no root). */
  private async openSource(file: { real: string; root?: string }, row: MediaFileRow): Promise<FileSource> {
    try {
      return await this.open.open(file.real, file.root);
    } catch (err) {
      if (err instanceof FileGoneError) throw gone(row);
      if (err instanceof LibraryPathError) throw refused(err, row);
      throw err;
    }
  }

  private async lookup(workId: number, n: number): Promise<MediaFileRow> {
    const key = `${workId}/${n}`;
    const version = await this.libraryVersion();
    const cached = this.rows.get(key);
    let row = cached && cached.version === version ? cached.row : undefined;
    if (!row) {
      row = await this.files.file(workId, n);
      if (row) remember(this.rows, key, { version, row });
    }
    if (!row) {
      const work = await this.files.location(workId);
      if (!work) throw notFound(`作品 ${formatWorkCode(workId)} 不存在`, { code: 'WORK_NOT_FOUND', params: { work: formatWorkCode(workId) } });
      throw notFound(`文件 ${trackHash(workId, n)} 不存在，请刷新文件列表`, { code: 'FILE_NOT_FOUND', params: { file: trackHash(workId, n) } });
    }
    if (row.missing) throw notFound(`作品 ${formatWorkCode(workId)} 的文件夹已不在媒体库中`, { code: 'WORK_FOLDER_MISSING', params: { work: formatWorkCode(workId) } });
    return row;
  }

  private location(row: MediaFileRow) {
    return { rootFolder: row.root_folder, dir: row.dir };
  }

  /**
   * The real path of a stored file: the indexed path must lie in its work folder, and the real path
   * inside the real root folder (links between folders of the library are fine); refuses anything else.
   */
  private async resolve(row: MediaFileRow): Promise<LibraryPath> {
    const root = this.store.get().rootFolders.find((r) => r.name === row.root_folder);
    if (!root) throw notFound(`找不到文件夹: "${row.root_folder}"，请尝试重启服务器或重新扫描.`, { code: 'ROOT_FOLDER_MISSING', params: { folder: row.root_folder } });
    const rootAbs = path.resolve(root.path);
    const workDir = path.resolve(rootAbs, row.dir);
    if (workDir !== rootAbs && !isWithin(rootAbs, workDir)) throw forbidden('拒绝访问：作品文件夹不在媒体库文件夹中', { code: 'PATH_OUTSIDE_LIBRARY' });
    const absPath = path.resolve(workDir, row.path);
    if (absPath === workDir || !isWithin(workDir, absPath)) throw forbidden('拒绝访问：文件不在作品文件夹中', { code: 'PATH_OUTSIDE_LIBRARY' });
    try {
      return await resolveLibraryPath(rootAbs, absPath);
    } catch (err) {
      if (err instanceof LibraryPathError) throw refused(err, row);
      throw err;
    }
  }

  private async contentType(row: MediaFileRow, source: FileSource): Promise<string> {
    const ext = path.extname(row.path).toLowerCase();
    const base = TYPE_OVERRIDES[ext] ?? (mime.lookup(ext) || 'application/octet-stream');
    if (row.kind !== 'text') return base;
    return `${base}; charset=${await this.charset(row, source)}`;
  }

  /** Charset of a text file (BOM, UTF-8 validity, then legacy CJK detection), cached per file version; read from the open source. */
  private async charset(row: MediaFileRow, source: FileSource): Promise<string> {
    const key = `${row.id}\0${row.path}\0${source.size}\0${source.mtimeMs}`;
    const hit = this.charsets.get(key);
    if (hit) return hit;
    const buf = Buffer.alloc(Math.min(source.size, CHARSET_SAMPLE));
    let sample = buf.subarray(0, await source.readInto(buf, 0, buf.length));
    if (source.size > sample.length) {
      // cut after the last line feed: no legacy CJK encoding uses 0x0A inside a character
      const lf = sample.lastIndexOf(0x0a);
      if (lf > 0) sample = sample.subarray(0, lf + 1);
    }
    const encoding = decodeText(sample).encoding;
    if (this.charsets.size >= 2000) this.charsets.delete(this.charsets.keys().next().value as string);
    this.charsets.set(key, encoding);
    return encoding;
  }
}

/** Largest image a thumbnail is made from (read whole into memory for sharp). */
const THUMB_SOURCE_MAX_BYTES = 64 * 1024 * 1024;

/** Every byte of an open image, for sharp. */
async function readWhole(source: FileSource): Promise<Buffer> {
  if (source.size > THUMB_SOURCE_MAX_BYTES) throw new ThumbnailError(`图像文件过大（超过 ${THUMB_SOURCE_MAX_BYTES / 1024 / 1024} MB）`);
  const buf = Buffer.allocUnsafe(source.size);
  const n = await source.readInto(buf, 0, source.size);
  return buf.subarray(0, n);
}

const gone = (row: MediaFileRow) => notFound(`文件 ${trackHash(row.id, row.n)} 在磁盘上不存在，请重新扫描`, { code: 'FILE_GONE', params: { file: trackHash(row.id, row.n) } });

/** A refused library path as the client sees it: no filesystem path in the message. */
function refused(err: LibraryPathError, row: MediaFileRow): AppError {
  if (err.problem === 'outside') return forbidden('拒绝访问：文件链接到了媒体库文件夹之外', { code: 'PATH_OUTSIDE_LIBRARY' });
  if (err.problem === 'root') return notFound(`找不到文件夹: "${row.root_folder}"，请尝试重启服务器或重新扫描.`, { code: 'ROOT_FOLDER_MISSING', params: { folder: row.root_folder } });
  return gone(row);
}
