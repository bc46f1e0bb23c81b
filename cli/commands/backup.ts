import path from 'node:path';
import { Command } from 'commander';
import { loadConfig } from '../../server/config/load.js';
import { BackupError, type BackupProblem } from '../../server/services/backup/backup-errors.js';
import { backupFileName } from '../../server/services/backup/backup-names.js';
import { createBackup } from '../../server/services/backup/backup-service.js';
import { packageVersion } from '../../server/services/system-service.js';
import { dataDirOf } from '../context.js';
import { CliError } from '../output/print.js';
import { cliText, type CliCatalog } from '../i18n/index.js';

/** A refused backup or restore, in the run's language. */
export function backupProblemText(p: BackupProblem, t: CliCatalog = cliText()): string {
  const e = t.backup.errors;
  switch (p.key) {
    case 'noDatabase':
      return e.noDatabase(p.file);
    case 'targetExists':
      return e.targetExists(p.file);
    case 'notBackup':
      return e.notBackup(p.file, p.detail);
    case 'truncated':
      return e.truncated(p.file);
    case 'damaged':
      return e.damaged(p.file, p.detail);
    case 'newerFormat':
      return e.newerFormat(p.file, p.version);
    case 'newerMigration':
      return e.newerMigration(p.file, p.level, p.known);
    case 'inUse':
      return e.inUse(p.dataDir);
    case 'scanRunning':
      return e.scanRunning(p.dataDir, p.pid);
    case 'notEmpty':
      return e.notEmpty(p.dataDir, p.found.join(', '));
    case 'integrity':
      return e.integrity(p.detail);
    case 'badConfig':
      return e.badConfig(p.detail);
    case 'notDirectory':
      return e.notDirectory(p.path);
  }
}

/** Run a backup or restore; its refusals become terminal errors (exit 1). */
export async function backupRefusals<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof BackupError) throw new CliError(backupProblemText(err.problem));
    throw err;
  }
}

/** 1536 → "1.5 KiB". */
export function humanSize(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let n = bytes;
  let u = 0;
  while (n >= 1024 && u < units.length - 1) {
    n /= 1024;
    u++;
  }
  return u === 0 ? `${n} ${units[u]}` : `${n.toFixed(1)} ${units[u]}`;
}

/** `kikoplay backup [FILE]`: a consistent backup of the data dir, also while the server runs. */
export function backupCommand(): Command {
  const h = cliText().backup.help;
  return new Command('backup')
    .description(h.backup)
    .argument('[file]', h.backupFile)
    .option('--covers', h.covers)
    .option('--json', h.json)
    .action(async (file: string | undefined, opts: { covers?: boolean; json?: boolean }, cmd: Command) => {
      const dataDir = dataDirOf(cmd);
      const config = loadConfig(dataDir);
      const target = path.resolve(file ?? backupFileName(new Date()));
      const result = await backupRefusals(() => createBackup({ dataDir, config, file: target, covers: !!opts.covers, version: packageVersion() }));
      if (opts.json) {
        process.stdout.write(JSON.stringify(result, null, 2) + '\n');
        return;
      }
      const t = cliText().backup;
      process.stdout.write(`${t.written(result.file, humanSize(result.size))}\n${t.private}\n`);
    });
}
