/**
 * The terminal's English catalogue: help, messages, errors, summaries, the scan view and the user
 * manager. Its shape (`CliCatalog`) is the one every language fills in (cli/i18n/ja.ts, zh-CN.ts).
 */
import { scanMessages } from '../../server/contract/scan-text/en.js';
import type { CliLang } from './lang.js';
import type { PathSettingRule } from '../../server/config/path-settings.js';
import { WORKER_TEXT } from '../../server/worker/messages.js';
import type { FindingKey, FindingParams } from '../../server/services/doctor/index.js';

/** A sentence per doctor finding, saying what was found and what to do (every language fills it in). */
export type DoctorFindingText = { [K in FindingKey]: (p: FindingParams[K]) => string };

/** A system error code (EACCES, EROFS …) in words. */
const fsReason = (code: string) =>
  ({ EACCES: 'permission denied', EPERM: 'not permitted', EROFS: 'read-only file system', ENOTDIR: 'a part of the path is a file, not a folder', ENOENT: 'does not exist', ENOSPC: 'no space left' })[
    code
  ] ?? code;

const doctorFindings: DoctorFindingText = {
  configOk: ({ file }) => `${file} is valid`,
  configDefaults: ({ file }) => `no ${file} yet: the defaults apply (kikoplay config set KEY VALUE writes one)`,
  configInvalid: ({ reason }) => `${reason}. The server will not start: fix it with kikoplay config set / unset (kikoplay config reset when it is not JSON), or in the file`,
  dataDirOk: ({ path, mode }) => `${path} is readable, writable and private (${mode})`,
  dataDirMissing: ({ path }) => `${path} does not exist yet: kikoplay serve creates it (check --data-dir / KIKOPLAY_DATA_DIR if you expected an existing one)`,
  dataDirUnderFile: ({ path, file }) => `${path} cannot be used: ${file} is a file, not a folder. Move that file away, or choose another data dir with --data-dir`,
  dbFolderNotFolder: ({ file, folder }) =>
    `${file} cannot be used: ${folder} is a file, not a folder. Set databaseFolderDir to a folder (kikoplay config set databaseFolderDir /path), or go back to the data dir (kikoplay config set dbUseDefaultPath true)`,
  dataDirNotFolder: ({ path }) => `${path} is not a folder: move that file away, or choose another data dir with --data-dir`,
  dataDirNoAccess: ({ path, code }) => `${path} cannot be read and written by this user (${fsReason(code)}): run kikoplay as its owner, or change the owner (chown -R USER ${path})`,
  dataDirOpen: ({ path, mode }) => `${path} can be read by other users (${mode}): chmod 700 ${path} (kikoplay serve also tightens it on start)`,
  secretFileOpen: ({ file, mode }) => `${file} can be read by other users (${mode}): chmod 600 ${file}`,
  fileNoAccess: ({ file, code }) => `${file} cannot be read and written by this user (${fsReason(code)}): change its owner (chown USER ${file})`,
  diskOk: ({ path, free }) => `${free} free on the file system of ${path}`,
  diskLow: ({ path, free, min }) => `only ${free} free on the file system of ${path} (less than ${min}): free some space; the database, covers and thumbnails grow there`,
  diskFull: ({ path, free }) => `only ${free} free on the file system of ${path}: the database cannot be written when it fills up; free space now`,
  dbMissing: ({ file }) => `no database at ${file} yet: kikoplay serve (or scan) creates it`,
  dbOk: ({ file }) => `${file} passed the integrity check`,
  dbDamaged: ({ file, detail }) => `${file} is damaged (${detail}): stop the server and restore a backup`,
  dbUnreadable: ({ file, detail }) => `${file} cannot be read (${detail}): check its owner and mode`,
  migrationsOk: ({ level }) => `the database schema is current (migration ${level})`,
  migrationsPending: ({ applied, latest, count }) => `the database is at migration ${applied}, this kikoplay at ${latest}: ${count} migration(s) run on the next start (take a backup first)`,
  migrationsNewer: ({ latest, migrations }) =>
    `the database was written by a newer kikoplay (migrations ${migrations} are unknown here; this version knows up to ${latest}): this version refuses to open it; run the newer kikoplay, or restore a backup made with this version`,
  sqliteOk: ({ version }) => `SQLite ${version} with full-text search (FTS5, trigram tokenizer)`,
  sqliteNoTrigram: ({ version, reason }) => `SQLite ${version} cannot build the search index (FTS5 trigram: ${reason}): reinstall kikoplay's dependencies (npm ci) so its bundled SQLite is used`,
  ffprobeOk: ({ path, version }) => `${version} (${path})`,
  ffprobeBroken: ({ path, reason }) => `ffprobe at ${path} does not run (${reason}): reinstall kikoplay's dependencies (npm ci); some audio formats and the AI worker need it`,
  rootsNone: () => `no library folders yet: add one in the web settings, or with kikoplay config set rootFolders '[{"name":"lib","path":"/music"}]'`,
  rootOk: ({ name, path, works }) => `"${name}" ${path}: readable, ${works} work(s) in the database`,
  rootReadOnly: ({ name, path, works }) => `"${name}" ${path}: readable, read-only, ${works} work(s) in the database (scanning and playing work; lyrics cannot be saved into it)`,
  rootMissing: ({ name, path, works }) => `"${name}" ${path} does not exist (${works} work(s) in the database): mount it, or fix its path in the settings`,
  rootUnreadable: ({ name, path, code }) => `"${name}" ${path} cannot be read (${fsReason(code)}): give the user running kikoplay read access (e.g. chmod -R a+rX ${path})`,
  portFree: ({ port, host }) => `port ${port} is free on ${host}`,
  portOurs: ({ port, pid, since }) => `port ${port} is used by the kikoplay server of this data dir (pid ${pid}, running since ${since})`,
  portOther: ({ port, host }) => `port ${port} on ${host} is in use by another program: stop it, or choose another port (kikoplay config set listenPort N, or serve --port N)`,
  portNoPermission: ({ port }) => `port ${port} needs administrator rights here: use a port above 1023 (kikoplay config set listenPort 8888) and a reverse proxy for 80/443`,
};

