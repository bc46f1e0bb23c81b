import { mkdirSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';

/**
 * A folder that cannot be made or used: `dir` is the path at fault (for ENOTDIR, the file that stands
 * where a folder should be) and `code` the reason (ENOTDIR, EACCES, EROFS …). The terminal says it in its
 * language (cli/i18n `startupErrorText`); the message is the English form, for logs.
 */
export class DirectoryError extends Error {
  override readonly name = 'DirectoryError';
  constructor(
    readonly dir: string,
    readonly code: string,
  ) {
    super(code === 'ENOTDIR' ? `cannot create a folder under ${dir}: it is a file, not a folder` : `cannot create folder ${dir} (${code})`);
  }
}

/**
 * The regular file (or other non-folder) at or above `p` that keeps it from being a folder, or null when
 * there is none (every existing part of the path is a folder).
 */
export function fileInPath(p: string): string | null {
  let cur = path.resolve(p);
  for (;;) {
    let st: Stats | undefined;
    try {
      st = statSync(cur, { throwIfNoEntry: false });
    } catch {
      st = undefined; // ENOTDIR or no access: look further up
    }
    if (st) return st.isDirectory() ? null : cur;
    const parent = path.dirname(cur);
    if (parent === cur) return null;
    cur = parent;
  }
}

/**
 * stat without throwing for a path that is not there; a path that runs through a file (ENOTDIR) or cannot
 * be reached is a DirectoryError naming the file in the way (or the path) and the reason.
 */
export function statFolder(p: string): Stats | undefined {
  try {
    return statSync(p, { throwIfNoEntry: false });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'EIO';
    if (code === 'ENOTDIR') throw new DirectoryError(fileInPath(p) ?? p, 'ENOTDIR');
    throw new DirectoryError(p, code);
  }
}

/**
 * Create a folder and its missing parents, one level at a time. Node's own `mkdirSync(dir, { recursive:
 * true })` loops forever where a parent exists but refuses new entries with ENOENT (a folder under
 * `/proc`); here every refusal ends in a DirectoryError naming the folder (or the file in the way) and
 * the reason. `mode` applies to the folders this call creates.
 */
export function ensureDir(dir: string, mode?: number): void {
  const target = path.resolve(dir);
  const missing: string[] = [];
  let cur = target;
  for (;;) {
    const st = statFolder(cur);
    if (st) {
      if (!st.isDirectory()) throw new DirectoryError(cur, 'ENOTDIR');
      break;
    }
    missing.push(cur);
    const parent = path.dirname(cur);
    if (parent === cur) break;
    cur = parent;
  }
  for (const d of missing.reverse()) {
    try {
      mkdirSync(d, mode === undefined ? undefined : { mode });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'EIO';
      // made meanwhile by another process
      if (code === 'EEXIST' && statFolder(d)?.isDirectory()) continue;
      throw new DirectoryError(code === 'ENOTDIR' ? (fileInPath(d) ?? d) : d, code);
    }
  }
}
