/**
 * Scan one work's files (POST /api/work/scan/:id, `kikoplay scan --work`): durations of every media
 * file, lyric flag, file numbers; optionally its metadata too. Leaves the work's memo in the context.
 */
import path from 'node:path';
import { existsSync } from 'node:fs';
import { scanText, type ScanText } from '../scan/scan-messages.js';
import { formatWorkCode } from '../../domain/work-code.js';
import type { RunContext } from '../scan/run-context.js';
import { memoOf, processWork, reportOutcome } from './process-work.js';
import { enrichWorks } from './enrich.js';

/** Why a single-work scan cannot start; checked before the job runs so callers can answer 404/409. `line` is the run's last line, said in the reader's language. */
export class WorkScanError extends Error {
  constructor(
    readonly reason: 'unknown' | 'root' | 'folder',
    readonly line: ScanText,
  ) {
    super(line.text);
  }
}

export async function runWorkScan(ctx: RunContext, workId: number, opts: { metadata: boolean }): Promise<void> {
  const w = await ctx.library.work(workId);
  if (!w) throw new WorkScanError('unknown', scanText('workNotInDb', formatWorkCode(workId)));
  const root = ctx.config.rootFolders.find((r) => r.name === w.root_folder);
  if (!root) throw new WorkScanError('root', scanText('rootMissing', w.root_folder));
  const absPath = path.join(root.path, w.dir);
  if (!existsSync(absPath)) throw new WorkScanError('folder', scanText('workFolderMissing', w.code, absPath));
  const target = { id: w.id, code: w.code, rootName: w.root_folder, dir: w.dir, absPath, name: path.basename(absPath) };
  const outcome = await processWork(ctx, target, w, { force: true, reprobeAll: true, quiet: false });
  if (ctx.aborted) return;
  reportOutcome(ctx, target, outcome.result === 'added' ? { ...outcome, result: 'updated' } : outcome);
  if (outcome.saved && outcome.saved.hadLocalLyric !== outcome.saved.hasLocalLyric) ctx.main('info', scanText('lyricChanged', w.code));
  if (opts.metadata && ctx.metadata && !ctx.aborted) await enrichWorks(ctx, [workId], 'refresh');
  ctx.workMemo = memoOf(await ctx.library.files(workId));
}