const WORKER_HELP = `
How it works:
  The worker takes the oldest pending task from the server's AI lyric queue, downloads the audio,
  transcribes it with an OpenAI-compatible /v1/audio/transcriptions service (OpenAI, whisper.cpp
  server, faster-whisper servers, LocalAI), reports progress (shown in the AI lyric centre), and sends
  the lyrics back as LRC: one "[MM:SS.CC] text" line per segment. With --translate-to each line is
  followed by its translation under the same timestamp (an OpenAI-compatible /v1/chat/completions).

Long audio:
  A file within --max-upload-mb and --max-chunk-minutes is uploaded as it is. A larger or longer file
  is decoded with the bundled ffprobe (no ffmpeg needed) to 16 kHz mono, cut in its quietest moments
  into chunks within both limits, and uploaded as WAV chunks (16 kHz mono WAV is 1.9 MB per minute, so
  the default 24 MB allows about 13 minutes per chunk). Timestamps are shifted back to the whole track.
  Any format ffprobe can decode works (mp3, m4a, flac, ogg, opus, wav, webm, mp4 …).
  --wav always sends 16 kHz WAV (for services that only read WAV, e.g. whisper.cpp without --convert).

Credentials:
  --token takes a worker token from "kikoplay worker-token create NAME" (env KIKOPLAY_WORKER_TOKEN);
  it reaches only the worker endpoints. Or log in as a user (not a guest) with --user/--password
  (env KIKOPLAY_WORKER_PASSWORD); the worker logs in again by itself when its login expires.
  The transcription API key may come from env OPENAI_API_KEY, the API base from OPENAI_BASE_URL.

Robustness:
  The task in progress is saved in --state-dir and resumed after a restart (finished chunks are not
  transcribed again). Network errors are retried with backoff (1 s doubling to 1 min). Ctrl-C stops
  at once and finishes nothing: the task is resumed by the next start, or goes back to the queue when
  the server's lease (aiTaskLeaseMinutes) runs out. A heartbeat every --heartbeat seconds keeps the
  lease while a long request runs.

Examples:
  kikoplay worker --server http://nas:8888 --token kpw_... --api-key sk-... --language ja
  kikoplay worker --server http://nas:8888 --user worker1 --password *** \\
      --api-base http://127.0.0.1:8080 --model large-v3 --translate-to zh \\
      --translate-api-base http://127.0.0.1:11434 --translate-model qwen2.5 --glossary terms.txt
`;

