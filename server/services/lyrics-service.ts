/**
 * Lyrics of a work's audio (docs/API.md#lyrics: check-lrc, query-lrc, fetch-lrc, save-lrc):
 * the exact lyric file next to an audio file, every ranked candidate (local files and successful AI
 * tasks), a lyric parsed into lines (any common charset), and lyrics saved as WebVTT inside the work folder.
 *
 * Files are found through the stored file index by their stable number; a path read is resolved by
 * resolveLibraryPath (its real path must stay inside the real root folder), a path written must stay
 * inside the work's real folder.
 */
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { ConfigStore } from '../config/config-store.js';
import { isAdmin, type Actor } from '../auth/roles.js';
import { AppError, badRequest, conflict, forbidden, notFound } from '../domain/errors.js';
import { formatWorkCode } from '../domain/work-code.js';
import { AiStatus } from '../domain/ai-status.js';
import { extensionOf, isLoadableLyric } from '../domain/file-kinds.js';
import { findExactLyric, rankLyricCandidates, type LoadableLyricExtension, type LyricOption } from '../domain/lyric-match.js';
import { detectLyricFormat, parseLrcSteps, parseLyricSteps, runStepsPaused, toWebVtt, type EditableLyricLine, type LyricLine } from '../domain/lyrics/index.js';
import { lyricLimitText, MAX_LYRIC_BYTES } from '../domain/lyrics/limits.js';
import { decodeText } from '../media/charset.js';
import { isJunkFile, isSkippedFolder } from '../library/files/fs-walk.js';
import { isWithin, LibraryPathError, readLibraryFile, resolveLibraryPath, type LibraryPath } from '../media/library-path.js';
import type { FilesRepo, WorkLocationRow } from '../db/repos/files-repo.js';
import type { AiTasksRepo } from '../db/repos/ai-tasks-repo.js';
import type { EditRepo } from '../db/repos/edit-repo.js';
import type { Config } from '../config/schema.js';
import { trackHash } from '../contract/tracks.js';
import type { SaveLrcBody } from '../contract/requests/lyrics.js';

export interface CheckLrcResult {
  result: boolean;
  message: string;
  hash: string;
  lyricExtension?: LoadableLyricExtension;
  lrc?: LyricLine[];
}

export interface FetchLrcResult {
  result: true;
  hash: string | number;
  lyricExtension: LoadableLyricExtension;
  lrc: LyricLine[];
}

const missingFolder = (loc: WorkLocationRow) =>
  conflict(`${formatWorkCode(loc.id)} 的文件夹不存在: ${loc.dir}，请重新扫描`, {
    code: 'WORK_FOLDER_MISSING',
    params: { work: formatWorkCode(loc.id) },
  });

/**
 * The real absolute folder of a work, which must lie inside its configured root folder (by its real
 * path: resolveLibraryPath). 404 when the root alias is not configured; 409 when the folder is not on disk.
 */
export async function resolveWorkFolder(config: Config, loc: WorkLocationRow): Promise<string> {
  return (await resolveWorkFolderIn(config, loc)).real;
}

/** resolveWorkFolder, with the real path of the root folder. */
async function resolveWorkFolderIn(config: Config, loc: WorkLocationRow): Promise<LibraryPath> {
  const root = config.rootFolders.find((r) => r.name === loc.root_folder);
  if (!root) throw notFound(`找不到文件夹: "${loc.root_folder}"，请尝试重启服务器或重新扫描.`, { code: 'ROOT_FOLDER_MISSING', params: { folder: loc.root_folder } });
  const rootAbs = path.resolve(root.path);
  const workDir = path.resolve(rootAbs, ...loc.dir.split('/'));
  if (!isWithin(rootAbs, workDir)) throw forbidden('拒绝访问：作品文件夹不在媒体库文件夹中', { code: 'PATH_OUTSIDE_LIBRARY' });
  let folder: LibraryPath;
  try {
    folder = await resolveLibraryPath(rootAbs, workDir);
  } catch (err) {
    if (err instanceof LibraryPathError && err.problem === 'outside') throw forbidden('拒绝访问：作品文件夹链接到了媒体库文件夹之外', { code: 'PATH_OUTSIDE_LIBRARY' });
    if (err instanceof LibraryPathError) throw missingFolder(loc);
    throw err;
  }
  if (!(await fsp.stat(folder.real)).isDirectory()) throw missingFolder(loc);
  return folder;
}

