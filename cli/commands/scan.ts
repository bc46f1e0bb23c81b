import { Command } from 'commander';
import { CLI_ACTOR, withApp } from '../context.js';
import { CliError } from '../output/print.js';
import { plainPrinter } from '../output/scan-plain.js';
import { jsonPrinter } from '../output/scan-json.js';
import { guardedOutput } from '../output/line-sink.js';
import { parseProductCode, formatWorkCode } from '../../server/domain/work-code.js';
import type { ScanRequest, ScanSummary } from '../../server/services/scan-service.js';
import type { ScanEvent } from '../../server/contract/scan-events.js';
import { cliText, errorText, localizeScanEvent, scanLine } from '../i18n/index.js';

interface ScanOptions {
  json?: boolean;
  full?: boolean;
  files?: boolean;
  refreshMetadata?: boolean;
  work?: string;
  purgeMissing?: boolean;
  offline?: boolean;
}

/** The job a set of flags asks for; conflicting flags are a usage error (exit 2). */
export function requestFromOptions(opts: ScanOptions): ScanRequest {
  const modes = [opts.files && '--files', opts.purgeMissing && '--purge-missing', opts.work !== undefined && '--work', opts.refreshMetadata && !opts.work && '--refresh-metadata'].filter(Boolean);
  const e = cliText().errors;
  if (modes.length > 1) throw new CliError(e.flagsConflict(modes.join(', ')), 2);
  // --full is a way of the whole scan: with another job it would be silently ignored
  if (opts.full && modes.length) throw new CliError(e.flagsConflict(['--full', ...modes].join(', ')), 2);
  if (opts.work !== undefined) {
    const id = parseProductCode(opts.work);
    if (id === null) throw new CliError(e.badWorkCode(opts.work), 2);
    return { kind: 'work', workId: id, metadata: !!opts.refreshMetadata && !opts.offline };
  }
  if (opts.files) return { kind: 'files' };
  if (opts.purgeMissing) return { kind: 'purge' };
  if (opts.refreshMetadata) {
    if (opts.offline) throw new CliError(e.refreshOffline, 2);
    return { kind: 'refresh' };
  }
  return { kind: 'scan', full: !!opts.full, metadata: !opts.offline };
}

export function scanCommand(): Command {
  const h = cliText().help.scan;
  return new Command('scan')
    .description(h.description)
    .option('--json', h.json)
    .option('--full', h.full)
    .option('--files', h.files)
    .option('--refresh-metadata', h.refreshMetadata)
    .option('--work <code>', h.work)
    .option('--offline', h.offline)
    .option('--purge-missing', h.purgeMissing)
    .action(async (opts: ScanOptions, cmd: Command) => {
      const req = requestFromOptions(opts);
      let outputClosed = false;
      const summary = await withApp(cmd, async (app) => {
        const scan = app.services.scan;
        const tty = !opts.json && !!process.stdout.isTTY && !!process.stdin.isTTY;
        let cancelled = false;
        const cancel = () => {
          if (cancelled) return;
          cancelled = true;
          void scan.kill(CLI_ACTOR);
        };
        // the reader of our output went away: stop the scan cleanly (the lock is released as it ends)
        const out = guardedOutput(process.stdout, () => {
          outputClosed = true;
          cancel();
        });
        process.stderr.on('error', () => undefined);
        let show: (e: ScanEvent) => void;
        let finishUi: () => Promise<void> = async () => undefined;
        if (tty) {
          const { startScanTui } = await import('../tui/run-scan-tui.js');
          const ui = startScanTui(cancel);
          show = (e) => ui.push(localizeScanEvent(e));
          finishUi = () => ui.finish();
        } else {
          show = opts.json ? jsonPrinter(out) : plainPrinter(out);
        }
        // a person reads each message once: the end says "cancelled" or the fatal error itself
        const onEvent = opts.json ? show : (e: ScanEvent) => void (shownOnce(e) && show(e));
        const unsubscribe = scan.subscribe(onEvent);
        const stopSignals = onStopSignals(cancel);
        let result: ScanSummary;
        try {
          result = await scan.run(CLI_ACTOR, req).catch((err: Error & { status?: number }) => {
            if (err.status === 409) throw new CliError(errorText(err), 2);
            throw err;
          });
        } finally {
          unsubscribe();
          stopSignals();
          out.dispose();
          await finishUi();
        }
        return result;
      });
      const t = cliText();
      // the reader went away: nobody is left to tell (README: "stops it quietly")
      if (outputClosed) throw new CliError('', 1);
      if (summary.kind === 'work' && summary.workMemo && !opts.json) {
        const m = summary.workMemo;
        process.stdout.write(t.messages.workMemo(formatWorkCode((req as { workId: number }).workId), Object.keys(m.mtime).length, m.totalDuration.toFixed(1), m.isContainLyric) + '\n');
      }
      // the terminal view and the plain lines already end with the error or "cancelled"; --json keeps stdout
      // for the events, so the one human line goes to stderr
      const shown = !opts.json;
      // a refused work scan ends on a line of its own, said in the run's language; another failure by its message
      const fatalText =
        summary.messageText.key === 'fatal' ? (summary.error ?? summary.message) : scanLine({ message: summary.message, key: summary.messageText.key, params: summary.messageText.params });
      if (summary.exitCode === 2) throw new CliError(shown ? '' : fatalText, 2);
      if (summary.exitCode === 1) {
        if (summary.status === 'cancelled') throw new CliError(shown ? '' : t.errors.scanCancelled, 1);
        const why = [
          summary.stoppedRoots.length ? t.errors.rootsStopped(summary.stoppedRoots.join(', ')) : null,
          summary.counts.failed ? t.errors.worksFailed(summary.counts.failed) : null,
          summary.metadata.failed ? t.errors.metadataFailed(summary.metadata.failed) : null,
        ].filter(Boolean);
        throw new CliError(why.join('; ') || t.errors.worksFailed(summary.counts.failed), 1);
      }
    });
}

/**
 * Whether a terminal shows an event: not the "scan process stopped" line (the end says "cancelled") nor the
 * fatal error line (the end says it).
 */
function shownOnce(e: ScanEvent): boolean {
  if (e.type === 'main-log' && e.key === 'killed') return false;
  return e.type !== 'error';
}

/** How long a scan gets to stop cleanly after SIGINT/SIGTERM before the process exits anyway. */
export const STOP_GRACE_MS = 5000;

/**
 * SIGINT / SIGTERM stop the scan: the first asks it to stop cleanly (the work in progress is committed or
 * rolled back, the lock released); if it has not ended within STOP_GRACE_MS, or on a second signal, the
 * process exits at once — the OS releases the scan lock with it. Returns the function that removes the
 * handlers.
 */
function onStopSignals(cancel: () => void): () => void {
  let forced: NodeJS.Timeout | null = null;
  const handler = (signal: NodeJS.Signals) => {
    const code = signal === 'SIGINT' ? 130 : 143;
    if (forced) process.exit(code);
    cancel();
    forced = setTimeout(() => process.exit(code), STOP_GRACE_MS);
    forced.unref();
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
    if (forced) clearTimeout(forced);
  };
}
