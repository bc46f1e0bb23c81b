/** "Refresh library info" (server/library/README.md#jobs): fetch metadata of every present work again. */
import { scanText } from '../scan/scan-messages.js';
import type { RunContext } from '../scan/run-context.js';
import { enrichWorks } from './enrich.js';

export async function runRefresh(ctx: RunContext): Promise<void> {
  const works = await ctx.library.presentWorks();
  ctx.main('info', scanText('refreshStart', works.length));
  if (!ctx.metadata) {
    ctx.main('warn', scanText('metadataSkipped'));
    return;
  }
  ctx.progress('refresh', 0, works.length, true);
  await enrichWorks(
    ctx,
    works.map((w) => w.id),
    'refresh',
  );
  ctx.main('info', scanText('refreshDone', ctx.counts.updated, ctx.counts.failed));
}
