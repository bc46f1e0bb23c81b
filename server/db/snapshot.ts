/**
 * Database files as a whole, for backup and restore: a consistent copy of a live database, and the
 * checks a copy must pass before it replaces anything.
 */
import { closeSync, openSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sqlite3 from 'sqlite3';
import { open } from 'sqlite';
import { PRIVATE_FILE_MODE } from '../config/private-files.js';

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** The highest migration this kikoplay knows (the number of its last `NNN-name.sql`). */
export function knownMigrationLevel(): number {
  let level = 0;
  for (const name of readdirSync(MIGRATIONS_DIR)) {
    const m = /^(\d+)[.-].*\.sql$/.exec(name);
    if (m) level = Math.max(level, Number(m[1]));
  }
  return level;
}

/**
 * Copy the database `src` into the new file `dest` (mode 0600) with `VACUUM INTO`, on a connection of its
 * own: one read transaction, so the copy holds exactly the writes committed when it began, while the
 * server goes on writing (WAL readers never block writers). Returns the copy's migration level.
 */
export async function snapshotDatabase(src: string, dest: string, busyTimeoutMs: number): Promise<number> {
  // VACUUM INTO accepts an empty file: made first so the copy is private from its first byte
  closeSync(openSync(dest, 'wx', PRIVATE_FILE_MODE));
  const db = await open({ filename: src, driver: sqlite3.Database, mode: sqlite3.OPEN_READWRITE });
  try {
    await db.exec(`PRAGMA busy_timeout = ${Math.floor(busyTimeoutMs)}`);
    await db.run('VACUUM INTO ?', [dest]);
  } finally {
    await db.close();
  }
  return (await inspectDatabase(dest, false)).migrationLevel;
}

export interface DatabaseReport {
  /** `PRAGMA integrity_check`'s lines: ['ok'] when the file is sound. */
  integrity: string[];
  /** The last migration applied to it (0: none, or not a kikoplay database). */
  migrationLevel: number;
  /** It has kikoplay's migrations table. */
  isKikoplay: boolean;
}

/** Open a database file and report what it is; `integrity` runs the (full) integrity check. */
export async function inspectDatabase(file: string, integrity = true): Promise<DatabaseReport> {
  const db = await open({ filename: file, driver: sqlite3.Database, mode: sqlite3.OPEN_READWRITE });
  try {
    const lines = integrity ? (await db.all<{ integrity_check: string }[]>('PRAGMA integrity_check')).map((r) => r.integrity_check) : ['ok'];
    const table = await db.get<{ n: number }>("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'migrations'");
    const isKikoplay = (table?.n ?? 0) > 0;
    const level = isKikoplay ? ((await db.get<{ id: number | null }>('SELECT MAX(id) AS id FROM migrations'))?.id ?? 0) : 0;
    return { integrity: lines, migrationLevel: level, isKikoplay };
  } finally {
    await db.close();
  }
}
