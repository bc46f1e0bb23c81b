import { Command } from 'commander';
import { restoreBackup } from '../../server/services/backup/backup-service.js';
import { dataDirOf } from '../context.js';
import { cliText } from '../i18n/index.js';
import { backupRefusals } from './backup.js';

/** `kikoplay restore FILE`: fill an empty or stopped data dir from a backup, or change nothing. */
export function restoreCommand(): Command {
  const h = cliText().backup.help;
  return new Command('restore')
    .description(h.restore)
    .argument('<file>', h.restoreFile)
    .option('--force', h.force)
    .option('--json', h.json)
    .action(async (file: string, opts: { force?: boolean; json?: boolean }, cmd: Command) => {
      const result = await backupRefusals(() => restoreBackup({ dataDir: dataDirOf(cmd), file, force: !!opts.force }));
      if (opts.json) {
        process.stdout.write(JSON.stringify(result, null, 2) + '\n');
        return;
      }
      const t = cliText().backup;
      const lines = [t.restored(file, result.dataDir), t.taken(result.createdAt, result.kikoplayVersion, result.migrationLevel, result.covers)];
      if (result.replacedDir) lines.push(t.replaced(result.replacedDir));
      process.stdout.write(lines.join('\n') + '\n');
    });
}
