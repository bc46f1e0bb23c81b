import type { Logger } from 'pino';
import { ConfigStore } from '../config/config-store.js';
import { loadOrCreateSecret } from '../config/load.js';
import { prepareDataDir } from '../config/private-files.js';
import type { Config } from '../config/schema.js';
import { Database } from '../db/connection.js';
import { DataDirLock } from '../db/data-dir-lock.js';
import { UsersRepo } from '../db/repos/users-repo.js';
import { ReviewsRepo } from '../db/repos/reviews-repo.js';
import { HistoryRepo } from '../db/repos/history-repo.js';
import { UserDataService } from '../services/user-data-service.js';
import { TokenService } from '../auth/tokens.js';
import { RevokedTokensRepo } from '../db/repos/revoked-tokens-repo.js';
import { LoginLimiter } from '../auth/login-limiter.js';
import { UsersService } from '../services/users-service.js';
import { ConfigService } from '../services/config-service.js';
import { SystemService, packageVersion } from '../services/system-service.js';
import { LibraryRepo } from '../db/repos/library-repo.js';
import { ScanRepo } from '../db/repos/scan-repo.js';
import { ScanController, type ScanControllerDeps } from '../library/scan/scan-controller.js';
import { ScanFollower } from '../library/scan/scan-follower.js';
import { lockHolder } from '../library/scan/scan-lock.js';
import { createMetadataSource } from '../library/scrapers/metadata-source.js';
import { ScanService } from '../services/scan-service.js';
import { LibraryService } from '../services/library-service.js';
import { AiTasksRepo } from '../db/repos/ai-tasks-repo.js';
import { WorkerTokensRepo } from '../db/repos/worker-tokens-repo.js';
import { AiTasksService } from '../services/ai-tasks-service.js';
import { WorkerTokensService } from '../services/worker-tokens-service.js';
import { startAiLeaseJob } from '../jobs/ai-lease.js';
import { WorksQueryRepo } from '../db/repos/works-query-repo.js';
import { LabelsRepo } from '../db/repos/labels-repo.js';
import { FilesRepo } from '../db/repos/files-repo.js';
import { WorksService } from '../services/works/works-service.js';
import { MediaService } from '../services/media-service.js';
import { WorkZipService } from '../services/work-zip-service.js';
import { Thumbnails } from '../media/thumbnails.js';
import { EditRepo } from '../db/repos/edit-repo.js';
import { LyricsService } from '../services/lyrics-service.js';
import { EditService } from '../services/edit-service.js';
import { UserListsService } from '../services/user-lists-service.js';
import { FoldersService } from '../services/folders-service.js';
import { KikoeruImportService } from '../services/kikoeru-import/import-service.js';
import { SubsonicRepo } from '../db/repos/subsonic-repo.js';
import { SubsonicLibraryRepo } from '../db/repos/subsonic-library-repo.js';
import { SubsonicAuthService } from '../services/subsonic/subsonic-auth-service.js';
import { SubsonicLibraryService } from '../services/subsonic/subsonic-library-service.js';
import { SubsonicUserService } from '../services/subsonic/subsonic-user-service.js';
import { SubsonicLyricsService } from '../services/subsonic/subsonic-lyrics-service.js';
import { SecretBox } from '../auth/secret-box.js';
import { createLogger } from './logger.js';
import type { AppContext } from './services.js';

export interface CreateAppOptions {
  dataDir: string;
  /** Values from CLI flags; they win over env and the config file. */
  flags?: Partial<Config>;
  env?: NodeJS.ProcessEnv;
  logger?: Logger;
  /** Scanner wiring overrides (tests: a loopback metadata source, no rate limit). */
  scanner?: Pick<ScanControllerDeps, 'metadataSource' | 'options'>;
}

