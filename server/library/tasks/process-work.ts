/**
 * One work folder, locally: list its files, skip it when its fingerprint is unchanged, probe new and
 * changed media (bounded by the run's probe limiter), then store files, durations, lyric flag and
 * fingerprint in one transaction, and make a local cover from the work's own image when it has none.
 */
import type { WorkIndexRow, FileOnDisk, SaveLocalWorkResult } from '../../db/repos/library-repo.js';
import { probeDurations } from '../../media/probe.js';
import { pickCoverImage, removeCovers } from '../../media/covers.js';
import { listWorkFiles, type DiskFile, type WalkIssue } from '../files/work-files.js';
import { LINK_OUTSIDE } from '../files/fs-walk.js';
import { compareListPaths } from '../../domain/natural-sort.js';
import { titleFromFolderName } from '../files/folder-title.js';
import { MSG, scanText, type ScanText } from '../scan/scan-messages.js';
import type { RunContext, TaskHandle, WorkMemo } from '../scan/run-context.js';
import type { WorkFolder } from '../files/discover.js';

/** The work folder a task processes (its own name is the title of a new work). */
export type WorkTarget = WorkFolder;

export interface ProcessOptions {
  /** Process even when the fingerprint is unchanged. */
  force: boolean;
  /** Probe every media file again (scan work files). */
  reprobeAll: boolean;
  /** No per-work task events (the files job reports in the main log only). */
  quiet: boolean;
}

export interface ProcessOutcome {
  result: 'added' | 'updated' | 'skipped' | 'failed';
  saved?: SaveLocalWorkResult;
  error?: string;
}

const quietTask = (code: string): TaskHandle => ({ code, log: () => undefined, done: () => undefined, failed: () => undefined });

export async function processWork(ctx: RunContext, target: WorkTarget, prev: WorkIndexRow | undefined, opts: ProcessOptions): Promise<ProcessOutcome> {
  const task = opts.quiet ? quietTask(target.code) : ctx.task(target.code, target.id);
  try {
    const root = ctx.config.rootFolders.find((r) => r.name === target.rootName);
    if (!root) throw new Error(MSG.rootMissing(target.rootName));
    const listing = await listWorkFiles(target.absPath, root.path, ctx.signal);
    if (ctx.aborted) return { result: 'skipped' };
    const sameLocation = prev && !prev.missing && prev.root_folder === target.rootName && prev.dir === target.dir;
    // a work whose local cover was never made (e.g. a scan killed between its two steps) is not skipped
    const coverDue = prev?.cover_source === null && listing.files.some((f) => f.kind === 'image');
    if (sameLocation && !opts.force && !coverDue && prev.fingerprint === listing.fingerprint) return { result: 'skipped' };

    if (!prev) task.log('info', scanText('newFolder', target.absPath));
    else if (prev.missing) task.log('info', scanText('returnedFolder', target.absPath));
    else if (!sameLocation) task.log('info', scanText('movedFolder', `${prev.root_folder}/${prev.dir}`, `${target.rootName}/${target.dir}`));
    else if (prev.fingerprint !== listing.fingerprint) task.log('info', scanText('changedFolder', target.absPath));
    for (const issue of listing.issues) task.log('warn', issueMessage(issue));

    const existing = prev ? await ctx.library.files(target.id) : [];
    const old = new Map(existing.map((f) => [f.path, f]));
    const files = listing.files.slice().sort((a, b) => compareListPaths(a.path, b.path));
    const toProbe = files.filter((f) => {
      if (!f.isMedia) return false;
      const o = old.get(f.path);
      return opts.reprobeAll || !o || o.size !== f.size || o.mtime_ms !== f.mtimeMs || (opts.force && o.duration === null);
    });
    const hasLyric = files.some((f) => f.isLyric);
    if (!prev) task.log('info', scanText('hasLyric', hasLyric));
    const durations = new Map<string, number | null>();
    if (toProbe.length) {
      task.log('info', scanText('probing'));
      // one batch per work (the limiter bounds how many works probe at once)
      const results = await ctx.probeLimiter.run(() =>
        ctx.aborted
          ? Promise.resolve([])
          : probeDurations(
              toProbe.map((f) => ({ file: f.real, size: f.size })),
              ctx.signal,
            ),
      );
      if (ctx.aborted) return { result: 'skipped' };
      results.forEach((r, i) => {
        durations.set(toProbe[i].path, r.duration);
        if (r.duration === null) task.log('warn', scanText('probeFailed', toProbe[i].path, r.error ?? 'unknown'));
      });
    }
    if (ctx.aborted) return { result: 'skipped' };

    const onDisk: FileOnDisk[] = files.map((f: DiskFile) => ({
      path: f.path,
      kind: f.kind,
      isLyric: f.isLyric,
      isMedia: f.isMedia,
      size: f.size,
      mtimeMs: f.mtimeMs,
      duration: durations.has(f.path) ? durations.get(f.path) : undefined,
    }));
    // the work's own image becomes its cover until DLsite's arrive; the sizes are made on the first
    // request for them (GET /api/cover), so a scan does no image work
    const coverSource = prev?.cover_source ?? null;
    const images = files.filter((f) => f.kind === 'image').map((f) => f.path);
    const localCover = coverSource !== 'dlsite' && images.length && (coverSource === null || opts.force) ? pickCoverImage(images) : null;
    // a forced rescan remakes local covers from the (possibly new) image
    if (localCover && coverSource === 'local') await removeCovers(ctx.paths.coverDir, target.id);

    const saved = await ctx.library.saveLocalWork({
      id: target.id,
      code: target.code,
      folderTitle: titleFromFolderName(target.name, target.code),
      rootFolder: target.rootName,
      dir: target.dir,
      fingerprint: listing.fingerprint,
      files: onDisk,
      coverSource: localCover ? 'local' : undefined,
    });
    if (localCover) task.log('info', scanText('localCover', localCover));

    const result = saved.created ? 'added' : 'updated';
    return { result, saved };
  } catch (err) {
    const message = (err as Error).message;
    task.log('error', scanText('workError', message));
    return { result: 'failed', error: message };
  }
}

