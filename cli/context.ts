import type { Command } from 'commander';
import { resolveDataDir } from '../server/config/load.js';
import { envLogLevel } from '../server/app/log-format.js';
import type { AppContext } from '../server/app/services.js';
import type { Actor } from '../server/auth/roles.js';
import type { Config } from '../server/config/schema.js';

/** The global --data-dir of the root program. */
export function dataDirOf(cmd: Command): string {
  let root: Command = cmd;
  while (root.parent) root = root.parent;
  return resolveDataDir(root.opts<{ dataDir?: string }>().dataDir);
}

/** The terminal is trusted like the admin: whoever can read the data dir owns the library. */
export const CLI_ACTOR: Actor = { id: 0, name: '(terminal)', role: 'admin' };

/** Open the app's services for a one-shot command, run `fn`, close. */
export async function withApp<T>(cmd: Command, fn: (app: AppContext) => Promise<T>, flags: Partial<Config> = {}): Promise<T> {
  // imported on use: the app pulls in sharp, music-metadata, sqlite… which light commands don't need
  const { createAppContext } = await import('../server/app/create-app.js');
  const { createLogger } = await import('../server/app/logger.js');
  const app = await createAppContext({ dataDir: dataDirOf(cmd), flags, logger: createLogger({ level: envLogLevel('warn'), hideScanEvents: true }) });
  try {
    return await fn(app);
  } finally {
    await app.close();
  }
}
