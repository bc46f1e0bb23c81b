/**
 * "Scan work files" (server/library/README.md#jobs): for every present work, list its files again, probe every
 * media file, and update durations and the local lyric flag. Reports in the main log only.
 */
import path from 'node:path';
import { existsSync } from 'node:fs';
import { forEachConcurrent } from '../scan/limiter.js';
import { scanText } from '../scan/scan-messages.js';
import type { RunContext } from '../scan/run-context.js';
import { processWork } from './process-work.js';

export async function runFilesScan(ctx: RunContext): Promise<void> {
  ctx.main('info', scanText('filesStart'));
  const works = await ctx.library.presentWorks();
  ctx.main('info', scanText('filesTotal', works.length));
  const roots = new Map(ctx.config.rootFolders.map((r) => [r.name, r.path]));
  let done = 0;
  await forEachConcurrent(
    works,
    ctx.worksInFlight,
    async (w) => {
      const rootPath = roots.get(w.root_folder);
      const absPath = rootPath ? path.join(rootPath, w.dir) : null;
      if (!rootPath || !absPath || !existsSync(absPath)) {
        ctx.main('warn', rootPath ? scanText('workFolderMissing', w.code, absPath ?? w.dir) : scanText('workRootMissing', w.code, w.root_folder));
        ctx.count(w.code, 'skipped');
      } else {
        const outcome = await processWork(ctx, { id: w.id, code: w.code, rootName: w.root_folder, dir: w.dir, absPath, name: path.basename(absPath) }, w, {
          force: true,
          reprobeAll: true,
          quiet: true,
        });
        if (ctx.aborted) return;
        if (outcome.result === 'failed') {
          ctx.main('error', scanText('filesError', w.code, outcome.error ?? 'failed'));
          ctx.count(w.code, 'failed');
        } else {
          if (outcome.saved && outcome.saved.hadLocalLyric !== outcome.saved.hasLocalLyric) ctx.main('info', scanText('lyricChanged', w.code));
          ctx.count(w.code, 'updated');
        }
      }
      done++;
      ctx.main('info', scanText('filesProgress', done, works.length));
      ctx.progress('files', done, works.length);
    },
    ctx.signal,
  );
}
