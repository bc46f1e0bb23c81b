/**
 * The listed files of one work folder (recursive; the classes of server/library/README.md#files-of-a-work only), with sizes and
 * mtimes, and the folder's fingerprint. Symlinks are followed only while their real path stays inside
 * the root folder (resolveLibraryPathSync); links leading out are reported and skipped, symlinked
 * folders are followed once (loops are cut); dot-folders and system folders are skipped; unreadable
 * entries are reported and skipped.
 */
import { createHash } from 'node:crypto';
import { readdirSync, statSync, type Dirent, type Stats } from 'node:fs';
import { LibraryPathError, resolveLibraryPathSync } from '../../media/library-path.js';
import { classifyFile, type FileKind } from '../../domain/file-kinds.js';
import { dirKey, isJunkFile, isSkippedFolder, LINK_OUTSIDE } from './fs-walk.js';

export interface DiskFile {
  /** Relative to the work folder, '/'-separated. */
  path: string;
  /** Real absolute path, inside the root folder: what the scanner reads (probes). */
  real: string;
  size: number;
  mtimeMs: number;
  kind: FileKind;
  isLyric: boolean;
  isMedia: boolean;
}

export interface WalkIssue {
  path: string;
  code: string | undefined;
  message: string;
}

export interface WorkListing {
  files: DiskFile[];
  issues: WalkIssue[];
  fingerprint: string;
}

/** Bump when the fingerprint's inputs change, so every work is rescanned once. */
const FINGERPRINT_VERSION = 'v1';

export function fingerprintOf(files: DiskFile[]): string {
  const h = createHash('sha1');
  h.update(FINGERPRINT_VERSION);
  const sorted = files.slice().sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const f of sorted) h.update(`\n${f.path}\u0000${f.size}\u0000${f.mtimeMs}`);
  return h.digest('base64url');
}

/**
 * List a work folder. Synchronous file-system calls on purpose: a work folder is a few dozen entries,
 * and each call through the thread pool costs several times the system call itself (the unchanged
 * rescan of a large library is nothing but this walk). The event loop is held for well under a
 * millisecond per work on a local disk; callers yield between works.
 */
export async function listWorkFiles(absDir: string, rootPath: string, signal?: AbortSignal): Promise<WorkListing> {
  return listWorkFilesSync(absDir, rootPath, signal);
}

/** A work folder that leads out of its root folder: it is not listed. */
export class WorkFolderOutsideError extends Error {
  readonly code = LINK_OUTSIDE;
  constructor() {
    super('作品文件夹链接到了媒体库文件夹之外，已跳过');
  }
}

/** List the work folder `absDir` of the root folder `rootPath`. */
export function listWorkFilesSync(absDir: string, rootPath: string, signal?: AbortSignal): WorkListing {
  const files: DiskFile[] = [];
  const issues: WalkIssue[] = [];
  const seen = new Set<string>();
  const report = (p: string, err: NodeJS.ErrnoException) => issues.push({ path: p, code: err.code, message: err.message });
  const top = statSync(absDir);
  if (!top.isDirectory()) throw Object.assign(new Error(`not a directory: ${absDir}`), { code: 'ENOTDIR' });
  seen.add(dirKey(top));
  let workReal: string;
  try {
    workReal = resolveLibraryPathSync(rootPath, absDir).real;
  } catch (err) {
    if (err instanceof LibraryPathError && err.problem === 'outside') throw new WorkFolderOutsideError();
    throw Object.assign(new Error(`cannot resolve: ${absDir}`), { code: 'ENOENT' });
  }
  /** The real path of a symlink, or null (reported) when it leads out of the root folder or cannot be resolved. */
  const followed = (abs: string): string | null => {
    const real = realInRoot(rootPath, abs);
    if (real === null) report(abs, Object.assign(new Error('symbolic link leads out of the root folder'), { code: LINK_OUTSIDE }));
    return real;
  };
  /** A symlinked folder pointing at the work folder or one of its ancestors would list the library. */
  const loops = (real: string): boolean => real === workReal || workReal.startsWith(real.endsWith('/') ? real : real + '/');
  const statOrReport = (abs: string): Stats | null => {
    try {
      return statSync(abs);
    } catch (err) {
      report(abs, err as NodeJS.ErrnoException);
      return null;
    }
  };
  const stack: { abs: string; rel: string; real: string }[] = [{ abs: absDir, rel: '', real: workReal }];
  while (stack.length) {
    if (signal?.aborted) break;
    const cur = stack.pop()!;
    let entries: Dirent[];
    try {
      entries = readdirSync(cur.abs, { withFileTypes: true });
    } catch (err) {
      report(cur.abs, err as NodeJS.ErrnoException);
      continue;
    }
    for (const d of entries) {
      if (d.isDirectory() && isSkippedFolder(d.name)) continue;
      const rel = cur.rel ? `${cur.rel}/${d.name}` : d.name;
      const abs = `${cur.abs}/${d.name}`;
      if (d.isDirectory() && !d.name.includes('\uFFFD')) {
        const st = statOrReport(abs);
        if (!st) continue;
        const key = dirKey(st);
        if (!seen.has(key)) {
          seen.add(key);
          // not a link, below a real folder inside the root: its real path needs no resolving
          stack.push({ abs, rel, real: `${cur.real}/${d.name}` });
        }
        continue;
      }
      if (d.isFile() || d.isSymbolicLink()) {
        if (isJunkFile(d.name)) continue;
        const cls = classifyFile(d.name);
        if (!cls && !d.isSymbolicLink()) continue;
        const st = statOrReport(abs);
        if (!st) continue;
        if (st.isDirectory()) {
          if (isSkippedFolder(d.name)) continue;
          const real = followed(abs);
          if (real === null) continue;
          if (loops(real)) {
            report(abs, Object.assign(new Error('symbolic link loop'), { code: 'ELOOP' }));
            continue;
          }
          const key = dirKey(st);
          if (!seen.has(key)) {
            seen.add(key);
            stack.push({ abs, rel, real });
          }
          continue;
        }
        if (!st.isFile() || !cls) continue;
        const real = d.isSymbolicLink() ? followed(abs) : `${cur.real}/${d.name}`;
        if (real === null) continue;
        files.push({ path: rel, real, size: st.size, mtimeMs: Math.floor(st.mtimeMs), kind: cls.kind, isLyric: cls.isLyric, isMedia: cls.isMedia });
      } else if (d.name.includes('\uFFFD')) {
        // a name that is not valid UTF-8 on disk: it cannot be reopened by its decoded name
        statOrReport(abs);
      }
    }
  }
  return { files, issues, fingerprint: fingerprintOf(files) };
}

/** The real path of `abs` when it stays inside the root folder, else null (resolveLibraryPathSync). */
function realInRoot(rootPath: string, abs: string): string | null {
  try {
    return resolveLibraryPathSync(rootPath, abs).real;
  } catch (err) {
    if (err instanceof LibraryPathError) return null;
    throw err;
  }
}
