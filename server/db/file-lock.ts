import { rmSync } from 'node:fs';
import sqlite3 from 'sqlite3';
import { open, type Database as SqliteDb } from 'sqlite';

/**
 * A lock the operating system holds for us: an open write transaction (`BEGIN IMMEDIATE`) on a small
 * SQLite file, which SQLite keeps with a file lock (fcntl on Unix, LockFileEx on Windows). The kernel drops
 * it when the holding process ends however it ends (SIGKILL, crash, power loss of the process), so a lock
 * is never "stale" and no process id has to be trusted: whoever cannot begin the transaction knows that a
 * live process holds the lock. Other connections of the same process are refused as well.
 */
export class FileLock {
  private constructor(
    readonly file: string,
    private db: SqliteDb | null,
  ) {}

  /**
   * Take the lock; null when another connection (any process) holds it. `waitMs` rides out another
   * process's momentary probe (isHeld takes the lock for an instant); a real holder keeps it far longer.
   */
  static async tryAcquire(file: string, waitMs = 500): Promise<FileLock | null> {
    const db = await openLockFile(file, waitMs);
    try {
      await db.exec('BEGIN IMMEDIATE');
      return new FileLock(file, db);
    } catch (err) {
      await db.close().catch(() => undefined);
      if (isLockBusy(err)) return null;
      throw err;
    }
  }

  /** Is the lock held right now (by any connection, this process included)? */
  static async isHeld(file: string): Promise<boolean> {
    const probe = await FileLock.tryAcquire(file, 100);
    if (!probe) return true;
    await probe.release();
    return false;
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

/** SQLite's answer when another connection holds the lock (shared by every lock file of the data dir). */
export const isLockBusy = (err: unknown) => /SQLITE_BUSY|SQLITE_LOCKED/.test(String((err as { code?: string }).code ?? (err as Error).message));

async function openLockFile(file: string, waitMs: number): Promise<SqliteDb> {
  for (let attempt = 0; ; attempt++) {
    const db = await open({ filename: file, driver: sqlite3.Database, mode: sqlite3.OPEN_READWRITE | sqlite3.OPEN_CREATE });
    try {
      await db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(waitMs))}`);
      // a file that is not a database (left by something else) is replaced once
      await db.get('PRAGMA schema_version');
      return db;
    } catch (err) {
      await db.close().catch(() => undefined);
      if (attempt > 0 || !/SQLITE_NOTADB/.test(String((err as { code?: string }).code ?? (err as Error).message))) throw err;
      rmSync(file, { force: true });
    }
  }
}