export const en = {
  /** The language this catalogue speaks (the API error sentences are looked up by it). */
  lang: 'en' as CliLang,
  /** Commander's own words. */
  commander: {
    usage: 'Usage:',
    options: 'Options:',
    commands: 'Commands:',
    arguments: 'Arguments:',
    globalOptions: 'Global Options:',
    optionsWord: '[options]',
    commandWord: '[command]',
    defaultWord: 'default:',
    help: 'display help for command',
    version: 'output the version number',
    afterError: '(run with --help for usage)',
    error: 'error:',
    unknownCommand: (name: string) => `unknown command '${name}'`,
    unknownOption: (flag: string) => `unknown option '${flag}'`,
    missingArgument: (name: string) => `missing required argument '${name}'`,
    optionMissingArgument: (flags: string) => `option '${flags}' argument missing`,
    requiredOption: (flags: string) => `required option '${flags}' not specified`,
    tooManyArguments: (expected: number, got: number) => `too many arguments. Expected ${expected} argument${expected === 1 ? '' : 's'} but got ${got}.`,
    didYouMean: (word: string) => `(Did you mean ${word}?)`,
  },
  help: {
    program: 'Self-hosted library server and web player for voice and drama audio works',
    dataDir: 'data directory (env KIKOPLAY_DATA_DIR, default ~/.kikoplay)',
    lang: 'language of the terminal: en, ja or zh-CN (env KIKOPLAY_LANG, then LC_ALL / LC_MESSAGES / LANG)',
    logFormat: 'log lines: pretty (one readable line each) or json (env KIKOPLAY_LOG_FORMAT; default pretty on a terminal, json otherwise)',
    serve: {
      description: 'run the kikoplay server (API, web app, scheduled scans)',
      port: 'port to listen on (default 8888, env PORT)',
      host: 'address to bind (default all interfaces; 127.0.0.1 when blockRemoteConnection is on)',
      noAuth: 'turn authentication off: every visitor acts as the admin',
    },
    scan: {
      description: 'scan the library folders for works (TUI on a terminal, plain lines or --json otherwise); exit 0 all fine, 1 some works failed, 2 fatal',
      json: 'print one JSON event per line',
      full: 'rescan every work even when unchanged',
      files: 'rescan files (durations, lyric flags) of every work',
      refreshMetadata: 'fetch metadata of every work again (with --work: of that work)',
      work: 'scan one work, e.g. RJ123456',
      offline: 'index local files only; do not fetch metadata',
      purgeMissing: 'delete works whose folders are missing, with their reviews, history and AI lyrics',
    },
    user: {
      description: 'manage user accounts (without a subcommand on a terminal: an interactive manager)',
      list: 'list users and their roles',
      json: 'print JSON',
      add: 'create a user',
      addPassword: 'password (prompted on a terminal when omitted)',
      addRole: (roles: string) => `one of ${roles}`,
      passwd: "change a user's password (their existing logins stop working)",
      passwdPassword: 'new password (prompted on a terminal when omitted)',
      role: (roles: string) => `change a user's role (${roles})`,
      delete: 'delete users with their reviews and play history',
      apiKey: 'API keys of the Subsonic API (/rest) for native music apps',
      apiKeyCreate: 'make an API key for a user; printed once, only its hash is kept',
      apiKeyLabel: 'a name for the key (e.g. the app or device); default cli-<time>',
      apiKeyList: "list a user's API keys",
      apiKeyRevoke: "revoke a user's API key by its name",
      subsonicPassword: "set a user's Subsonic password (for apps without API keys; not the login password)",
      subsonicPasswordValue: 'the Subsonic password, at least 8 characters (prompted on a terminal when omitted)',
      subsonicPasswordClear: 'remove the Subsonic password (only API keys work then)',
    },
    config: {
      description: 'read and change the configuration (<data-dir>/config.json)',
      get: 'print the effective value of a key, or every key as JSON',
      set: 'set a key; VALUE is parsed as JSON when it parses (e.g. 20, true, \'[{"name":"lib","path":"/srv"}]\')',
      unset: 'remove a key from config.json so its default applies (also a key this version does not know)',
      reset: 'move config.json aside (config.json.bak-<time>) so every default applies; the way out of a file that is not JSON',
      validate: 'check config.json and the KIKOPLAY_* environment; exit 1 when invalid',
      path: 'print the path of config.json',
    },
    demo: {
      description: 'write a small playable demo library into the data dir, register it as a root folder and scan it',
      noScan: 'only write and register the library',
    },
    workerToken: {
      description: 'manage tokens for AI transcription workers (they reach only the worker endpoints)',
      create: 'create a worker token and print it once (only its hash is stored)',
      list: 'list worker tokens (names, creation, last use; never the tokens)',
      revoke: 'revoke a worker token at once (a running server stops accepting it immediately)',
      json: 'print JSON',
    },
    worker: {
      description: 'run an AI lyric transcription worker against a kikoplay server',
      server: 'kikoplay server URL, e.g. http://192.168.1.10:8888',
      token: 'worker token (env KIKOPLAY_WORKER_TOKEN)',
      user: 'log in as this user instead of a token',
      password: 'password for --user (env KIKOPLAY_WORKER_PASSWORD)',
      name: 'worker name shown in the AI lyric centre (default: host name)',
      engine: 'transcription engine: openai',
      apiBase: 'OpenAI-compatible service (env OPENAI_BASE_URL, default https://api.openai.com)',
      apiKey: 'API key of the service (env OPENAI_API_KEY)',
      model: 'transcription model',
      language: 'language of the speech (ISO 639-1; "" = detect)',
      prompt: 'prompt for the transcription (names, style)',
      translateTo: 'also translate each line into this language (e.g. zh) for bilingual LRC',
      translateApiBase: 'OpenAI-compatible chat service for translation (default: --api-base)',
      translateApiKey: 'API key for translation (default: --api-key)',
      translateModel: 'chat model for translation',
      glossary: 'glossary for translation: one "term=translation" per line',
      stateDir: 'where the task in progress, its audio and the login are kept (default ~/.kikoplay-worker)',
      poll: 'wait between checks of an empty queue',
      once: 'handle at most one task (none when the queue is empty), then exit',
      maxUploadMb: 'largest upload the transcription service accepts',
      maxChunkMinutes: 'longest audio per request',
      wav: 'always upload 16 kHz mono WAV',
      heartbeat: 'progress/lease heartbeat while a request runs',
      quiet: 'log only warnings and errors',
      after: WORKER_HELP,
    },
  },
  /** Errors of the terminal itself. */
  errors: {
    unknownLang: (value: string, langs: string, from: string = '--lang') => `unknown language "${value}" for ${from} (use ${langs})`,
    unknownConfigKey: (key: string) => `unknown config key "${key}" (see \`kikoplay config get\` for the list)`,
    configUnchanged: (why: string) => `${why} (config.json unchanged)`,
    configResetHint: 'Fix it in an editor, or run kikoplay config reset to move it aside and start from the defaults',
    folderRefused: (at: string, value: string, why: string) => `${at} "${value}": ${why}`,
    badPort: (value: string) => `--port must be a port number (0-65535), got "${value}"`,
    portInUse: (port: number, host: string) => `port ${port} is already in use on ${host}; choose another with --port N (or the PORT environment variable)`,
    badLogFormat: (value: string, from: string = '--log-format') => `unknown log format "${value}" for ${from} (use pretty or json)`,
    badLogLevel: (value: string, from: string) => `unknown log level "${value}" for ${from} (use trace, debug, info, warn, error, fatal or silent)`,
    noAuthInProduction: '--no-auth is not allowed when production is on',
    passwordRequired: '--password is required when not on a terminal',
    passwordMismatch: 'The passwords do not match',
    cancelled: 'cancelled',
    flagsConflict: (flags: string) => `these options cannot be combined: ${flags}`,
    badWorkCode: (value: string) => `--work needs a work code like RJ123456, BJ123456 or VJ12345678, got "${value}"`,
    refreshOffline: '--refresh-metadata cannot run --offline',
    outputClosed: 'Output closed; the scan was stopped',
    scanCancelled: 'Scan cancelled',
    rootsStopped: (roots: string) => `Root folders could not be scanned: ${roots}`,
    worksFailed: (n: number) => `${n} work(s) failed`,
    metadataFailed: (n: number) => `metadata could not be fetched for ${n} work(s)`,
    demoAliasTaken: (alias: string, where: string) => `a root folder named "${alias}" already points at ${where}; remove it first (kikoplay config set rootFolders ...)`,
    demoFolderRefused: (dir: string, why: string) => `the demo library ${dir} cannot be added as a root folder: ${why}`,
    apiKeyLabelEmpty: 'the API key label is empty: give --label a name (e.g. the app or device), or leave it out for cli-<time>',
    hostNotFound: (host: string) =>
      `cannot listen on ${host}: no such address or host name; give an address of this machine with --host (127.0.0.1 for this machine only, 0.0.0.0 for all interfaces), or leave --host out`,
    hostLookupFailed: (host: string) =>
      `cannot listen on ${host}: the name could not be looked up (the name service did not answer); give an IP address with --host (127.0.0.1 for this machine only, 0.0.0.0 for all interfaces)`,
    hostNotLocal: (host: string) =>
      `cannot listen on ${host}: it is not an address of this machine; give one of its addresses with --host (127.0.0.1 for this machine only, 0.0.0.0 for all interfaces), or leave --host out`,
    hostUnusable: (host: string) => `cannot listen on ${host}: not a usable address here (an IPv6 link-local address needs its zone, e.g. fe80::1%eth0); give another with --host, or leave --host out`,
  },
  /**
   * config.json and the KIKOPLAY_* environment refused (server/config/load.ts `ConfigProblem`); the
   * errors of the services are said from the API error catalogue (server/contract/error-text).
   */
  configFile: {
    configInvalidIn: (file: string, why: string) => `invalid config in ${file}: ${why}`,
    configInvalid: (why: string) => `invalid config: ${why}`,
    envInvalid: (why: string) => `invalid environment override: ${why}`,
    notJson: (file: string, why: string) => `${file} is not valid JSON: ${why}`,
    notObject: (file: string) => `${file} must hold a JSON object`,
    unreadable: (file: string, code: string) => `cannot read ${file} (${fsReason(code)}): run kikoplay as the owner of the data dir, or give this user access to it`,
    unwritable: (file: string, code: string) => `cannot write ${file} (${fsReason(code)}): run kikoplay as the owner of the data dir, or give this user access to it`,
    pathSetting: (setting: string, p: string, rule: PathSettingRule) =>
      rule === 'notFolder'
        ? `${setting}: ${p} is a file, not a folder`
        : `${setting}: false needs databaseFolderDir set to an absolute folder first (kikoplay config set databaseFolderDir /path); move kikoplay.db there before the next start`,
  },
  /** `kikoplay backup` and `kikoplay restore` (server/services/backup; its refusals: `BackupProblem`). */
  backup: {
    help: {
      backup: 'write a backup of the data dir (database, config.json, signing key; covers with --covers) into one file; works while the server runs',
      backupFile: 'where to write it (default ./kikoplay-backup-<UTC time>.tar.gz)',
      covers: 'include the cover folder',
      restore: 'fill an empty or stopped data dir from a backup; refused while kikoplay uses the data dir',
      restoreFile: 'the backup file',
      force: 'replace the database, config and key the data dir already holds (they are kept in <data-dir>/replaced-<time>/)',
      json: 'print JSON',
    },
    written: (file: string, size: string) => `backup written: ${file} (${size})`,
    private: 'It holds your config and the key that signs logins: keep it private (file mode 0600).',
    restored: (file: string, dataDir: string) => `restored ${file} into ${dataDir}`,
    taken: (createdAt: string, version: string, level: number, covers: number) => `backup of ${createdAt} by kikoplay ${version} (migration level ${level}, ${covers} cover file(s))`,
    replaced: (dir: string) => `the files it replaced are kept in ${dir}`,
    errors: {
      noDatabase: (file: string) => `there is no database to back up at ${file}`,
      targetExists: (file: string) => `${file} already exists; choose another file name`,
      notBackup: (file: string, detail: string) => `${file} is not a kikoplay backup (${detail}); nothing was changed`,
      truncated: (file: string) => `${file} is incomplete (truncated); nothing was changed`,
      damaged: (file: string, detail: string) => `${file} is damaged (${detail}); nothing was changed`,
      newerFormat: (file: string, version: number) => `${file} was written in backup format ${version} by a newer kikoplay; update kikoplay to restore it`,
      newerMigration: (file: string, level: number, known: number) => `${file} holds a database of migration level ${level}, newer than this kikoplay knows (${known}); update kikoplay to restore it`,
      inUse: (dataDir: string) => `the data dir ${dataDir} is in use by a running kikoplay (server, scan or another command); stop it first`,
      scanRunning: (dataDir: string, pid: number) => `a scan is running on the data dir ${dataDir} (pid ${pid}); wait for it or stop it first`,
      notEmpty: (dataDir: string, found: string) => `the data dir ${dataDir} already holds ${found}; restore into an empty data dir, or add --force to replace them (they are kept aside)`,
      integrity: (detail: string) => `the database in the backup fails the integrity check (${detail}); nothing was changed`,
      badConfig: (detail: string) => `the config.json in the backup is not valid for this kikoplay (${detail}); nothing was changed`,
      notDirectory: (p: string) => `${p} is not a folder`,
    },
  },
  /** The AI worker's log lines and the errors that stop it: the worker's own English (server/worker/messages.ts). */
  worker: WORKER_TEXT,
  messages: {
    promptPassword: 'password',
    promptNewPassword: 'new password',
    promptRepeat: 'repeat',
    userCreated: (role: string, name: string) => `created ${role} ${name}`,
    passwordChanged: (name: string) => `password of ${name} changed`,
    roleChanged: (name: string, role: string) => `${name} is now ${role}`,
    usersDeleted: (n: number) => `deleted ${n} user(s)`,
    apiKeyCreated: (user: string, label: string) => `API key "${label}" for ${user} (shown only now; keep it like a password):`,
    apiKeyRevoked: (user: string, label: string) => `API key "${label}" of ${user} revoked`,
    subsonicPasswordSet: (user: string) => `Subsonic password of ${user} set`,
    subsonicPasswordCleared: (user: string) => `Subsonic password of ${user} removed`,
    configReset: (key: string) => `${key} reset to its default`,
    configKeyRemoved: (key: string) => `${key} removed from config.json`,
    configStillInvalid: (why: string) => `warning: config.json is still invalid: ${why} (fix it with kikoplay config set / unset)`,
    configMovedAside: (bak: string) => `config.json moved to ${bak}; the defaults apply`,
    configNothingToReset: 'no config.json: the defaults apply already',
    folderMissing: (at: string, dir: string) => `warning: ${at}: ${dir} does not exist (yet); saved anyway, scans cannot read it until it is there`,
    configOk: (file: string) => `${file}: ok`,
    demoWritten: (n: number, dir: string, alias: string) => `demo library: ${n} works in ${dir} (root folder "${alias}")`,
    workMemo: (code: string, files: number, seconds: string, lyric: boolean) => `${code}: ${files} audio file(s), ${seconds} s in total, lyrics: ${lyric ? 'yes' : 'no'}`,
    listening: (url: string, dataDir: string, auth: boolean) => `kikoplay listening on ${url} (data dir ${dataDir}, auth ${auth ? 'on' : 'off'})`,
    reachableAt: 'reachable at:',
    firstStart: {
      title: 'kikoplay: first start',
      user: 'admin user:    ',
      password: 'admin password:',
      saved: (file: string) => `(also written to ${file}; change it after logging in)`,
    },
    noAuthWarning: {
      title: 'WARNING: authentication is OFF',
      where: (where: string) => `kikoplay listens on ${where} with auth off:`,
      address: (host: string) => `address ${host}`,
      allInterfaces: 'all network interfaces',
      lines: [
        'ANYONE who can reach this port acts as the ADMIN — they can read',
        'your library, change settings, add folders and delete users.',
        'Use --host 127.0.0.1 (or blockRemoteConnection), or turn auth on.',
      ],
    },
    workerTokenCreated: (name: string) => `worker token "${name}" created. It is shown only this once: store it now.`,
    workerTokenUse: 'use it with: kikoplay worker --server URL --token <token>   (or env KIKOPLAY_WORKER_TOKEN)',
    workerTokenRevoked: (name: string) => `worker token "${name}" revoked`,
    noWorkerTokens: 'no worker tokens',
    workerStopping: (signal: string) => `${signal}: stopping (press Ctrl-C again to quit at once); the task in progress is kept for the next start`,
    workerStopped: (done: number, failed: number, lost: number, bySignal: boolean) => `worker stopped: ${done} done, ${failed} failed, ${lost} taken back${bySignal ? ' (stopped by signal)' : ''}`,
  },
  table: {
    name: 'NAME',
    role: 'ROLE',
    created: 'CREATED',
    status: 'STATUS',
    lastUsed: 'LAST USED',
    revoked: 'revoked',
    active: 'active',
    never: 'never',
  },
  scan: {
    kinds: { scan: 'library scan', refresh: 'metadata refresh', files: 'file rescan', work: 'one work', purge: 'purge missing works' },
    phases: {
      discover: 'finding folders',
      local: 'scanning local files',
      metadata: 'fetching metadata',
      cleanup: 'cleaning up',
      refresh: 'refreshing metadata',
      files: 'scanning work files',
      purge: 'purging missing works',
    },
    cancelling: 'cancelling...',
    added: 'added',
    updated: 'updated',
    failed: 'failed',
    skipped: 'skipped',
    count: (label: string, n: number) => `${label} ${n}`,
    inProgress: 'In progress',
    failedList: (n: number) => `Failed (${n})`,
    log: 'Log',
    cancelHint: 'Press q or Ctrl-C to cancel the scan',
    started: (kind: string, runId: number, pid: number) => `scan started (${kind}, run ${runId}, pid ${pid})`,
    progress: (phase: string, done: number, total: number) => `progress ${phase}: ${done}/${total}`,
    messages: scanMessages,
  },
  /** `kikoplay import kikoeru`: help, progress, the summary and the refusals. */
  importKikoeru: {
    description: 'bring data in from another server',
    kikoeru: {
      description:
        'import a kikoeru 0.6.7 installation: users (old passwords keep working), works metadata, root folders, covers, reviews, play history, AI lyrics; its files are only read; running it again changes nothing but what is new; exit 0 done, 2 refused',
      db: "kikoeru's database file (db.sqlite3)",
      config: "kikoeru's config.json (default: config/config.json beside the database's folder); its md5secret makes old passwords work",
      lyrics: "kikoeru's lyric folder with <task id>.lrc (default: lyricFolderDir of its config)",
      covers: "kikoeru's cover folder: copy the covers of the imported works",
      dryRun: 'show what would be imported; change nothing',
      json: 'print one JSON object per line: progress events, then the summary',
    },
    phases: {
      check: 'Checking the kikoeru database',
      roots: 'Root folders',
      users: 'Users',
      works: 'Works',
      reviews: 'Reviews',
      history: 'Play history',
      tasks: 'AI lyric tasks',
      covers: 'Covers',
    } as Record<string, string>,
    progress: (phase: string, done: number, total: number) => `${phase}: ${done}/${total}`,
    title: 'kikoplay · import from kikoeru',
    refused: {
      unreadable: (file: string) => `cannot read ${file}`,
      notAFile: 'it is not a file',
      'not-sqlite': (file: string) => `${file} is not a SQLite database, so not a kikoeru one; nothing was changed`,
      'not-kikoeru': (file: string, missing: string) => `${file} is not a kikoeru database (no ${missing} table); nothing was changed`,
      'old-schema': (migrations: number, last: string, expected: number, key: string) =>
        `this kikoeru database is on an older schema (${migrations} migrations, the last is ${last || 'none'}); kikoplay imports the kikoeru 0.6.7 schema (${expected} migrations, ${key} included). Let kikoeru finish its upgrade to 0.6.7 first. Nothing was changed.`,
      'newer-schema': (migrations: number, last: string, expected: number) =>
        `this kikoeru database is on a newer schema than 0.6.7 (${migrations} migrations, the last is ${last}); kikoplay imports the 0.6.7 schema (${expected} migrations). Nothing was changed.`,
      'missing-columns': (missing: string) => `the kikoeru database lacks tables or columns the import reads: ${missing}. Nothing was changed.`,
      'bad-config': (file: string) => `cannot read kikoeru's config ${file} (is it kikoeru's config.json?); nothing was changed`,
      'scan-busy': (pid: number, kind: string) => `a scan is running (pid ${pid}, ${kind}); import when it has finished. Nothing was changed.`,
      'bad-folder': (flag: string, dir: string, problem: string) => `${flag} ${dir} ${problem}: give kikoeru's folder, or leave the option out; nothing was changed`,
      folderProblems: { FOLDER_MISSING: 'does not exist', FOLDER_NOT_DIRECTORY: 'is not a folder', FOLDER_UNREADABLE: 'cannot be read (no permission)' } as Record<string, string>,
    },
    summary: {
      dryRun: 'Dry run: nothing was changed. This is what an import would do:',
      source: (version: string, migrations: number, last: string) => `kikoeru ${version} database: ${migrations} migrations, the last ${last}`,
      noConfig: 'no kikoeru config.json found: passwords cannot be checked (give --config); imported accounts need a new password',
      counts: (what: string, c: { created: number; updated: number; unchanged: number }) => `${what}: ${c.created} new, ${c.updated} updated, ${c.unchanged} unchanged`,
      merged: (names: string) => `  accounts that already existed keep their kikoplay password and receive the kikoeru data: ${names}`,
      needPassword: (names: string) =>
        `  no usable password (still the default admin/admin, or no md5secret): ${names} — their data is kept; they cannot log in until an admin sets a password: kikoplay user passwd NAME`,
      rootAdded: (name: string, dir: string) => `  root folder added: ${name} → ${dir}`,
      rootPresent: (name: string, alias: string) => `  root folder ${name} is kikoplay's ${alias}`,
      rootUnreachable: (name: string, dir: string, why: string) =>
        `  root folder ${name} (${dir}) is unreachable (${why}) — kept and marked; its works are kept as missing; import again once it is back to add it`,
      rootRefused: (name: string, dir: string, why: string) => `  root folder ${name} (${dir}) not added: ${why}`,
      rootUnknown: (name: string, works: number) => `  root folder ${name} is not in kikoeru's config: its ${works} work(s) are kept as missing`,
      works: (k: number, missing: number, hidden: number) =>
        `  kept kikoplay's own metadata: ${k}; missing now (folder not found): ${missing}; hidden by kikoeru (no voice actor), imported: ${hidden}`,
      history: (mapped: number, kept: number) => `  track numbers: ${mapped} mapped to kikoplay's files, ${kept} kept for the first scan (it numbers files in kikoeru's order)`,
      tasks: (lyrics: number, missing: number) => `  finished lyrics: ${lyrics}; lyric files missing (imported as failed, can be redone): ${missing}`,
      covers: (copied: number, absent: number) => `Covers: ${copied} copied, ${absent} without a cover in kikoeru's folder`,
      skipped: (n: number) => `Skipped: ${n}`,
      skippedReason: (reason: string, n: number) => `  ${reason}: ${n}`,
      skippedItem: (kind: string, key: string, reason: string) => `  ${kind} ${key}: ${reason}`,
      rootsHeader: 'Root folders:',
      labels: { users: 'Users', works: 'Works', reviews: 'Reviews', history: 'Play history', aiTasks: 'AI lyric tasks', roots: 'Root folders' },
      kinds: { user: 'user', work: 'work', review: 'review', history: 'history', task: 'AI task' } as Record<string, string>,
      reasons: {
        'work-unknown': 'its work is in neither kikoeru nor kikoplay',
        'user-unknown': 'its user is not imported (unknown group)',
        'empty-review': 'no rating, text or progress',
        'bad-work-id': 'the work id is not a number',
        'bad-state': 'the player state is not JSON',
        'bad-status': 'unknown status or no audio path',
        'location-taken': 'another work is stored at its folder',
        'metadata-edited': 'an admin edited its metadata in kikoplay: kept',
        'metadata-kikoplay': 'kikoplay fetched its metadata itself: kept',
      } as Record<string, string>,
    },
  },
  userManager: {
    title: 'kikoplay users',
    mismatch: 'The passwords do not match',
    created: (name: string) => `User ${name} created.`,
    passwordChanged: 'Password changed.',
    roleChanged: (name: string, role: string) => `${name} is now ${role}`,
    deleted: (name: string) => `User ${name} deleted.`,
    roles: { admin: 'Administrator', user: 'User', guest: 'Guest' },
    keys: '↑/↓ select  [a] add  [p] password  [r] role  [d] delete  [q] quit',
    formKeys: 'Enter confirm  Esc cancel',
    empty: 'No users',
    loading: 'Loading…',
    columnName: 'Name',
    columnRole: 'Role',
    columnCreated: 'Created',
    addTitle: 'Add user',
    name: 'Name',
    password: 'Password',
    group: 'Group',
    toggle: '(←/→ switch)',
    passwordTitle: (name: string) => `Change the password of ${name}`,
    newPassword: 'New password',
    confirmPassword: 'Confirm new password',
    roleTitle: (name: string) => `Change the role of ${name}`,
    select: '↑/↓ select',
    confirmDelete: (name: string) => `Delete user ${name}? Their reviews and play history are deleted too. [y/N]`,
  },
  /** Start-up refusals, said in words (not a stack trace). */
  startup: {
    fsReason,
    dataDirUnusable: (p: string, code: string) =>
      `cannot use ${p} (${fsReason(code)}). kikoplay must be able to read and write its data dir: fix the path or its owner (e.g. chown -R USER ${p}), or choose another data dir with --data-dir or KIKOPLAY_DATA_DIR`,
    databaseTooNew: (file: string, migrations: string) =>
      `${file} was written by a newer kikoplay (its migrations ${migrations} are unknown to this version) and was left untouched. Run the newer kikoplay again, or restore a backup made with this version`,
    databaseDamaged: (file: string) =>
      `${file} is not a usable kikoplay database (damaged, or not a database at all); it was left untouched. Run kikoplay doctor to check it, or kikoplay restore a backup into an empty data dir`,
    folderUnusable: (p: string, code: string) =>
      code === 'ENOTDIR' ? `cannot create a folder under ${p}: it is a file, not a folder (move it away, or choose another path)` : `cannot create the folder ${p} (${fsReason(code)})`,
    portNoPermission: (port: number) => `port ${port} needs administrator rights on this system: choose a port above 1023 with --port N (or PORT), and a reverse proxy for 80/443`,
  },
  /** `kikoplay doctor`. */
  doctor: {
    description: 'check the data dir, database, SQLite build, ffprobe, library folders, port, config and free disk space; exit 1 on problems',
    json: 'print the findings as JSON',
    title: (dataDir: string) => `kikoplay doctor: data dir ${dataDir}`,
    status: { ok: 'ok', warning: 'warning', problem: 'problem' },
    checks: { config: 'config', dataDir: 'data dir', disk: 'disk', database: 'database', migrations: 'schema', sqlite: 'SQLite', ffprobe: 'ffprobe', rootFolder: 'library', port: 'port' },
    allOk: 'all checks passed',
    summary: (problems: number, warnings: number) => `${problems} problem(s), ${warnings} warning(s)`,
    findings: doctorFindings,
  },
};

export type CliCatalog = typeof en;