/** Composition root: config, logger, database, repositories and services of one process. */
export async function createAppContext(opts: CreateAppOptions): Promise<AppContext> {
  prepareDataDir(opts.dataDir);
  const store = new ConfigStore(opts.dataDir, opts.flags ?? {}, opts.env ?? process.env);
  const logger = opts.logger ?? createLogger();
  const paths = store.paths();
  // marks the data dir as in use for as long as this process has it open (a restore waits for none)
  const inUse = await DataDirLock.share(opts.dataDir);
  const db = await Database.open(paths.dbFile, { busyTimeoutMs: store.get().dbBusyTimeout }).catch(async (err: unknown) => {
    await inUse.release();
    throw err;
  });

  const repos = {
    library: new LibraryRepo(db),
    scans: new ScanRepo(db),
    users: new UsersRepo(db),
    reviews: new ReviewsRepo(db),
    history: new HistoryRepo(db),
    aiTasks: new AiTasksRepo(db),
    workerTokens: new WorkerTokensRepo(db),
    worksQuery: new WorksQueryRepo(db),
    labels: new LabelsRepo(db),
    files: new FilesRepo(db),
    edit: new EditRepo(db),
    subsonic: new SubsonicRepo(db),
    subsonicLibrary: new SubsonicLibraryRepo(db),
  };
  const tokens = new TokenService(loadOrCreateSecret(opts.dataDir), () => store.get().expiresIn);
  // logins and Subsonic password checks count against the same brake
  const loginLimiter = new LoginLimiter();
  const scanner = new ScanController({
    store,
    library: repos.library,
    scans: repos.scans,
    logger,
    metadataSource: (config) => createMetadataSource(config),
    ...opts.scanner,
  });
  // a run of this process (running, or the last one it ran) is never "followed": replaying it would
  // send the dashboard the same run twice
  const scanFollower = new ScanFollower(
    repos.scans,
    (runId) => scanner.running?.runId === runId || scanner.snapshot().runId === runId,
    async () => (await lockHolder(paths.lockFile)) !== null,
  );
  const services = {
    scan: new ScanService(scanner, scanFollower, repos.library, store),
    library: new LibraryService(repos.library, store),
    users: new UsersService(repos.users, new RevokedTokensRepo(db), tokens, loginLimiter),
    config: new ConfigService(store, paths.dbFile),
    system: new SystemService(store, packageVersion()),
    userData: new UserDataService(repos.reviews, repos.history),
    aiTasks: new AiTasksService(repos.aiTasks, () => store.get()),
    workerTokens: new WorkerTokensService(repos.workerTokens),
    works: new WorksService(repos.worksQuery, repos.labels, repos.files, store),
    media: new MediaService(repos.files, store, new Thumbnails(() => store.paths().thumbDir), () => repos.worksQuery.version()),
    workZips: new WorkZipService(repos.files, store),
  };
  // lyrics, admin corrections and the user's lists (they use services made above)
  const listsAndEdits = {
    lyrics: new LyricsService(repos.files, repos.aiTasks, repos.edit, store),
    edit: new EditService(repos.edit, repos.files, services.scan, store),
    userLists: new UserListsService(services.userData, services.works, store),
    folders: new FoldersService(store, repos.library),
    kikoeruImport: new KikoeruImportService(db, store),
    subsonicAuth: new SubsonicAuthService(repos.subsonic, repos.users, new SecretBox(opts.dataDir), loginLimiter),
    subsonic: new SubsonicLibraryService(repos.subsonicLibrary, services.works, store),
  };
  const subsonicUser = new SubsonicUserService(repos.subsonic, listsAndEdits.subsonic, services.userData, repos.users, store);
  const subsonicLyrics = new SubsonicLyricsService(listsAndEdits.lyrics, listsAndEdits.subsonic, repos.subsonicLibrary);
  const aiLeaseJob = startAiLeaseJob(services.aiTasks, logger);

  return {
    logger,
    store,
    db,
    repos,
    services: { ...services, ...listsAndEdits, subsonicUser, subsonicLyrics },
    async close() {
      aiLeaseJob.stop();
      scanFollower.stop();
      scanner.cancel();
      await scanner.idle();
      services.media.close();
      await db.close();
      await inUse.release();
    },
  };
}
