/**
 * Modes of what kikoplay keeps: the data dir is the owner's only (0700), and so is every file holding a
 * secret or the library's data (0600): config.json, jwt-secret, initial-admin-password, the database
 * and its -wal/-shm/-journal files. Created so, and tightened on start when an older version made them
 * readable by others (bits are only ever removed, never added).
 */
import { chmodSync, statSync } from 'node:fs';
import { ensureDir } from './ensure-dir.js';
import path from 'node:path';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Files of the data dir that hold secrets (the database is handled where it is opened: it may live elsewhere). */
const SECRET_FILES = ['config.json', 'jwt-secret', 'initial-admin-password'];

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

/** The data dir at start: created or tightened to 0700, its secret files to 0600. */
export function prepareDataDir(dataDir: string): void {
  ensurePrivateDir(dataDir);
  for (const name of SECRET_FILES) restrictMode(path.join(dataDir, name), PRIVATE_FILE_MODE);
}

/** The database file and its companions, as SQLite names them. */
export const databaseFiles = (dbFile: string) => [dbFile, `${dbFile}-wal`, `${dbFile}-shm`, `${dbFile}-journal`];
