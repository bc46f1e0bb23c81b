/**
 * Purge missing works (`kikoplay scan --purge-missing`): the only path that deletes works, with
 * their reviews, play history, AI lyrics, files and covers. Explicit by design.
 */
import { removeCovers } from '../../media/covers.js';
import { scanText } from '../scan/scan-messages.js';
import type { RunContext } from '../scan/run-context.js';

export async function runPurge(ctx: RunContext): Promise<number> {
  const ids = await ctx.library.missingWorkIds();
  ctx.main('info', scanText('purgeStart', ids.length));
  const n = ids.length ? await ctx.library.purgeMissing(ids) : 0;
  for (const id of ids) await removeCovers(ctx.paths.coverDir, id);
  ctx.main('info', scanText('purgeDone', n));
  return n;
}