export class LyricsService {
  constructor(
    private readonly files: FilesRepo,
    private readonly aiTasks: AiTasksRepo,
    private readonly edits: EditRepo,
    private readonly store: ConfigStore,
  ) {}

  /** GET /api/media/check-lrc/:workId/:n — the lyric file next to an audio file, parsed. */
  async check(workId: number, n: number): Promise<CheckLrcResult> {
    const { loc, target, all } = await this.track(workId, n);
    const exact = findExactLyric(
      target.path,
      all.map((f) => f.path),
    );
    if (!exact) return { result: false, message: '不存在歌词文件', hash: '' };
    const file = all.find((f) => f.path === exact.path)!;
    const text = await this.readText(loc, file.path);
    return {
      result: true,
      message: '找到歌词文件',
      hash: trackHash(workId, file.n),
      lyricExtension: exact.extension,
      lrc: (await runStepsPaused(parseLyricSteps(text, exact.extension), yieldToEventLoop)).lines,
    };
  }

  /** GET /api/media/query-lrc/:workId/:n — every lyric of the work ranked for this audio file. */
  async query(workId: number, n: number): Promise<{ result: true; lyricList: LyricOption[] }> {
    const { target, all } = await this.track(workId, n);
    const local = all.filter((f) => isLoadableLyric(f.path)).map((f) => ({ path: f.path, hash: trackHash(workId, f.n) }));
    const ai = (await this.aiTasks.ofWork(workId)).filter((t) => t.status === AiStatus.SUCCESS);
    return { result: true, lyricList: rankLyricCandidates(target.path, local, ai) };
  }

  /** GET /api/media/fetch-lrc/:workId/:n/0 — a local lyric file, parsed. */
  async fetchLocal(workId: number, n: number): Promise<FetchLrcResult> {
    const { loc, target } = await this.track(workId, n);
    if (!isLoadableLyric(target.path)) throw badRequest(`文件 ${trackHash(workId, n)} 不是可加载的歌词文件 (.lrc/.srt/.vtt)`, { code: 'LYRIC_NOT_LOADABLE' });
    const ext = extensionOf(target.path) as LoadableLyricExtension;
    const text = await this.readText(loc, target.path);
    return { result: true, hash: trackHash(workId, n), lyricExtension: ext, lrc: (await runStepsPaused(parseLyricSteps(text, ext), yieldToEventLoop)).lines };
  }

  /** GET /api/media/fetch-lrc/:workId/:taskId/1 — the lyric of a successful AI task of that work. */
  async fetchAi(workId: number, taskId: number): Promise<FetchLrcResult> {
    const loc = await this.files.location(workId);
    if (!loc) throw notFound(`作品 ${formatWorkCode(workId)} 不存在`, { code: 'WORK_NOT_FOUND', params: { work: formatWorkCode(workId) } });
    const task = await this.aiTasks.byId(taskId);
    if (!task || task.work_id !== workId) throw notFound(`作品 ${formatWorkCode(workId)} 没有 id=${taskId} 的翻译任务`, { code: 'AI_TASK_NOT_FOUND' });
    const lrc = await this.aiTasks.successfulLrc(taskId);
    if (lrc === undefined) throw notFound(`没有找到指定成功的任务id=${taskId}`, { code: 'AI_TASK_NOT_FOUND' });
    // results stored before finish refused big ones
    if (lrc.length > MAX_LYRIC_BYTES || Buffer.byteLength(lrc) > MAX_LYRIC_BYTES) throw tooBig(`AI 歌词（任务 id=${taskId}）`);
    return { result: true, hash: taskId, lyricExtension: '.lrc', lrc: await runStepsPaused(parseLrcSteps(lrc), yieldToEventLoop) };
  }

