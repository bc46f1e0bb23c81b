/**
 * Scheduled jobs of `kikoplay serve`: the library rescan on `scanCron` (node-cron syntax; '' = off),
 * and the backups on `backupCron` (backup-job.ts).
 * Re-scheduled when the config changes, so neither the schedule nor rootFolders need a restart
 * (every scan reads the roots of the current config).
 */
import cron, { type ScheduledTask } from 'node-cron';
import type { AppContext } from '../app/services.js';
import type { Actor } from '../auth/roles.js';
import { startBackupJob } from './backup-job.js';

const SYSTEM: Actor = { id: 0, name: '(cron)', role: 'admin' };

export interface Jobs {
  /** The next scheduled scan, or null when none is scheduled. */
  nextScan(): Date | null;
  stop(): void;
}

export function startJobs(app: Pick<AppContext, 'store' | 'services' | 'logger'>): Jobs {
  let task: ScheduledTask | null = null;
  let expression = '';

  const schedule = (expr: string) => {
    task?.stop();
    task = null;
    expression = expr.trim();
    if (!expression) {
      app.logger.info('scheduled scans are off (scanCron is empty)');
      return;
    }
    if (!cron.validate(expression)) {
      app.logger.error({ scanCron: expression }, 'scanCron is not a valid cron expression; scheduled scans are off');
      return;
    }
    task = cron.schedule(expression, async () => {
      if (await app.services.scan.isRunning()) {
        app.logger.info('scheduled scan skipped: a scan is already running');
        return;
      }
      try {
        const summary = await app.services.scan.run(SYSTEM, { kind: 'scan' });
        app.logger.info({ counts: summary.counts, exitCode: summary.exitCode }, `scheduled scan: ${summary.message}`);
      } catch (err) {
        app.logger.warn({ err }, 'scheduled scan did not run');
      }
      const next = nextRun();
      if (next) app.logger.info({ next: next.toISOString() }, 'next scheduled scan');
    });
    const next = nextRun();
    app.logger.info({ scanCron: expression, next: next?.toISOString() ?? null }, 'scheduled library scans');
  };

  const nextRun = (): Date | null => {
    if (!task) return null;
    const t = task as ScheduledTask & { getNextRun?: () => Date | null };
    return t.getNextRun?.() ?? null;
  };

  const onChange = (config: { scanCron: string }, keys: string[]) => {
    if (keys.includes('scanCron')) schedule(config.scanCron);
  };
  app.store.on('change', onChange);
  schedule(app.store.get().scanCron);
  const backups = startBackupJob(app);

  return {
    nextScan: nextRun,
    stop() {
      backups.stop();
      app.store.off('change', onChange);
      task?.stop();
      task = null;
    },
  };
}
