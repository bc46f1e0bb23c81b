import { mkdirSync } from 'node:fs';
import type { Logger } from 'pino';
import { ConfigStore } from '../config/config-store.js';
import { loadOrCreateSecret } from '../config/load.js';
import type { Config } from '../config/schema.js';
import { Database } from '../db/connection.js';
import { UsersRepo } from '../db/repos/users-repo.js';
import { ReviewsRepo } from '../db/repos/reviews-repo.js';
import { HistoryRepo } from '../db/repos/history-repo.js';
import { UserDataService } from '../services/user-data-service.js';
import { TokenService } from '../auth/tokens.js';
import { LoginLimiter } from '../auth/login-limiter.js';
import { UsersService } from '../services/users-service.js';
import { ConfigService } from '../services/config-service.js';
import { SystemService, packageVersion } from '../services/system-service.js';
import { createLogger } from './logger.js';
import type { AppContext } from './services.js';

export interface CreateAppOptions {
  dataDir: string;
  /** Values from CLI flags; they win over env and the config file. */
  flags?: Partial<Config>;
  env?: NodeJS.ProcessEnv;
  logger?: Logger;
}

/** Composition root: config, logger, database, repositories and services of one process. */
export async function createAppContext(opts: CreateAppOptions): Promise<AppContext> {
  const store = new ConfigStore(opts.dataDir, opts.flags ?? {}, opts.env ?? process.env);
  const logger = opts.logger ?? createLogger();
  mkdirSync(opts.dataDir, { recursive: true });
  const paths = store.paths();
  const db = await Database.open(paths.dbFile, { busyTimeoutMs: store.get().dbBusyTimeout });

  const repos = { users: new UsersRepo(db), reviews: new ReviewsRepo(db), history: new HistoryRepo(db) };
  const tokens = new TokenService(loadOrCreateSecret(opts.dataDir), () => store.get().expiresIn);
  const services = {
    users: new UsersService(repos.users, tokens, new LoginLimiter()),
    config: new ConfigService(store),
    system: new SystemService(store, packageVersion()),
    userData: new UserDataService(repos.reviews, repos.history),
  };

  return {
    logger,
    store,
    db,
    repos,
    services,
    async close() {
      await db.close();
    },
  };
}
