/**
 * Scheduled backups of `kikoplay serve`: on `backupCron` (node-cron syntax; '' = off) a backup named
 * `kikoplay-backup-<UTC time>.tar.gz` is written into `backupDir` (default `<data-dir>/backups`), then
 * only the newest `backupKeep` backups of that folder are kept. Re-scheduled when the config changes.
 */
import cron, { type ScheduledTask } from 'node-cron';
import path from 'node:path';
import type { Logger } from 'pino';
import type { AppContext } from '../app/services.js';
import type { ConfigStore } from '../config/config-store.js';
import { createBackup, type BackupResult } from '../services/backup/backup-service.js';
import { backupFileName, pruneBackups } from '../services/backup/backup-names.js';
import { packageVersion } from '../services/system-service.js';

/** One scheduled backup at `now`: written, then the folder pruned to `backupKeep`. */
export async function runScheduledBackup(store: Pick<ConfigStore, 'get' | 'paths' | 'dataDir'>, now: Date = new Date()): Promise<{ backup: BackupResult; removed: string[] }> {
  const config = store.get();
  const dir = store.paths().backupDir;
  const backup = await createBackup({ dataDir: store.dataDir, config, file: path.join(dir, backupFileName(now)), covers: false, version: packageVersion(), now });
  const removed = pruneBackups(dir, config.backupKeep);
  return { backup, removed };
}

export interface BackupJob {
  /** The next scheduled backup, or null when none is scheduled. */
  nextBackup(): Date | null;
  stop(): void;
}

export function startBackupJob(app: Pick<AppContext, 'store'> & { logger: Logger }): BackupJob {
  let task: ScheduledTask | null = null;
  let running = false;

  const schedule = (expr: string) => {
    void task?.stop();
    task = null;
    const expression = expr.trim();
    if (!expression) return;
    if (!cron.validate(expression)) {
      app.logger.error({ backupCron: expression }, 'backupCron is not a valid cron expression; scheduled backups are off');
      return;
    }
    task = cron.schedule(expression, async () => {
      if (running) {
        app.logger.info('scheduled backup skipped: the previous one is still running');
        return;
      }
      running = true;
      try {
        const { backup, removed } = await runScheduledBackup(app.store);
        app.logger.info({ file: backup.file, size: backup.size, removed }, 'scheduled backup written');
      } catch (err) {
        app.logger.error({ err: (err as Error).message }, 'scheduled backup failed');
      } finally {
        running = false;
      }
    });
    app.logger.info({ backupCron: expression, dir: app.store.paths().backupDir, keep: app.store.get().backupKeep }, 'scheduled backups');
  };

  const onChange = (config: { backupCron: string }, keys: string[]) => {
    if (keys.includes('backupCron')) schedule(config.backupCron);
  };
  app.store.on('change', onChange);
  schedule(app.store.get().backupCron);

  return {
    nextBackup() {
      const t = task as (ScheduledTask & { getNextRun?: () => Date | null }) | null;
      return t?.getNextRun?.() ?? null;
    },
    stop() {
      app.store.off('change', onChange);
      void task?.stop();
      task = null;
    },
  };
}
