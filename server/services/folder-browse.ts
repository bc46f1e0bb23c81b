/**
 * The folder browser of the admin's "add a library folder" panel (GET /api/config/browse): the
 * directories the server can read in one directory. Names and paths only — no file is opened, no
 * file name is listed. Hidden (dot) directories are skipped; the answer is bounded.
 */
import { promises as fsp, type Dirent } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { badRequest, forbidden, notFound } from '../domain/errors.js';
import { naturalCompare } from '../domain/natural-sort.js';
import { FOLDER_RULE_MSG } from '../config/folder-rules.js';

/** Directories answered at most (the rest: `truncated`). */
export const BROWSE_MAX_DIRS = 1000;
/** Directory entries looked at at most (a folder of a million files is not read to its end). */
export const BROWSE_MAX_ENTRIES = 50_000;

export interface BrowsedDir {
  name: string;
  /** Absolute and normalised. */
  path: string;
}

export interface BrowseAnswer {
  /** The listed directory, absolute and normalised. */
  path: string;
  /** Its parent directory; null at the root of the file system. */
  parent: string | null;
  dirs: BrowsedDir[];
  /** More directories than answered (or more entries than were looked at). */
  truncated: boolean;
}

export const BROWSE_MSG = {
  notText: '参数 path 必须是绝对路径字符串.',
} as const;

/** Whether `dir` is a directory the server may list (read and enter). */
async function listable(dir: string): Promise<boolean> {
  try {
    const st = await fsp.stat(dir);
    if (!st.isDirectory()) return false;
    await fsp.access(dir, fsp.constants.R_OK | fsp.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Where browsing starts without a path: the data dir's parent, else the user's home, else the root. */
export async function browseStart(dataDir: string): Promise<string> {
  const candidates = [path.dirname(path.resolve(dataDir)), os.homedir(), path.parse(process.cwd()).root];
  for (const c of candidates) if (c && (await listable(c))) return path.resolve(c);
  return path.parse(process.cwd()).root;
}

/** A directory entry that is a directory, or a symbolic link to one. */
async function isDirectory(entry: Dirent, full: string): Promise<boolean> {
  if (entry.isDirectory()) return true;
  if (!entry.isSymbolicLink()) return false;
  return fsp
    .stat(full)
    .then((st) => st.isDirectory())
    .catch(() => false);
}

/**
 * The directories in `input` (an absolute path; normalised). 400 for a relative path or a NUL, 404 for
 * a missing one, 400 for a file, 403 for one the server may not read — each with its code.
 */
export async function browseDirs(input: string, limits = { dirs: BROWSE_MAX_DIRS, entries: BROWSE_MAX_ENTRIES }): Promise<BrowseAnswer> {
  if (input.includes('\0') || !path.isAbsolute(input)) throw badRequest(FOLDER_RULE_MSG.notAbsolute, { code: 'FOLDER_PATH_NOT_ABSOLUTE', field: 'path' });
  const dir = path.resolve(input);
  let st;
  try {
    st = await fsp.stat(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EPERM') throw forbidden(FOLDER_RULE_MSG.unreadable, { code: 'FOLDER_UNREADABLE', field: 'path' });
    if (code === 'ENOTDIR') throw badRequest(FOLDER_RULE_MSG.notDirectory, { code: 'FOLDER_NOT_DIRECTORY', field: 'path' });
    throw notFound(FOLDER_RULE_MSG.missing, { code: 'FOLDER_MISSING', field: 'path' });
  }
  if (!st.isDirectory()) throw badRequest(FOLDER_RULE_MSG.notDirectory, { code: 'FOLDER_NOT_DIRECTORY', field: 'path' });
  let handle;
  try {
    handle = await fsp.opendir(dir, { bufferSize: 256 });
  } catch {
    throw forbidden(FOLDER_RULE_MSG.unreadable, { code: 'FOLDER_UNREADABLE', field: 'path' });
  }
  const dirs: BrowsedDir[] = [];
  let seen = 0;
  let truncated = false;
  try {
    for await (const entry of handle) {
      if (++seen > limits.entries) {
        truncated = true;
        break;
      }
      if (entry.name.startsWith('.')) continue;
      const full = path.join(dir, entry.name);
      if (await isDirectory(entry, full)) dirs.push({ name: entry.name, path: full });
    }
  } catch {
    throw forbidden(FOLDER_RULE_MSG.unreadable, { code: 'FOLDER_UNREADABLE', field: 'path' });
  } finally {
    // a `break` closes the handle already; closing twice throws
    await handle.close().catch(() => undefined);
  }
  dirs.sort((a, b) => naturalCompare(a.name, b.name));
  if (dirs.length > limits.dirs) truncated = true;
  const parent = path.dirname(dir);
  return { path: dir, parent: parent === dir ? null : parent, dirs: dirs.slice(0, limits.dirs), truncated };
}

/** Whether the query value is usable as a path (a single string). */
export function browsePathOf(value: unknown): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw badRequest(BROWSE_MSG.notText, { code: 'FIELD_INVALID', field: 'path' });
  return value;
}
