import type { Command } from 'commander';
import { resolveDataDir } from '../server/config/load.js';
import { fileInPath } from '../server/config/ensure-dir.js';
import { DataDirError } from '../server/config/private-files.js';
import { envLogLevel } from '../server/app/log-format.js';
import type { AppContext } from '../server/app/services.js';
import type { Actor } from '../server/auth/roles.js';
import type { Config } from '../server/config/schema.js';

/** The global --data-dir of the root program, as given (`doctor` and `config path` report on any path). */
export function dataDirPathOf(cmd: Command): string {
  let root: Command = cmd;
  while (root.parent) root = root.parent;
  return resolveDataDir(root.opts<{ dataDir?: string }>().dataDir);
}

/**
 * The data dir a command works in. A path that runs through a regular file (`afile/sub`) can never be a
 * folder: refused at once with the file named (DataDirError, said by cli/i18n `startupErrorText`), rather
 * than as ENOTDIR from whichever file the command reads first.
 */
export function dataDirOf(cmd: Command): string {
  const dir = dataDirPathOf(cmd);
  const file = fileInPath(dir);
  if (file) throw new DataDirError(file, 'ENOTDIR');
  return dir;
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