  /**
   * POST /api/media/save-lrc/:workId (admin) — write lines as WebVTT at `writePath` (relative to the work
   * folder, ending in `.vtt`), then record the file in the work's index with a stable number.
   */
  async save(actor: Actor, workId: number, body: SaveLrcBody): Promise<{ result: true; hash: string; created: boolean }> {
    if (!isAdmin(actor)) throw forbidden('只有管理员能保存歌词文件.', { code: 'ADMIN_ONLY' });
    const segments = checkWritePath(body.writePath);
    // the text alone already too big: refused before any work
    if (body.lrc.reduce((n, line) => n + line.text.length, 0) > MAX_LYRIC_BYTES) throw tooBig('要保存的歌词');
    const vtt = toWebVtt(body.lrc as EditableLyricLine[]);
    if (vtt.trim() === 'WEBVTT') throw badRequest('参数 lrc 无效: 没有可保存的歌词行', { code: 'LYRIC_EMPTY', field: 'lrc' });
    if (Buffer.byteLength(vtt) > MAX_LYRIC_BYTES) throw tooBig('要保存的歌词');

    const loc = await this.files.location(workId);
    if (!loc) throw notFound(`作品 ${formatWorkCode(workId)} 不存在`, { code: 'WORK_NOT_FOUND', params: { work: formatWorkCode(workId) } });
    if (loc.missing) throw notFound(`作品 ${formatWorkCode(workId)} 的文件夹已不在媒体库中`, { code: 'WORK_FOLDER_MISSING', params: { work: formatWorkCode(workId) } });
    const folder = await resolveWorkFolderIn(this.store.get(), loc);
    const workDir = folder.real;
    const relPath = segments.join('/');
    const asNamed = path.join(workDir, ...segments);

    // The deepest folder that exists must really be inside the work folder (no symlink leading out).
    let existingDir = path.dirname(asNamed);
    const missingDirs: string[] = [];
    for (;;) {
      const st = await fsp.lstat(existingDir).catch(() => null);
      if (st) {
        if (!st.isDirectory() && !st.isSymbolicLink()) throw badRequest(`参数 writePath 无效: "${path.relative(workDir, existingDir)}" 不是文件夹`, { code: 'WRITE_PATH_INVALID', field: 'writePath' });
        break;
      }
      missingDirs.unshift(existingDir);
      existingDir = path.dirname(existingDir);
    }
    // resolved like every library path, and then held to the work folder itself (writes stay in the work)
    const realExisting = await resolveLibraryPath(folder.root, existingDir).then(
      (p) => p.real,
      () => null,
    );
    if (realExisting === null || !isWithin(workDir, realExisting)) {
      throw forbidden('参数 writePath 无效: 路径经由链接指向了作品文件夹之外', { code: 'WRITE_PATH_INVALID', field: 'writePath' });
    }
    if (!(await fsp.stat(realExisting)).isDirectory()) throw badRequest('参数 writePath 无效: 父路径不是文件夹', { code: 'WRITE_PATH_INVALID', field: 'writePath' });
    // from here on, every path is below the checked real folder, not through the links of the name
    const real = (p: string) => path.join(realExisting, path.relative(existingDir, p));
    const target = real(asNamed);
    const toCreate = missingDirs.map(real);

    const current = await fsp.lstat(target).catch(() => null);
    if (current) {
      if (current.isSymbolicLink()) throw forbidden('参数 writePath 无效: 目标是一个符号链接，拒绝覆盖', { code: 'WRITE_PATH_INVALID', field: 'writePath' });
      if (!current.isFile()) throw conflict('目标路径已存在且不是文件，拒绝覆盖', { code: 'OVERWRITE_REFUSED' });
      await this.ensureLyricFile(workId, relPath, { real: target, root: folder.root }, current.size);
    }

    // a library mounted read-only (or not the server's to write) is refused in words, leaving nothing behind
    const made: string[] = [];
    const tmp = path.join(path.dirname(target), tempNameOf(path.basename(target)));
    try {
      for (const dir of toCreate) {
        try {
          await fsp.mkdir(dir);
          made.push(dir);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        }
      }
      try {
        await fsp.writeFile(tmp, vtt, { flag: 'wx' });
        await fsp.rename(tmp, target);
      } catch (err) {
        await fsp.rm(tmp, { force: true }).catch(() => undefined);
        throw err;
      }
    } catch (err) {
      for (const dir of made.reverse()) await fsp.rmdir(dir).catch(() => undefined);
      if (isWriteRefusal(err)) throw readOnlyLibrary(loc.root_folder);
      // each name fits (checkWritePath); the whole path with the work folder's may still not
      if ((err as NodeJS.ErrnoException)?.code === 'ENAMETOOLONG') throw badRequest('参数 writePath 无效: 路径过长', { code: 'WRITE_PATH_INVALID', field: 'writePath' });
      throw err;
    }
    const st = await fsp.stat(target);
    const { n, created } = await this.edits.recordLyricFile(workId, relPath, st.size, Math.floor(st.mtimeMs));
    return { result: true, hash: trackHash(workId, n), created };
  }

