/**
 * A look at a database file without changing it (`kikoplay doctor`): a read-only connection, so it works
 * while a server or a scan uses the database (WAL readers never block the writer).
 */
import sqlite3 from 'sqlite3';
import { open } from 'sqlite';
import type { MigrationId } from './migration-level.js';

export interface DatabaseInspection {
  /** `PRAGMA quick_check`: ['ok'] when sound, else the problems found (at most 10). */
  check: string[];
  /** The rows of the migrations table (none for a database never migrated). */
  migrations: MigrationId[];
  /** Works (not missing) per root folder alias. */
  worksByRoot: Map<string, number>;
}

/** Inspect `file`; throws (SQLITE_NOTADB, SQLITE_CORRUPT, SQLITE_CANTOPEN …) when it cannot be read at all. */
export async function inspectDatabase(file: string, busyTimeoutMs = 5000): Promise<DatabaseInspection> {
  const db = await open({ filename: file, driver: sqlite3.Database, mode: sqlite3.OPEN_READONLY });
  try {
    await db.exec(`PRAGMA busy_timeout = ${Math.floor(busyTimeoutMs)}`);
    const check = (await db.all<Record<string, string>[]>('PRAGMA quick_check(10)')).map((r) => Object.values(r)[0] ?? '');
    const hasTable = async (name: string) => (await db.get("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", name)) !== undefined;
    const migrations = (await hasTable('migrations')) ? await db.all<MigrationId[]>('SELECT id, name FROM migrations ORDER BY id') : [];
    const worksByRoot = new Map<string, number>();
    if (await hasTable('works')) {
      for (const r of await db.all<{ root: string; n: number }[]>('SELECT root_folder AS root, COUNT(*) AS n FROM works WHERE missing = 0 GROUP BY root_folder')) worksByRoot.set(r.root, r.n);
    }
    return { check, migrations, worksByRoot };
  } finally {
    await db.close();
  }
}

/** Can this SQLite build make a full-text index with the trigram tokenizer (the works search needs it)? */
export async function sqliteBuild(): Promise<{ version: string; trigram: string | null }> {
  const db = await open({ filename: ':memory:', driver: sqlite3.Database });
  try {
    const version = (await db.get<{ v: string }>('SELECT sqlite_version() AS v'))?.v ?? '?';
    try {
      await db.exec("CREATE VIRTUAL TABLE probe USING fts5 (body, tokenize = 'trigram')");
      return { version, trigram: null };
    } catch (err) {
      return { version, trigram: (err as Error).message };
    }
  } finally {
    await db.close();
  }
}
