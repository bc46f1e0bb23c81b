/**
 * The listed files of one work folder (recursive; api-contract §5.1 classes only), with sizes and
 * mtimes, and the folder's fingerprint. Symlinked folders are followed once (loops are cut);
 * dot-folders and system folders are skipped; unreadable entries are reported and skipped.
 */
import { createHash } from 'node:crypto';
import { readdirSync, realpathSync, statSync, type Dirent, type Stats } from 'node:fs';
import { classifyFile, type FileKind } from './file-class.js';
import { dirKey, isJunkFile, isSkippedFolder } from './fs-walk.js';

export interface DiskFile {
  /** Relative to the work folder, '/'-separated. */
  path: string;
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
export async function listWorkFiles(absDir: string, signal?: AbortSignal): Promise<WorkListing> {
  return listWorkFilesSync(absDir, signal);
}

export function listWorkFilesSync(absDir: string, signal?: AbortSignal): WorkListing {
  const files: DiskFile[] = [];
  const issues: WalkIssue[] = [];
  const seen = new Set<string>();
  const report = (p: string, err: NodeJS.ErrnoException) => issues.push({ path: p, code: err.code, message: err.message });
  const top = statSync(absDir);
  if (!top.isDirectory()) throw Object.assign(new Error(`not a directory: ${absDir}`), { code: 'ENOTDIR' });
  seen.add(dirKey(top));
  const workReal = realpathSync(absDir);
  /** A symlinked folder pointing at the work folder or one of its ancestors would list the library. */
  const escapes = (abs: string): boolean => {
    let real: string;
    try {
      real = realpathSync(abs);
    } catch {
      return true;
    }
    return real === workReal || workReal.startsWith(real.endsWith('/') ? real : real + '/');
  };
  const statOrReport = (abs: string): Stats | null => {
    try {
      return statSync(abs);
    } catch (err) {
      report(abs, err as NodeJS.ErrnoException);
      return null;
    }
  };
  const stack: { abs: string; rel: string }[] = [{ abs: absDir, rel: '' }];
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
          stack.push({ abs, rel });
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
          if (escapes(abs)) {
            report(abs, Object.assign(new Error('symbolic link loop'), { code: 'ELOOP' }));
            continue;
          }
          const key = dirKey(st);
          if (!seen.has(key)) {
            seen.add(key);
            stack.push({ abs, rel });
          }
          continue;
        }
        if (!st.isFile() || !cls) continue;
        files.push({ path: rel, size: st.size, mtimeMs: Math.floor(st.mtimeMs), kind: cls.kind, isLyric: cls.isLyric, isMedia: cls.isMedia });
      } else if (d.name.includes('\uFFFD')) {
        // a name that is not valid UTF-8 on disk: it cannot be reopened by its decoded name
        statOrReport(abs);
      }
    }
  }
  return { files, issues, fingerprint: fingerprintOf(files) };
}