  /** An existing file may be replaced only when it is a lyric file (by the index and by its content). */
  private async ensureLyricFile(workId: number, relPath: string, file: LibraryPath, size: number): Promise<void> {
    const row = await this.edits.fileAt(workId, relPath);
    if (row && !row.is_lyric) throw conflict(`"${relPath}" 不是歌词文件，拒绝覆盖`, { code: 'OVERWRITE_REFUSED' });
    if (size === 0) return;
    if (size > MAX_LYRIC_BYTES) throw conflict(`"${relPath}" 不像歌词文件（文件过大），拒绝覆盖`, { code: 'OVERWRITE_REFUSED' });
    let bytes: Buffer | null;
    try {
      bytes = await readLibraryFile(file, MAX_LYRIC_BYTES);
    } catch (err) {
      if (err instanceof LibraryPathError && err.problem === 'outside') throw forbidden('参数 writePath 无效: 目标是一个符号链接，拒绝覆盖', { code: 'WRITE_PATH_INVALID', field: 'writePath' });
      throw conflict(`"${relPath}" 无法读取，拒绝覆盖`, { code: 'OVERWRITE_REFUSED' });
    }
    if (bytes === null) throw conflict(`"${relPath}" 不像歌词文件（文件过大），拒绝覆盖`, { code: 'OVERWRITE_REFUSED' });
    const text = decodeText(bytes).text;
    if (text.trim() !== '' && detectLyricFormat(text) === null) throw conflict(`"${relPath}" 的内容不是歌词，拒绝覆盖`, { code: 'OVERWRITE_REFUSED' });
  }

  /** A file of a work by its stable number, with the work's location and every file of the work. */
  private async track(workId: number, n: number) {
    const found = await this.files.workWithFiles(workId);
    if (!found) throw notFound(`作品 ${formatWorkCode(workId)} 不存在`, { code: 'WORK_NOT_FOUND', params: { work: formatWorkCode(workId) } });
    const { work: loc, files: all } = found;
    if (loc.missing) throw notFound(`作品 ${formatWorkCode(workId)} 的文件夹已不在媒体库中`, { code: 'WORK_FOLDER_MISSING', params: { work: formatWorkCode(workId) } });
    const target = all.find((f) => f.n === n);
    if (!target) throw notFound(`文件 ${trackHash(workId, n)} 不存在，请刷新文件列表`, { code: 'FILE_NOT_FOUND', params: { file: trackHash(workId, n) } });
    return { loc, target, all };
  }

  /** Text of a lyric file of the index, decoded with charset detection; never read through a link leading out of the root folder. */
  private async readText(loc: WorkLocationRow, relPath: string): Promise<string> {
    const folder = await resolveWorkFolderIn(this.store.get(), loc);
    const abs = path.join(folder.real, ...relPath.split('/'));
    const gone = () => notFound(`歌词文件 "${relPath}" 在磁盘上不存在，请重新扫描`, { code: 'FILE_GONE' });
    if (!isWithin(folder.real, abs) || abs === folder.real) throw forbidden('拒绝访问：文件不在作品文件夹中', { code: 'PATH_OUTSIDE_LIBRARY' });
    let bytes: Buffer | null;
    try {
      bytes = await readLibraryFile(await resolveLibraryPath(folder.root, abs), MAX_LYRIC_BYTES);
    } catch (err) {
      if (err instanceof LibraryPathError && err.problem === 'outside') throw forbidden('拒绝访问：文件链接到了媒体库文件夹之外', { code: 'PATH_OUTSIDE_LIBRARY' });
      if (err instanceof LibraryPathError) throw gone();
      throw err;
    }
    if (bytes === null) throw tooBig(`歌词文件 "${relPath}"`);
    // decoding and parsing are bounded but not free: let other requests in between the steps
    await yieldToEventLoop();
    const text = decodeText(bytes).text;
    await yieldToEventLoop();
    return text;
  }
}

