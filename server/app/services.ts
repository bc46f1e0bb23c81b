import type { Logger } from 'pino';
import type { Database } from '../db/connection.js';
import type { ConfigStore } from '../config/config-store.js';
import type { UsersService } from '../services/users-service.js';
import type { ConfigService } from '../services/config-service.js';
import type { SystemService } from '../services/system-service.js';
import type { UsersRepo } from '../db/repos/users-repo.js';
import type { ReviewsRepo } from '../db/repos/reviews-repo.js';
import type { HistoryRepo } from '../db/repos/history-repo.js';
import type { UserDataService } from '../services/user-data-service.js';

import type { LibraryRepo } from '../db/repos/library-repo.js';
import type { ScanRepo } from '../db/repos/scan-repo.js';
import type { ScanService } from '../services/scan-service.js';
import type { LibraryService } from '../services/library-service.js';
import type { AiTasksRepo } from '../db/repos/ai-tasks-repo.js';
import type { WorkerTokensRepo } from '../db/repos/worker-tokens-repo.js';
import type { AiTasksService } from '../services/ai-tasks-service.js';
import type { WorkerTokensService } from '../services/worker-tokens-service.js';

import type { WorksQueryRepo } from '../db/repos/works-query-repo.js';
import type { LabelsRepo } from '../db/repos/labels-repo.js';
import type { FilesRepo } from '../db/repos/files-repo.js';
import type { WorksService } from '../services/works/works-service.js';
import type { MediaService } from '../services/media-service.js';
import type { WorkZipService } from '../services/work-zip-service.js';
import type { EditRepo } from '../db/repos/edit-repo.js';
import type { LyricsService } from '../services/lyrics-service.js';
import type { EditService } from '../services/edit-service.js';
import type { UserListsService } from '../services/user-lists-service.js';
import type { FoldersService } from '../services/folders-service.js';
import type { KikoeruImportService } from '../services/kikoeru-import/import-service.js';
import type { SubsonicRepo } from '../db/repos/subsonic-repo.js';
import type { SubsonicLibraryRepo } from '../db/repos/subsonic-library-repo.js';
import type { SubsonicAuthService } from '../services/subsonic/subsonic-auth-service.js';
import type { SubsonicLibraryService } from '../services/subsonic/subsonic-library-service.js';
import type { SubsonicUserService } from '../services/subsonic/subsonic-user-service.js';
import type { SubsonicLyricsService } from '../services/subsonic/subsonic-lyrics-service.js';

/** Repositories: all SQL lives behind these. */
export interface Repos {
  library: LibraryRepo;
  scans: ScanRepo;
  users: UsersRepo;
  reviews: ReviewsRepo;
  history: HistoryRepo;
  aiTasks: AiTasksRepo;
  workerTokens: WorkerTokensRepo;
  worksQuery: WorksQueryRepo;
  labels: LabelsRepo;
  files: FilesRepo;
  edit: EditRepo;
  subsonic: SubsonicRepo;
  subsonicLibrary: SubsonicLibraryRepo;
}

/** What routes, the CLI and the TUI may use. Routes never touch `repos` or `db`. */
export interface Services {
  scan: ScanService;
  library: LibraryService;
  users: UsersService;
  config: ConfigService;
  system: SystemService;
  userData: UserDataService;
  aiTasks: AiTasksService;
  workerTokens: WorkerTokensService;
  works: WorksService;
  media: MediaService;
  workZips: WorkZipService;
  lyrics: LyricsService;
  edit: EditService;
  userLists: UserListsService;
  folders: FoldersService;
  kikoeruImport: KikoeruImportService;
  /** Subsonic API keys and passwords, and the check of /rest credentials. */
  subsonicAuth: SubsonicAuthService;
  /** The library as the Subsonic API shows it. */
  subsonic: SubsonicLibraryService;
  /** Stars, ratings, scrobbles and the play queue of the Subsonic API. */
  subsonicUser: SubsonicUserService;
  /** Lyrics for native apps, through the lyric service. */
  subsonicLyrics: SubsonicLyricsService;
}

export interface AppContext {
  logger: Logger;
  store: ConfigStore;
  db: Database;
  repos: Repos;
  services: Services;
  close(): Promise<void>;
}
