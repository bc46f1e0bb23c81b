/**
 * `kikoplay doctor`: checks what a server needs (config, data dir, disk, database, SQLite build, ffprobe,
 * library folders, port) without changing anything, each as findings the terminal explains. Safe while
 * a server runs: the database is only read, on a connection of its own.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { configPath, ConfigFileError, loadConfig, resolvePaths } from '../../config/load.js';
import { defaultConfig, type Config } from '../../config/schema.js';
import { checkDataDir } from './data-dir.js';
import { checkDisk, DISK_LIMITS, type DiskLimits } from './disk.js';
import { checkDatabase, checkSqliteBuild } from './database.js';
import { checkFfprobe } from './ffprobe.js';
import { checkRoots } from './roots.js';
import { checkPort } from './port.js';
import { finding, type Finding } from './findings.js';

export type { DoctorCheck, DoctorStatus, Finding, FindingKey, FindingParams } from './findings.js';

export interface DoctorOptions {
  dataDir: string;
  env?: NodeJS.ProcessEnv;
  disk?: DiskLimits;
}

export interface DoctorReport {
  findings: Finding[];
  /** True when nothing is a problem (warnings allowed): exit 0. */
  ok: boolean;
}

/** The config `serve` would run with; the defaults (and a problem) when it is refused. */
function configFinding(dataDir: string, env: NodeJS.ProcessEnv): { config: Config; found: Finding } {
  const file = configPath(dataDir);
  try {
    const config = loadConfig(dataDir, {}, env);
    return { config, found: finding('config', 'ok', exists(file) ? 'configOk' : 'configDefaults', { file }) };
  } catch (err) {
    const reason = err instanceof ConfigFileError ? err.message : `${file}: ${(err as Error).message}`;
    return { config: defaultConfig(), found: finding('config', 'problem', 'configInvalid', { reason }) };
  }
}

/** The nearest existing folder at or above `dir` (for the free space of a data dir not made yet). */
function existingAncestor(dir: string): string {
  let cur = dir;
  while (!exists(cur) && path.dirname(cur) !== cur) cur = path.dirname(cur);
  return cur;
}

/** stat that answers false for a path it cannot reach (under a file: ENOTDIR; no access: EACCES). */
function exists(p: string): boolean {
  try {
    return statSync(p, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}

export async function runDoctor(opts: DoctorOptions): Promise<DoctorReport> {
  const env = opts.env ?? process.env;
  const { config, found } = configFinding(opts.dataDir, env);
  const paths = resolvePaths(opts.dataDir, config);
  const findings: Finding[] = [found];
  findings.push(...checkDataDir(opts.dataDir, paths.dbFile));
  findings.push(...checkDisk(existingAncestor(opts.dataDir), opts.disk ?? DISK_LIMITS));
  const db = await checkDatabase(paths.dbFile);
  findings.push(...db.findings);
  findings.push(...(await checkSqliteBuild()));
  findings.push(...(await checkFfprobe()));
  findings.push(...(await checkRoots(config, db.inspection?.worksByRoot ?? new Map())));
  findings.push(...(await checkPort(opts.dataDir, config.listenPort, config.blockRemoteConnection ? '127.0.0.1' : undefined)));
  return { findings, ok: findings.every((f) => f.status !== 'problem') };
}