/** The file system refused a write (read-only mount, another user's folder), not kikoplay. */
const isWriteRefusal = (err: unknown) => ['EROFS', 'EACCES', 'EPERM'].includes((err as NodeJS.ErrnoException)?.code ?? '');

/** A 409 for a save into a library folder the server may not write. */
const readOnlyLibrary = (folder: string) => conflict(`媒体库文件夹 "${folder}" 对服务器是只读的，歌词未保存`, { code: 'LIBRARY_READ_ONLY', params: { folder } });

/** A 413 for a lyric over {@link MAX_LYRIC_BYTES}. */
const tooBig = (what: string) => new AppError('payload_too_large', `${what}过大（超过 ${lyricLimitText()}），不予处理`, { code: 'LYRIC_TOO_LARGE', params: { limit: lyricLimitText() } });

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Longest file or folder name the usual file systems take (ext4, btrfs, XFS, tmpfs), in bytes. */
const MAX_NAME_BYTES = 255;

/** The temp file a lyric is written to, beside its name, before it is renamed over it. */
const tempNameOf = (name: string): string => `.${name}.${randomBytes(6).toString('hex')}.tmp`;

/** Longest lyric file name, in UTF-8 bytes: its temp file ({@link tempNameOf}) must fit in {@link MAX_NAME_BYTES} too. */
export const MAX_LYRIC_NAME_BYTES = MAX_NAME_BYTES - Buffer.byteLength(tempNameOf(''));

/**
 * `writePath` → its segments: relative (no drive, no leading slash), no `..` or `.` segments, no NUL or
 * control characters, ends in `.vtt`, and no folder or name the scanner would skip (dot-folders, junk).
 * Folder names are at most {@link MAX_NAME_BYTES} bytes in UTF-8, the file name at most
 * {@link MAX_LYRIC_NAME_BYTES}. Both `/` and `\` separate segments.
 */
export function checkWritePath(writePath: string): string[] {
  const bad = (why: string) => badRequest(`参数 writePath 无效: ${why}`, { code: 'WRITE_PATH_INVALID', field: 'writePath' });
  if (/[\u0000-\u001f\u007f]/.test(writePath)) throw bad('包含控制字符');
  if (/^[\\/]/.test(writePath) || /^[a-zA-Z]:/.test(writePath) || path.isAbsolute(writePath)) throw bad('必须是相对于作品文件夹的路径');
  const segments = writePath.split(/[\\/]+/).filter((s) => s !== '');
  if (!segments.length) throw bad('路径为空');
  if (segments.some((s) => s === '..' || s === '.')) throw bad('不能包含 . 或 .. ');
  const name = segments[segments.length - 1];
  if (!/\.vtt$/i.test(name) || name.length <= 4) throw bad('文件名必须以 .vtt 结尾');
  if (segments.slice(0, -1).some((s) => Buffer.byteLength(s) > MAX_NAME_BYTES)) throw bad(`文件夹名不能超过 ${MAX_NAME_BYTES} 字节 (UTF-8)`);
  if (Buffer.byteLength(name) > MAX_LYRIC_NAME_BYTES) throw bad(`文件名不能超过 ${MAX_LYRIC_NAME_BYTES} 字节 (UTF-8)`);
  if (segments.slice(0, -1).some(isSkippedFolder) || isJunkFile(name) || name.startsWith('.')) throw bad('不能写入隐藏或系统文件夹/文件');
  if (segments.some((s) => /[<>:"|?*]/.test(s))) throw bad('文件名包含非法字符');
  return segments;
}