/** The log line of an entry the walk skipped. */
function issueMessage(issue: WalkIssue): ScanText {
  if (issue.code === LINK_OUTSIDE) return scanText('linkOutside', issue.path);
  if (issue.code === 'ENOENT' && issue.path.includes('\uFFFD')) return scanText('badName', issue.path);
  return scanText('cannotAccess', issue.path);
}

/** Report a processed work: task log + task done/failed + counted result. */
export function reportOutcome(ctx: RunContext, target: WorkTarget, outcome: ProcessOutcome): void {
  if (outcome.result === 'skipped') {
    ctx.count(target.code, 'skipped');
    return;
  }
  const task = ctx.task(target.code, target.id);
  const n = ctx.count(target.code, outcome.result);
  if (outcome.result === 'failed') {
    task.log('error', scanText('addFailed', n));
    task.failed(outcome.error ?? 'failed');
  } else {
    task.log('info', outcome.result === 'added' ? scanText('added', n) : scanText('updated', n));
    task.done(outcome.result);
  }
}

/** The kikoeru "memo" of a work from its stored files (POST /api/work/scan/:id). */
export function memoOf(files: { path: string; kind: string; is_lyric: number; mtime_ms: number; duration: number | null }[]): WorkMemo {
  const duration: Record<string, number> = {};
  const mtime: Record<string, number> = {};
  let total = 0;
  for (const f of files) {
    if (f.kind !== 'audio') continue;
    mtime[f.path] = f.mtime_ms;
    if (f.duration !== null) {
      duration[f.path] = f.duration;
      total += f.duration;
    }
  }
  return { duration, isContainLyric: files.some((f) => f.is_lyric === 1), mtime, totalDuration: Math.round(total * 1000) / 1000 };
}
