/**
 * The listed files of one work folder (recursive; api-contract §5.1 classes only), with sizes and
 * mtimes, and the folder's fingerprint. Symlinked folders are followed once (loops are cut);
 * dot-folders and system folders are skipped; unreadable entries are reported and skipped.
 */
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import { classifyFile, type FileKind } from './file-class.js';
import { dirKey, entryInfo, isJunkFile, isSkippedFolder } from './fs-walk.js';

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

export async function listWorkFiles(absDir: string, signal?: AbortSignal): Promise<WorkListing> {
  const files: DiskFile[] = [];
  const issues: WalkIssue[] = [];
  const seen = new Set<string>();
  const report = (p: string, err: NodeJS.ErrnoException) => issues.push({ path: p, code: err.code, message: err.message });
  const top = await fsp.stat(absDir);
  if (!top.isDirectory()) throw Object.assign(new Error(`not a directory: ${absDir}`), { code: 'ENOTDIR' });
  seen.add(dirKey(top));
  const workReal = await fsp.realpath(absDir);
  /** A symlinked folder pointing at the work folder or one of its ancestors would list the library. */
  const escapes = async (abs: string): Promise<boolean> => {
    const real = await fsp.realpath(abs).catch(() => null);
    return real === null || real === workReal || workReal.startsWith(real.endsWith('/') ? real : real + '/');
  };
  const stack: { abs: string; rel: string }[] = [{ abs: absDir, rel: '' }];
  while (stack.length) {
    if (signal?.aborted) break;
    const cur = stack.pop()!;
    let entries;
    try {
      entries = await fsp.readdir(cur.abs, { withFileTypes: true });
    } catch (err) {
      report(cur.abs, err as NodeJS.ErrnoException);
      continue;
    }
    const stats: Promise<void>[] = [];
    for (const d of entries) {
      if (d.isDirectory() || d.isSymbolicLink()) {
        if (d.isDirectory() && isSkippedFolder(d.name)) continue;
      }
      const rel = cur.rel ? `${cur.rel}/${d.name}` : d.name;
      const abs = `${cur.abs}/${d.name}`;
      if (d.isDirectory() && !d.isSymbolicLink() && !d.name.includes('\uFFFD')) {
        stats.push(
          fsp.stat(abs).then(
            (st) => {
              const key = dirKey(st);
              if (!seen.has(key)) {
                seen.add(key);
                stack.push({ abs, rel });
              }
            },
            (err: NodeJS.ErrnoException) => {
              report(abs, err);
            },
          ),
        );
        continue;
      }
      if (d.isFile() || d.isSymbolicLink()) {
        if (isJunkFile(d.name)) continue;
        const cls = classifyFile(d.name);
        if (!cls && !d.isSymbolicLink()) continue;
        stats.push(
          (async () => {
            let st;
            try {
              st = await fsp.stat(abs);
            } catch (err) {
              report(abs, err as NodeJS.ErrnoException);
              return;
            }
            if (st.isDirectory()) {
              if (isSkippedFolder(d.name)) return;
              if (await escapes(abs)) {
                report(abs, Object.assign(new Error('symbolic link loop'), { code: 'ELOOP' }));
                return;
              }
              const key = dirKey(st);
              if (!seen.has(key)) {
                seen.add(key);
                stack.push({ abs, rel });
              }
              return;
            }
            if (!st.isFile() || !cls) return;
            files.push({ path: rel, size: st.size, mtimeMs: Math.floor(st.mtimeMs), kind: cls.kind, isLyric: cls.isLyric, isMedia: cls.isMedia });
          })(),
        );
      } else if (d.name.includes('\uFFFD')) {
        // a name that is not valid UTF-8 on disk: it cannot be reopened by its decoded name
        stats.push(entryInfo(cur.abs, d, report).then(() => undefined));
      }
    }
    await Promise.all(stats);
  }
  return { files, issues, fingerprint: fingerprintOf(files) };
}
