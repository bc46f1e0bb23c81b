/** The database: sound (quick_check), at this build's migration level, and the SQLite build's full-text search. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileInPath } from '../../config/ensure-dir.js';
import { inspectDatabase, sqliteBuild, type DatabaseInspection } from '../../db/inspect.js';
import { migrationLevel } from '../../db/migration-level.js';
import { finding, type Finding } from './findings.js';

/** The findings, and what the database holds (for the root folder check) when it could be read. */
export async function checkDatabase(dbFile: string): Promise<{ findings: Finding[]; inspection: DatabaseInspection | null }> {
  const folder = fileInPath(path.dirname(dbFile));
  if (folder) return { findings: [finding('database', 'problem', 'dbFolderNotFolder', { file: dbFile, folder })], inspection: null };
  if (!existsSync(dbFile)) return { findings: [finding('database', 'warning', 'dbMissing', { file: dbFile })], inspection: null };
  let inspection: DatabaseInspection;
  try {
    inspection = await inspectDatabase(dbFile);
  } catch (err) {
    const detail = (err as Error).message;
    const damaged = /SQLITE_(NOTADB|CORRUPT)/.test(String((err as { code?: string }).code) + detail);
    return { findings: [finding('database', 'problem', damaged ? 'dbDamaged' : 'dbUnreadable', { file: dbFile, detail })], inspection: null };
  }
  const findings: Finding[] = [];
  const sound = inspection.check.length === 1 && inspection.check[0] === 'ok';
  findings.push(sound ? finding('database', 'ok', 'dbOk', { file: dbFile }) : finding('database', 'problem', 'dbDamaged', { file: dbFile, detail: inspection.check.join('; ') }));
  const level = migrationLevel(inspection.migrations);
  if (level.unknown.length) {
    findings.push(finding('migrations', 'problem', 'migrationsNewer', { applied: level.applied, latest: level.latest, migrations: level.unknown.map((m) => `${m.id}-${m.name}`).join(', ') }));
  } else if (level.pending.length) {
    findings.push(finding('migrations', 'warning', 'migrationsPending', { applied: level.applied, latest: level.latest, count: level.pending.length }));
  } else {
    findings.push(finding('migrations', 'ok', 'migrationsOk', { level: level.applied }));
  }
  return { findings, inspection };
}

export async function checkSqliteBuild(): Promise<Finding[]> {
  const { version, trigram } = await sqliteBuild();
  return [trigram === null ? finding('sqlite', 'ok', 'sqliteOk', { version }) : finding('sqlite', 'problem', 'sqliteNoTrigram', { version, reason: trigram })];
}
