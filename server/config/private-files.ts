/**
 * Modes of what kikoplay keeps: the data dir is the owner's only (0700), and so is every file holding a
 * secret or the library's data (0600): config.json, jwt-secret, initial-admin-password, the database
 * and its -wal/-shm/-journal files. Created so, and tightened on start when an older version made them
 * readable by others (bits are only ever removed, never added).
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, openSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import { DirectoryError, ensureDir } from './ensure-dir.js';
import path from 'node:path';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Files of the data dir that hold secrets (the database is handled where it is opened: it may live elsewhere). */
const SECRET_FILES = ['config.json', 'jwt-secret', 'initial-admin-password', 'subsonic-key'];

/** Remove the permission bits `mode` does not allow. False when the file is absent or not ours to change. */
export function restrictMode(file: string, mode: number): boolean {
  let current: number;
  try {
    current = statSync(file).mode & 0o777;
  } catch {
    return false;
  }
  const wanted = current & mode;
  if (wanted === current) return true;
  try {
    chmodSync(file, wanted);
    return true;
  } catch {
    // another user's file (e.g. made by root): kikoplay runs on with what it may change
    return false;
  }
}

/** Create a private folder (0700), or tighten an existing one. */
export function ensurePrivateDir(dir: string): void {
  ensureDir(dir, PRIVATE_DIR_MODE);
  restrictMode(dir, PRIVATE_DIR_MODE);
}

/**
 * A folder or file of the data dir kikoplay cannot use (cannot create it, read it or write it): refused at
 * start with the path and the reason (`code`: EACCES, EPERM, EROFS, ENOTDIR …), never a stack trace.
 */
export class DataDirError extends Error {
  override readonly name = 'DataDirError';
  constructor(
    readonly path: string,
    readonly code: string,
  ) {
    super(`cannot use ${path} (${code}): it must be a folder (or file) the user running kikoplay can read and write`);
  }

  /** The error of a failed file-system call on `file`, as a DataDirError; other errors as they are. */
  static from(file: string, err: unknown): Error {
    if (err instanceof DataDirError) return err;
    if (err instanceof DirectoryError) return new DataDirError(err.dir, err.code);
    const code = (err as NodeJS.ErrnoException).code;
    return code ? new DataDirError(file, code) : (err as Error);
  }
}

/**
 * Can this process list the folder and make files in it? The reason when not (EACCES, EROFS …). Tried for
 * real (a file made and removed at once): access(2) answers for the real user, not the effective one,
 * and knows nothing of read-only mounts' quirks or ACLs.
 */
export function dirProblem(dir: string): string | null {
  try {
    readdirSync(dir);
    const probe = path.join(dir, `.kikoplay-probe-${process.pid}-${randomBytes(4).toString('hex')}`);
    closeSync(openSync(probe, 'wx', PRIVATE_FILE_MODE));
    unlinkSync(probe);
    return null;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code ?? 'EACCES';
  }
}

/** Can this process open the file for reading and writing (nothing is written)? The reason when not. */
export function fileProblem(file: string): string | null {
  try {
    closeSync(openSync(file, 'r+'));
    return null;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code ?? 'EACCES';
  }
}

/** The data dir at start: created or tightened to 0700, its secret files to 0600; refused when not ours to use. */
export function prepareDataDir(dataDir: string): void {
  try {
    ensurePrivateDir(dataDir);
  } catch (err) {
    throw DataDirError.from(dataDir, err);
  }
  const problem = dirProblem(dataDir);
  if (problem) throw new DataDirError(dataDir, problem);
  for (const name of SECRET_FILES) {
    const file = path.join(dataDir, name);
    if (!statSync(file, { throwIfNoEntry: false })) continue;
    restrictMode(file, PRIVATE_FILE_MODE);
    const fileCode = fileProblem(file);
    if (fileCode) throw new DataDirError(file, fileCode);
  }
}

/** The database file and its companions, as SQLite names them. */
export const databaseFiles = (dbFile: string) => [dbFile, `${dbFile}-wal`, `${dbFile}-shm`, `${dbFile}-journal`];
