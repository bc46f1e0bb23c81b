/**
 * The library scan job: discover work folders in every root → de-duplicate → process each folder
 * (unchanged ones skipped by fingerprint) → mark vanished works missing (never deleted; skipped for
 * roots that are unreachable or suddenly empty) → fetch metadata for the queue → recount.
 */
import { discoverWorks, RootUnavailableError, type WorkFolder } from '../files/discover.js';
import { forEachConcurrent } from '../scan/limiter.js';
import { LINK_OUTSIDE } from '../files/fs-walk.js';
import { naturalCompare } from '../../domain/natural-sort.js';
import { scanText } from '../scan/scan-messages.js';
import { sqlNow } from '../../domain/time.js';
import type { WorkIndexRow } from '../../db/repos/library-repo.js';
import type { RunContext } from '../scan/run-context.js';
import { processWork, reportOutcome } from './process-work.js';
import { enrichWorks } from './enrich.js';

export interface LibraryScanOptions {
  /** Rescan every work even when its fingerprint is unchanged. */
  full: boolean;
  /** Fetch metadata for works that need it (off = offline scan). */
  metadata: boolean;
}

export async function runLibraryScan(ctx: RunContext, opts: LibraryScanOptions): Promise<void> {
  const roots = ctx.config.rootFolders;
  if (!roots.length) {
    ctx.main('warn', scanText('noRoots'));
    return;
  }
  const index = await ctx.library.index();
  const byId = new Map<number, WorkIndexRow>(index.map((w) => [w.id, w]));

  // 1. discovery, root by root
  ctx.progress('discover', 0, 0, true);
  const found: WorkFolder[] = [];
  const rootOrder = new Map<string, number>();
  for (const [i, root] of roots.entries()) {
    rootOrder.set(root.name, i);
    if (ctx.aborted) return;
    const inRoot: WorkFolder[] = [];
    try {
      for await (const f of discoverWorks(root, {
        maxDepth: ctx.config.scannerMaxRecursionDepth,
        signal: ctx.signal,
        onIssue: (issue) => ctx.main('warn', issue.code === LINK_OUTSIDE ? scanText('linkOutside', issue.path) : scanText('cannotAccess', issue.path)),
      })) {
        inRoot.push(f);
      }
    } catch (err) {
      if (err instanceof RootUnavailableError) {
        const line =
          err.code === 'ENOENT'
            ? scanText('rootGone', root.name, root.path)
            : err.code === 'ENOTDIR'
              ? scanText('rootNotFolder', root.name, root.path)
              : scanText('rootUnreachable', root.name, root.path, err.reason);
        ctx.main('error', line);
      } else {
        ctx.main('error', scanText('rootError', (err as Error).message));
      }
      ctx.stoppedRoots.push(root.name);
      continue;
    }
    if (ctx.aborted) return;
    if (!inRoot.length) {
      const present = await ctx.library.countPresentInRoot(root.name);
      if (present > 0) {
        ctx.main('error', scanText('rootSuddenlyEmpty', root.name, root.path, present));
        ctx.stoppedRoots.push(root.name);
        continue;
      }
    }
    found.push(...inRoot);
  }
  ctx.main('info', scanText('foundFolders', found.length));

  // 2. duplicates: keep the folder the work already lives in, else the first by root order and path
  const groups = new Map<number, WorkFolder[]>();
  for (const f of found) {
    const g = groups.get(f.id);
    if (g) g.push(f);
    else groups.set(f.id, [f]);
  }
  const chosen: WorkFolder[] = [];
  let duplicateCount = 0;
  const dupGroups: WorkFolder[][] = [];
  for (const [id, g] of groups) {
    if (g.length === 1) {
      chosen.push(g[0]);
      continue;
    }
    g.sort((a, b) => rootOrder.get(a.rootName)! - rootOrder.get(b.rootName)! || naturalCompare(a.dir, b.dir));
    const prev = byId.get(id);
    const keep = (prev && g.find((f) => f.rootName === prev.root_folder && f.dir === prev.dir)) || g[0];
    chosen.push(keep);
    duplicateCount += g.length - 1;
    dupGroups.push([keep, ...g.filter((f) => f !== keep)]);
  }
  if (duplicateCount) {
    ctx.main('warn', scanText('duplicates', duplicateCount));
    for (const g of dupGroups) {
      ctx.main('warn', scanText('duplicateHeader', g[0].code));
      for (const f of g) ctx.main('warn', scanText('duplicatePath', f.absPath));
      ctx.main('info', scanText('duplicateChosen', g[0].code, g[0].absPath));
      ctx.counts.skipped += g.length - 1;
    }
  }

  // 3. each work folder
  const total = chosen.length;
  let done = 0;
  ctx.progress('local', 0, total, true);
  await forEachConcurrent(
    chosen,
    ctx.worksInFlight,
    async (folder) => {
      const outcome = await processWork(ctx, folder, byId.get(folder.id), { force: opts.full, reprobeAll: false, quiet: false });
      if (ctx.aborted && outcome.result === 'skipped') return;
      reportOutcome(ctx, folder, outcome);
      done++;
      ctx.progress('local', done, total);
    },
    ctx.signal,
  );
  if (ctx.aborted) return;
  ctx.progress('local', done, total, true);

  // 4. works whose folder vanished: marked missing, never deleted
  if (ctx.config.skipCleanup) {
    ctx.main('info', scanText('skipCleanup'));
  } else {
    ctx.main('info', scanText('cleanupStart'));
    // works of stopped roots stay as they are; works under an alias no longer configured are missing too
    const stopped = new Set(ctx.stoppedRoots);
    const seen = new Set(found.map((f) => f.id));
    const vanished = index.filter((w) => !w.missing && !seen.has(w.id) && !stopped.has(w.root_folder)).map((w) => w.id);
    const n = await ctx.library.markMissing(vanished);
    if (n) ctx.main('warn', scanText('cleanupMarked', n));
    ctx.main('info', scanText('cleanupDone'));
  }
  if (ctx.aborted) return;

  // 5. metadata queue
  if (!opts.metadata || !ctx.metadata) {
    ctx.main('info', scanText('metadataSkipped'));
  } else {
    const due = await ctx.library.dueForMetadata(sqlNow());
    if (due.length) {
      ctx.main('info', scanText('metadataQueue', due.length));
      ctx.progress('metadata', 0, due.length, true);
      await enrichWorks(ctx, due, 'scan');
    }
  }
  ctx.metadataCounts.pending = await ctx.library.countMetadataNotOk();
  if (opts.metadata && ctx.metadata) ctx.main('info', scanText('metadataSummary', ctx.metadataCounts.ok, ctx.metadataCounts.failed, ctx.metadataCounts.pending));
}
