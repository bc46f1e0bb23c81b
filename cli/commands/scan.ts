import { Command } from 'commander';
import { CLI_ACTOR, withApp } from '../context.js';
import { CliError } from '../output/print.js';
import { plainPrinter } from '../output/scan-plain.js';
import { jsonPrinter } from '../output/scan-json.js';
import { guardedOutput } from '../output/line-sink.js';
import { parseProductCode, formatWorkCode } from '../../server/domain/work-code.js';
import type { ScanRequest, ScanSummary } from '../../server/services/scan-service.js';
import type { ScanEvent } from '../../server/contract/scan-events.js';

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
  if (modes.length > 1) throw new CliError(`these options cannot be combined: ${modes.join(', ')}`, 2);
  if (opts.work !== undefined) {
    const id = parseProductCode(opts.work);
    if (id === null) throw new CliError(`--work needs a work code like RJ123456, BJ123456 or VJ12345678, got "${opts.work}"`, 2);
    return { kind: 'work', workId: id, metadata: !!opts.refreshMetadata && !opts.offline };
  }
  if (opts.files) return { kind: 'files' };
  if (opts.purgeMissing) return { kind: 'purge' };
  if (opts.refreshMetadata) {
    if (opts.offline) throw new CliError('--refresh-metadata cannot run --offline', 2);
    return { kind: 'refresh' };
  }
  return { kind: 'scan', full: !!opts.full, metadata: !opts.offline };
}

export function scanCommand(): Command {
  return new Command('scan')
    .description('scan the library folders for works (TUI on a terminal, plain lines or --json otherwise); exit 0 all fine, 1 some works failed, 2 fatal')
    .option('--json', 'print one JSON event per line')
    .option('--full', 'rescan every work even when unchanged')
    .option('--files', 'rescan files (durations, lyric flags) of every work')
    .option('--refresh-metadata', 'fetch metadata of every work again (with --work: of that work)')
    .option('--work <code>', 'scan one work, e.g. RJ123456')
    .option('--offline', 'index local files only; do not fetch metadata')
    .option('--purge-missing', 'delete works whose folders are missing, with their reviews, history and AI lyrics')
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
        let onEvent: (e: ScanEvent) => void;
        let finishUi: () => Promise<void> = async () => undefined;
        if (tty) {
          const { startScanTui } = await import('../tui/run-scan-tui.js');
          const ui = startScanTui(cancel);
          onEvent = (e) => ui.push(e);
          finishUi = () => ui.finish();
        } else {
          onEvent = opts.json ? jsonPrinter(out) : plainPrinter(out);
        }
        const unsubscribe = scan.subscribe(onEvent);
        const stopSignals = onStopSignals(cancel);
        let result: ScanSummary;
        try {
          result = await scan.run(CLI_ACTOR, req).catch((err: Error & { status?: number }) => {
            if (err.status === 409) throw new CliError(err.message, 2);
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
      if (outputClosed) throw new CliError('输出已关闭，扫描已停止', 1);
      if (summary.kind === 'work' && summary.workMemo && !opts.json) {
        const m = summary.workMemo;
        process.stdout.write(`${formatWorkCode((req as { workId: number }).workId)}: ${Object.keys(m.mtime).length} 个音频文件，总时长 ${m.totalDuration.toFixed(1)} 秒，字幕: ${m.isContainLyric}\n`);
      }
      if (summary.exitCode === 2) throw new CliError(summary.error ?? summary.message, 2);
      if (summary.exitCode === 1) {
        const why = summary.status === 'cancelled' ? '扫描已取消' : summary.stoppedRoots.length ? `根文件夹无法扫描: ${summary.stoppedRoots.join(', ')}` : `${summary.counts.failed} 个作品处理失败`;
        throw new CliError(why, 1);
      }
    });
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
