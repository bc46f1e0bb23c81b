/**
 * Discovery: the work folders under a root folder. A directory whose name carries RJ/BJ/VJ + 6 or 8
 * digits (any case) is a work folder and is not descended into; other directories are descended into
 * while depth + 1 < maxDepth (so the default 2 finds `root/RJ…` and `root/x/RJ…`).
 * Unreadable entries are reported and skipped; symlink loops are cut by directory identity; symlinks
 * whose real path leads out of the root folder are reported and not followed.
 */
import { constants, promises as fsp } from 'node:fs';
import path from 'node:path';
import { formatWorkCode, parseFolderCode } from '../../domain/work-code.js';
import { LibraryPathError, resolveLibraryPath, rootRealPath } from '../../media/library-path.js';
import { dirKey, entryInfo, isSkippedFolder, LINK_OUTSIDE } from './fs-walk.js';

export interface RootFolder {
  name: string;
  path: string;
}

export interface WorkFolder {
  id: number;
  code: string;
  rootName: string;
  /** Folder path relative to the root, '/'-separated. */
  dir: string;
  absPath: string;
  /** The folder's own name. */
  name: string;
}

export interface DiscoveryIssue {
  path: string;
  code: string | undefined;
  message: string;
}

/** Why a root cannot be scanned at all. */
/** A root folder that cannot be scanned: `code` is ENOENT (gone), ENOTDIR (not a folder) or the system's code; `reason` the system's words. */
export class RootUnavailableError extends Error {
  constructor(
    readonly root: RootFolder,
    readonly reason: string,
    readonly code: string = 'EIO',
  ) {
    super(reason);
  }
}

const unavailable = (root: RootFolder, err: unknown) => new RootUnavailableError(root, (err as Error).message, (err as NodeJS.ErrnoException).code ?? 'EIO');

export interface DiscoverOptions {
  maxDepth: number;
  signal?: AbortSignal;
  onIssue?: (issue: DiscoveryIssue) => void;
}

/** Check that a root folder exists and is a readable directory. */
export async function checkRoot(root: RootFolder): Promise<void> {
  let st;
  try {
    st = await fsp.stat(root.path);
  } catch (err) {
    throw unavailable(root, err);
  }
  if (!st.isDirectory()) throw new RootUnavailableError(root, 'not a folder', 'ENOTDIR');
  try {
    await fsp.access(root.path, constants.R_OK);
  } catch (err) {
    throw unavailable(root, err);
  }
}

/** All work folders of one root, in directory order. Throws RootUnavailableError when the root cannot be listed. */
export async function* discoverWorks(root: RootFolder, opts: DiscoverOptions): AsyncGenerator<WorkFolder> {
  await checkRoot(root);
  const rootAbs = path.resolve(root.path);
  const seen = new Set<string>();
  let rootReal: string;
  try {
    rootReal = await rootRealPath(rootAbs);
  } catch (err) {
    throw unavailable(root, err);
  }
  const report = (p: string, err: NodeJS.ErrnoException) => {
    if (p.endsWith('System Volume Information')) return;
    opts.onIssue?.({ path: p, code: err.code, message: err.message });
  };
  // depth-first, explicit stack (no recursion limits), children in name order for determinism
  const stack: { abs: string; rel: string; depth: number }[] = [{ abs: rootAbs, rel: '', depth: -1 }];
  while (stack.length) {
    if (opts.signal?.aborted) return;
    const cur = stack.pop()!;
    let st;
    try {
      st = await fsp.stat(cur.abs);
    } catch (err) {
      if (cur.depth < 0) throw unavailable(root, err);
      report(cur.abs, err as NodeJS.ErrnoException);
      continue;
    }
    const key = dirKey(st);
    if (seen.has(key)) continue;
    seen.add(key);
    let entries;
    try {
      entries = await fsp.readdir(cur.abs, { withFileTypes: true });
    } catch (err) {
      if (cur.depth < 0) throw unavailable(root, err);
      report(cur.abs, err as NodeJS.ErrnoException);
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subdirs: { abs: string; rel: string; depth: number }[] = [];
    for (const d of entries) {
      if (!d.isDirectory() && !d.isSymbolicLink()) continue;
      if (isSkippedFolder(d.name)) continue;
      const info = await entryInfo(cur.abs, d, report);
      if (!info?.isDir) continue;
      if (d.isSymbolicLink()) {
        // followed only while it stays inside the root (a link to the root itself would walk it again)
        const real = await resolveLibraryPath(rootAbs, path.join(cur.abs, d.name)).then(
          (p) => p.real,
          (err: unknown) => {
            if (err instanceof LibraryPathError && err.problem === 'outside') {
              report(path.join(cur.abs, d.name), Object.assign(new Error('symbolic link leads out of the root folder'), { code: LINK_OUTSIDE }));
            }
            return null;
          },
        );
        if (real === null || real === rootReal) continue;
      }
      const abs = path.join(cur.abs, d.name);
      const rel = cur.rel ? `${cur.rel}/${d.name}` : d.name;
      const depth = cur.depth + 1;
      const id = parseFolderCode(d.name);
      if (id !== null) {
        yield { id, code: formatWorkCode(id), rootName: root.name, dir: rel, absPath: abs, name: d.name };
      } else if (depth + 1 < opts.maxDepth) {
        subdirs.push({ abs, rel, depth });
      }
    }
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i]);
  }
}
