/**
 * The data dir "in use" mark: `<data-dir>/in-use.lock.db`, a small SQLite file on which every process that
 * opens the data dir's services (the server, `kikoplay scan`, the one-shot commands) holds a read
 * transaction — a SHARED lock the operating system keeps for it. Any number of processes may share it; a
 * restore takes it EXCLUSIVE, which the OS grants only while nobody holds it, and while the restore holds
 * it nobody else can take it. The kernel drops the lock when its process ends however it ends, so a
 * crashed server never leaves the data dir marked as in use.
 */
import { closeSync, existsSync, openSync } from 'node:fs';
import path from 'node:path';
import sqlite3 from 'sqlite3';
import { open, type Database as SqliteDb } from 'sqlite';
import { PRIVATE_FILE_MODE } from '../config/private-files.js';
import { isLockBusy } from './file-lock.js';

export const inUseLockFile = (dataDir: string) => path.join(dataDir, 'in-use.lock.db');

/** A process could not mark the data dir as in use: a restore is filling it. */
export class DataDirRestoringError extends Error {
  constructor(readonly dataDir: string) {
    super(`the data dir ${dataDir} is being restored from a backup (kikoplay restore); start again when it has finished`);
  }
}

async function openLock(file: string, waitMs: number, create: boolean): Promise<SqliteDb> {
  // private like the rest of the data dir (it holds nothing but the lock)
  if (create) closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
  const mode = sqlite3.OPEN_READWRITE | (create ? sqlite3.OPEN_CREATE : 0);
  const db = await open({ filename: file, driver: sqlite3.Database, mode });
  await db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(waitMs))}`);
  return db;
}

/** A held mark (shared or exclusive) on a data dir. */
export class DataDirLock {
  private constructor(private db: SqliteDb | null) {}

  /**
   * Mark the data dir as in use (shared with every other user of it). Waits up to `waitMs` for a restore
   * that holds it, then throws DataDirRestoringError.
   */
  static async share(dataDir: string, waitMs = 2000): Promise<DataDirLock> {
    const db = await openLock(inUseLockFile(dataDir), waitMs, true);
    try {
      await db.exec('BEGIN');
      // a read makes the transaction take its SHARED lock (held until ROLLBACK)
      await db.get('SELECT count(*) AS n FROM sqlite_master');
      return new DataDirLock(db);
    } catch (err) {
      await db.close().catch(() => undefined);
      if (isLockBusy(err)) throw new DataDirRestoringError(dataDir);
      throw err;
    }
  }

  /**
   * Take the data dir for oneself (a restore): null while any process uses it. With `create` false and no
   * lock file, nobody can be using it (every user makes the file first): an unheld lock with nothing to
   * release is returned and nothing is written.
   */
  static async exclusive(dataDir: string, create: boolean): Promise<DataDirLock | null> {
    const file = inUseLockFile(dataDir);
    if (!create && !existsSync(file)) return new DataDirLock(null);
    const db = await openLock(file, 200, create);
    try {
      await db.exec('BEGIN EXCLUSIVE');
      return new DataDirLock(db);
    } catch (err) {
      await db.close().catch(() => undefined);
      if (isLockBusy(err)) return null;
      throw err;
    }
  }

  get held(): boolean {
    return this.db !== null;
  }

  async release(): Promise<void> {
    const db = this.db;
    if (!db) return;
    this.db = null;
    await db.exec('ROLLBACK').catch(() => undefined);
    await db.close().catch(() => undefined);
  }
}
