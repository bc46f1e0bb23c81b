/**
 * The migration level of a database against this build's migration files. A database whose migrations
 * table holds a migration these files do not know was written by a newer kikoplay: the `sqlite`
 * package's migrate() would roll such migrations back ("down"), dropping what the newer version added,
 * so it is refused before migrate() runs (DatabaseTooNewError) and left untouched.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export interface MigrationId {
  id: number;
  name: string;
}

/** The migrations this build ships, as the `sqlite` package reads them (`NNN-name.sql`), by id. */
export function knownMigrations(dir = MIGRATIONS_DIR): MigrationId[] {
  return readdirSync(dir)
    .map((f) => /^(\d+).(.*?)\.sql$/.exec(f))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ id: Number(m[1]), name: m[2] }))
    .sort((a, b) => a.id - b.id);
}

/** Where a database stands: the migrations it holds that this build does not know, and those it lacks. */
export interface MigrationLevel {
  /** The highest migration id applied (0 for a new database). */
  applied: number;
  /** The highest migration id this build ships. */
  latest: number;
  /** Applied migrations this build does not know (by id, or the same id under another name). */
  unknown: MigrationId[];
  /** Migrations of this build not applied yet (applied on the next start). */
  pending: MigrationId[];
}

/** Compare the rows of a migrations table with this build's files. */
export function migrationLevel(rows: MigrationId[], known: MigrationId[] = knownMigrations()): MigrationLevel {
  const byId = new Map(known.map((m) => [m.id, m.name]));
  const appliedIds = new Set(rows.map((r) => r.id));
  return {
    applied: Math.max(0, ...rows.map((r) => r.id)),
    latest: Math.max(0, ...known.map((m) => m.id)),
    unknown: rows.filter((r) => byId.get(r.id) !== r.name),
    pending: known.filter((m) => !appliedIds.has(m.id)),
  };
}

/** The database holds migrations of a newer kikoplay (or of another program): it is not opened for writing. */
export class DatabaseTooNewError extends Error {
  override readonly name = 'DatabaseTooNewError';
  constructor(
    readonly file: string,
    readonly unknown: MigrationId[],
  ) {
    super(
      `${file} was written by a newer kikoplay (migrations ${unknown.map((m) => `${m.id}-${m.name}`).join(', ')} are unknown to this version); ` +
        'it was left untouched: run the newer kikoplay, or restore a backup made with this version',
    );
  }
}
