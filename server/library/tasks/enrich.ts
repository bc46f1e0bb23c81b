/**
 * Metadata enrichment: a persisted queue over the works table (metadata_status / _next_at /
 * _attempts), worked through at a limited rate. `scan` mode fetches works that are pending or due
 * again; `refresh` mode re-fetches every given work (prices, sales, ratings included). A site that cannot
 * be reached (DNS, refused, timeout: the source gives it up after a few failures in a row) is named once in
 * the main log, and the works it leaves without metadata fail at once with that reason (no request, no
 * rate-limit wait). A run stops fetching after too many consecutive failures of answering sites, leaving the
 * rest for a later scan. A failed work is a failed task with its reason (the dashboard's failed tab).
 * DLsite covers replace local ones when the source has them.
 */
import { sqlNow } from '../../domain/time.js';
import { formatWorkCode } from '../../domain/work-code.js';
import { saveCover, coverFileName } from '../../media/covers.js';
import { COVER_TYPES, type WorkMetadata } from '../../domain/work-metadata.js';
import { forEachConcurrent } from '../scan/limiter.js';
import { scanText } from '../scan/scan-messages.js';
import { sleep, type RunContext, type TaskHandle } from '../scan/run-context.js';

export type EnrichMode = 'scan' | 'refresh';

export async function enrichWorks(ctx: RunContext, ids: number[], mode: EnrichMode): Promise<void> {
  const source = ctx.metadata;
  if (!source || !ids.length) return;
  const opts = ctx.options;
  let consecutiveFailures = 0;
  let tripped = false;
  let nextStart = 0;
  let done = 0;
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  const reportOutages = () => {
    for (const o of source.takeOutages?.() ?? []) ctx.main('error', scanText('sourceUnreachable', o.site, o.reason));
  };
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  try {
    await forEachConcurrent(
      ids,
      opts.metadataConcurrency,
      async (id) => {
        // rate limit: space the starts of requests (none are made once every site is given up)
        if (!source.unreachable?.()) {
          const wait = nextStart - Date.now();
          nextStart = Math.max(Date.now(), nextStart) + opts.metadataIntervalMs;
          if (wait > 0) await sleep(wait, stop.signal);
        }
        if (stop.signal.aborted) return;
        const row = await ctx.library.work(id);
        if (!row || row.missing) return;
        const code = row.code || formatWorkCode(id);
        const task = ctx.task(code, id);
        task.log('info', scanText('scraping'));
        let result;
        try {
          result = await source.fetch(id, ctx.signal);
        } catch (err) {
          result = { ok: false as const, notFound: false, error: (err as Error).message, warnings: [] };
        }
        reportOutages();
        if (ctx.aborted) {
          task.done('skipped');
          return;
        }
        for (const w of result.warnings) task.log('warn', w);
        if (result.ok) {
          consecutiveFailures = 0;
          try {
            task.log('info', mode === 'scan' ? scanText('scrapeOkAdd') : scanText('refreshOk'));
            await ctx.library.applyMetadata(id, result.metadata);
            task.log('info', mode === 'scan' ? scanText('scrapeSaved') : scanText('refreshSaved'));
          } catch (err) {
            const msg = scanText('metadataSaveFailed', (err as Error).message);
            ctx.metadataCounts.failed++;
            if (mode === 'refresh') {
              ctx.count(code, 'failed');
              task.failed(msg);
            } else {
              task.log('error', msg);
              task.done('skipped');
            }
            return;
          }
          ctx.metadataCounts.ok++;
          if (mode === 'refresh' || row.cover_source !== 'dlsite') await downloadCovers(ctx, task, id, code, result.metadata);
          if (mode === 'refresh') ctx.count(code, 'updated');
          task.done('updated');
        } else {
          // failures of given-up sites are counted, not a reason to stop: they cost no request
          if (!result.notFound && !source.unreachable?.()) consecutiveFailures++;
          // "not on DLsite" is an answer, not a failure: the work stays pending (retried in a week)
          if (!result.notFound) ctx.metadataCounts.failed++;
          const nextAt = result.notFound ? sqlNow(new Date(Date.now() + opts.notFoundRetryMs)) : null;
          if (row.metadata_status !== 'ok') await ctx.library.metadataFailed(id, { notFound: result.notFound, error: result.error, nextAt });
          else await ctx.library.refreshFailed(id, result.error);
          if (mode === 'refresh') {
            ctx.count(code, 'failed');
            task.failed(scanText('refreshError', result.error));
          } else if (result.notFound) {
            task.log('warn', scanText('scrapeNotFound'));
            task.done('skipped');
          } else {
            task.failed(scanText('scrapeFailedWith', result.error));
          }
          if (consecutiveFailures >= opts.metadataFailureLimit && !tripped) {
            tripped = true;
            ctx.main('warn', scanText('metadataOffline', consecutiveFailures));
            stop.abort();
          }
        }
        done++;
        ctx.progress(mode === 'scan' ? 'metadata' : 'refresh', done, ids.length);
      },
      stop.signal,
    );
  } finally {
    ctx.signal.removeEventListener('abort', onAbort);
  }
  if (mode === 'refresh' && tripped) ctx.counts.skipped += ids.length - done;
}

async function downloadCovers(ctx: RunContext, task: TaskHandle, id: number, code: string, _md: WorkMetadata): Promise<void> {
  const source = ctx.metadata;
  if (!source) return;
  task.log('info', scanText('coverDownload'));
  let saved = 0;
  let none = 0;
  for (const type of COVER_TYPES) {
    if (ctx.aborted) return;
    const file = coverFileName(id, type);
    try {
      const data = await source.fetchCover(id, type, ctx.signal);
      if (!data || !data.length) {
        none++;
        continue;
      }
      await saveCover(ctx.paths.coverDir, id, type, data);
      saved++;
      task.log('info', scanText('coverOk', file));
    } catch (err) {
      task.log('warn', scanText('coverError', file, (err as Error).message));
    }
  }
  if (saved > 0) await ctx.library.setCoverSource(id, 'dlsite');
  else if (none === COVER_TYPES.length) ctx.main('warn', scanText('noDlsiteCover', code));
}
