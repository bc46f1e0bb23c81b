/**
 * The one gate between a library path and the disk: every file the server reads from a root folder
 * (streams, downloads, thumbnails, covers, lyrics, the AI worker's download, the scanner's listing and
 * probes) is resolved here with `realpath`, and refused unless its real path stays inside the real path
 * of its root folder. Symlinks that stay inside the root keep working; links that lead out are refused.
 *
 * Callers open the real path this returns, never the path they started from, and `openLibraryFile`
 * opens it without following a final symlink and (on Linux) checks where the opened descriptor really
 * is, so a file or folder swapped for a link between the check and the open is refused too.
 */
import { constants, promises as fsp, realpathSync, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';

/** Why a library path is refused: the root folder cannot be resolved, the path is not on disk, or it leads out of the root. */
export type LibraryPathProblem = 'root' | 'missing' | 'outside';

/** Carries no absolute path in its message: callers turn it into their own error for the client. */
export class LibraryPathError extends Error {
  constructor(readonly problem: LibraryPathProblem) {
    super(problem === 'outside' ? 'path leads out of the library root folder' : problem === 'root' ? 'library root folder not found' : 'no such file');
    this.name = 'LibraryPathError';
  }
}

/** A path resolved inside its root: both real (symlinks followed). */
export interface LibraryPath {
  /** Real path of the file or folder. */
  real: string;
  /** Real path of its root folder. */
  root: string;
}

/** Whether `target` is `base` or lies below it (both absolute, normalised). */
export function isWithin(base: string, target: string): boolean {
  if (target === base) return true;
  const rel = path.relative(base, target);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
}

/**
 * How long the real path of a root folder is trusted. Roots change through the config (a new path is a
 * new key), but a root that is itself a symlink may be pointed elsewhere: it is resolved again after this.
 */
const ROOT_TTL_MS = 10_000;
const rootCache = new Map<string, { real: string; at: number }>();

function cachedRoot(rootAbs: string): string | undefined {
  const hit = rootCache.get(rootAbs);
  return hit && Date.now() - hit.at < ROOT_TTL_MS ? hit.real : undefined;
}

function rememberRoot(rootAbs: string, real: string): string {
  if (rootCache.size >= 256) rootCache.clear();
  rootCache.set(rootAbs, { real, at: Date.now() });
  return real;
}

/** The real path of a configured root folder (cached briefly); LibraryPathError('root') when it cannot be resolved. */
export async function rootRealPath(rootPath: string): Promise<string> {
  const rootAbs = path.resolve(rootPath);
  const hit = cachedRoot(rootAbs);
  if (hit !== undefined) return hit;
  let real: string;
  try {
    real = await fsp.realpath(rootAbs);
  } catch {
    throw new LibraryPathError('root');
  }
  return rememberRoot(rootAbs, real);
}

/** rootRealPath for the synchronous scanner walk. */
export function rootRealPathSync(rootPath: string): string {
  const rootAbs = path.resolve(rootPath);
  const hit = cachedRoot(rootAbs);
  if (hit !== undefined) return hit;
  let real: string;
  try {
    real = realpathSync(rootAbs);
  } catch {
    throw new LibraryPathError('root');
  }
  return rememberRoot(rootAbs, real);
}

/** The absolute (not yet real) path of `parts` ('/' separates on every platform) below the root. */
const joinBelow = (rootPath: string, parts: string[]): string => path.resolve(rootPath, ...parts);

/** The containment rule, shared by both forms. */
function contained(rootReal: string, real: string): LibraryPath {
  if (!isWithin(rootReal, real)) throw new LibraryPathError('outside');
  return { real, root: rootReal };
}

/**
 * THE check: the real path of `parts` ('/'-separated, relative to the root folder `rootPath`, or an
 * absolute path below it), refused with LibraryPathError unless it exists and stays inside the root's
 * real path. One realpath per call (the root's is cached).
 */
export async function resolveLibraryPath(rootPath: string, ...parts: string[]): Promise<LibraryPath> {
  const rootReal = await rootRealPath(rootPath);
  let real: string;
  try {
    real = await fsp.realpath(joinBelow(rootPath, parts));
  } catch {
    throw new LibraryPathError('missing');
  }
  return contained(rootReal, real);
}

/** resolveLibraryPath for the synchronous scanner walk. */
export function resolveLibraryPathSync(rootPath: string, ...parts: string[]): LibraryPath {
  const rootReal = rootRealPathSync(rootPath);
  let real: string;
  try {
    real = realpathSync(joinBelow(rootPath, parts));
  } catch {
    throw new LibraryPathError('missing');
  }
  return contained(rootReal, real);
}

/** Read-only, and a final path component that is a symlink fails (ELOOP) rather than being followed. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0);

/**
 * Where an open descriptor really is (Linux: /proc/self/fd), or null where that cannot be told.
 * Catches a folder on the resolved path swapped for a link between the realpath and the open.
 */
async function descriptorPath(fd: number): Promise<string | null> {
  if (process.platform !== 'linux') return null;
  try {
    return (await fsp.readlink(`/proc/self/fd/${fd}`)).replace(/ \(deleted\)$/, '');
  } catch {
    return null;
  }
}

/**
 * Open a resolved library file for reading: its real path, a final symlink not followed, a regular
 * file, and the descriptor checked to be inside the root where the platform tells. LibraryPathError
 * ('missing' or 'outside') otherwise; the caller closes the handle.
 */
export async function openLibraryFile(resolved: LibraryPath): Promise<{ handle: FileHandle; stat: Stats }> {
  let handle: FileHandle;
  try {
    handle = await fsp.open(resolved.real, OPEN_FLAGS);
  } catch (err) {
    throw new LibraryPathError((err as NodeJS.ErrnoException).code === 'ELOOP' ? 'outside' : 'missing');
  }
  try {
    const where = await descriptorPath(handle.fd);
    if (where !== null && path.isAbsolute(where) && !isWithin(resolved.root, where)) throw new LibraryPathError('outside');
    const stat = await handle.stat();
    if (!stat.isFile()) throw new LibraryPathError('missing');
    return { handle, stat };
  } catch (err) {
    await handle.close().catch(() => undefined);
    throw err instanceof LibraryPathError ? err : new LibraryPathError('missing');
  }
}

/** Resolve and read a whole library file of at most `maxBytes` (null when it is larger). */
export async function readLibraryFile(resolved: LibraryPath, maxBytes: number): Promise<Buffer | null> {
  const { handle, stat } = await openLibraryFile(resolved);
  try {
    if (stat.size > maxBytes) return null;
    return await handle.readFile();
  } finally {
    await handle.close().catch(() => undefined);
  }
}
