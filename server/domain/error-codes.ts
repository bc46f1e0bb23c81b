/**
 * Every machine code an error body can carry (`{ error, code, field?, params? }`), with what it means.
 * The `error` text stays what the kikoeru clients display; the web app translates `code` (with `field`
 * and `params`) instead. Codes are stable: add new ones, never rename or reuse one. `params` hold
 * numbers and names the server knows (a work code, a folder alias, a limit), never what the client sent.
 */
export const ERROR_CODES = {
  // ---- generic: the kind of failure when nothing more specific applies ----
  BAD_REQUEST: 'The request is invalid.',
  FIELD_INVALID: 'A parameter is invalid; `field` names it.',
  INVALID_JSON: 'The request body is not valid JSON (or not an object or array).',
  JSON_TOO_DEEP: 'The JSON body nests arrays and objects more than `params.max` levels deep.',
  BODY_INCOMPLETE: 'The request body ended before it was complete.',
  REQUEST_TIMEOUT: 'The request (or its body) took too long to arrive.',
  UNAUTHORIZED: 'Not logged in, or the credentials are not accepted.',
  FORBIDDEN: 'The account may not do this.',
  NOT_FOUND: 'The thing asked for does not exist.',
  ROUTE_NOT_FOUND: 'There is no such API route.',
  CONFLICT: 'The request clashes with the current state.',
  PAYLOAD_TOO_LARGE: 'The request body is over the limit of the route (`params.limit`, e.g. "64 KB").',
  HEADERS_TOO_LARGE: 'The URL or the request headers are too long.',
  UNSUPPORTED_MEDIA_TYPE: 'The request body type or encoding is not accepted (send JSON).',
  RANGE_NOT_SATISFIABLE: 'The requested byte range lies outside the file.',
  TOO_MANY_REQUESTS: 'Too many requests; retry after the Retry-After header.',
  UNAVAILABLE: 'The server cannot answer now; retry after the Retry-After header.',
  BUSY: 'The server is busy; retry after the Retry-After header.',
  INTERNAL: 'A server fault; the text names the request id for the log.',

  // ---- accounts and sessions ----
  USERNAME_TOO_SHORT: 'The user name is shorter than `params.min` characters.',
  USERNAME_INVALID: 'The user name is longer than `params.max` characters or holds control characters or slashes (or, in a new name, invisible format characters such as a zero-width space).',
  PASSWORD_TOO_SHORT: 'The password is shorter than `params.min` characters.',
  PASSWORD_TOO_LONG: 'The password is longer than `params.max` characters.',
  GROUP_INVALID: "The user group is not 'user', 'guest' or 'administrator'.",
  ROLE_INVALID: 'The role is not one of admin / user / guest.',
  NAME_TAKEN: 'A user with this name already exists (for a new name: one equal to it under NFKC and case folding).',
  USER_NOT_FOUND: 'No user has this name.',
  WRONG_CREDENTIALS: 'The user name or password is wrong.',
  TOO_MANY_ATTEMPTS: 'Too many failed logins; retry after `params.seconds` seconds.',
  TOKEN_MISSING: 'No authorization token was sent.',
  SESSION_EXPIRED: 'The login token is invalid, expired or revoked: log in again.',
  MEDIA_TOKEN_ONLY: 'A media token was used where a login token is needed.',
  WORKER_TOKEN_ONLY: 'A worker token was used outside the worker protocol routes.',
  WORKER_TOKEN_INVALID: 'The worker token is unknown or revoked.',
  CURRENT_PASSWORD_REQUIRED: 'Changing your own password needs the current password.',
  CURRENT_PASSWORD_WRONG: 'The current password is wrong.',
  GUEST_PASSWORD: 'A guest account cannot change its password.',
  GUEST_LOGOUT_ALL: 'A guest account cannot log out everywhere (guest accounts are often shared).',
  AUTH_DISABLED: 'Auth is off on this server: there are no accounts to manage.',
  GUEST_READ_ONLY: 'A guest account can only browse and play.',
  ADMIN_ONLY: 'Only an administrator may do this.',
  OWN_PASSWORD_ONLY: "Only your own account's password can be changed.",
  LAST_ADMIN_ROLE: 'The last administrator cannot lose the admin role.',
  LAST_ADMIN_DELETE: 'The last administrator account cannot be deleted.',
  SELF_DELETE: 'The account you are logged in with cannot be deleted.',

  // ---- works, files and labels ----
  WORK_NOT_FOUND: 'No work with this id (`params.work`, e.g. "RJ01234567").',
  WORK_FOLDER_MISSING: 'The folder of the work (`params.work`) is no longer in the library: rescan.',
  ROOT_FOLDER_MISSING: 'The library folder `params.folder` is not configured any more: restart or rescan.',
  FILE_NOT_FOUND: 'The work has no file with this number (`params.file`, "work/n"): refresh the file list.',
  FILE_GONE: 'The file is no longer on disk: rescan.',
  FILE_CHANGED: 'The file changed while it was read: retry.',
  WORK_FOLDER_GONE: 'The folder of the work (`params.work`) is no longer on disk: rescan.',
  WORK_SUBFOLDER_NOT_FOUND: 'The work (`params.work`) has no folder at this path.',
  DOWNLOAD_BUSY: 'You are already downloading `params.max` archives: wait until one ends.',
  PATH_OUTSIDE_LIBRARY: 'Access refused: the file or folder lies (or links) outside the library folders.',
  LABEL_NOT_FOUND: 'No circle, tag or voice actor (`params.kind`: circles, tags, vas) with this id.',
  IMAGE_UNSUPPORTED: 'The file is not an image that can be made into a thumbnail.',
  PARAM_REPEATED: 'A query parameter was given more than once.',
  SEARCH_KEYWORD_INVALID: 'The search keyword or advanced search conditions are invalid or too long.',
  SEARCH_TOO_SLOW: 'The search took too long and was stopped: use a longer keyword or filters.',
  SEARCH_BUSY: 'Too many searches are running (yours or everyone’s): retry shortly.',

  // ---- reviews, progress and play history ----
  RATING_REQUIRED: 'The review needs a rating (1–5 or null).',
  STATE_TOO_LARGE: 'The play state is over `params.kb` KB.',
  HISTORY_FULL: "The user's play history is over `params.mb` MB: delete some entries.",
  REVIEW_TOO_LONG: 'The review text is over `params.chars` characters.',
  REVIEWS_FULL: "The user's review texts are over `params.mb` MB: delete or shorten some.",
  WRITE_PACE: 'Writes come too fast: retry after the Retry-After header.',

  // ---- corrections, lyrics and AI tasks ----
  NAME_REQUIRED: 'A new circle, tag or voice actor needs a name (`field` names the entry).',
  DUPLICATE_ITEM: 'The same tag or voice actor is listed twice.',
  SCAN_RUNNING: 'A library scan is running: wait until it ends.',
  LYRIC_NOT_LOADABLE: 'The file is not a lyric file that can be loaded (.lrc/.srt/.vtt).',
  LYRIC_FORMAT_UNSUPPORTED: 'The lyric format is not supported.',
  LYRIC_TOO_LARGE: 'The lyric is over `params.limit` (e.g. "2 MB").',
  LYRIC_EMPTY: 'There is no lyric line to save.',
  LYRIC_LINE_INVALID: 'Lyric line `params.line` has an invalid time or text.',
  WRITE_PATH_INVALID: 'The path to save the lyric to is invalid or leaves the work folder.',
  OVERWRITE_REFUSED: 'The target exists and is not a lyric file: it is not overwritten.',
  LIBRARY_READ_ONLY: 'The library folder `params.folder` is read-only (or not writable by the server): the lyric was not saved.',
  AI_TASK_NOT_FOUND: 'No such AI lyric task (or none that finished successfully).',
  AI_TASK_DUPLICATE: 'The file already has an AI lyric task.',
  AI_TASK_LIMIT: 'You already have `params.max` waiting AI lyric tasks.',
  AI_TASK_NOT_OWNER: 'Only the creator of a task (or an administrator) may change it.',
  AI_AUDIO_ONLY: 'AI lyric tasks can only be made for audio files.',
  AI_QUEUE_EMPTY: 'No AI lyric task is waiting to be taken.',
  AI_TASK_NOT_HELD: 'The task is not held with this secret (finished, released or expired).',
  WORKER_NAME_INVALID: 'The worker name is invalid (1–64 characters, no spaces, control characters or slashes).',
  WORKER_TOKEN_EXISTS: 'A worker token with this name exists: revoke it first.',
  WORKER_TOKEN_NOT_FOUND: 'No active worker token has this name.',

  // ---- configuration and folders ----
  CONFIG_INVALID: 'The configuration change is invalid.',
  CONFIG_KEY_UNKNOWN: 'The configuration change names an unknown key.',
  AUTH_LOCKED: 'The auth setting cannot be changed in production mode.',
  FOLDER_FIELDS_EMPTY: 'A folder needs both an alias and a path.',
  FOLDER_NAME_INVALID: 'The folder alias is over `params.max` characters or holds control characters.',
  FOLDER_PATH_NOT_ABSOLUTE: 'The folder path is not absolute.',
  FOLDER_NAME_TAKEN: 'Another folder has this alias.',
  FOLDER_PATH_TAKEN: 'Another folder has this path.',
  FOLDER_NESTED: 'The folder lies inside, or contains, the folder `params.other`.',
  FOLDER_MISSING: 'The folder does not exist.',
  KIKOERU_NOT_DATABASE: "The import source is not a kikoeru database (unreadable, not SQLite, another program's, or its config.json is not JSON).",
  KIKOERU_SCHEMA: 'The kikoeru database is on a schema the import does not take (`params.migrations`, `params.last`; kikoeru 0.6.7 has `params.expected`).',
  FOLDER_NOT_DIRECTORY: 'The path is not a folder.',
  FOLDER_UNREADABLE: 'The server may not read the folder.',
  FOLDER_NOT_WRITABLE: 'The server may not write to the folder.',
  FOLDER_NOT_FOUND: 'No library folder has this alias.',
  FOLDERS_FROM_ENV: 'The folders are set by a command-line flag or environment variable, not on the web.',
  COVER_FOLDER_REQUIRED: 'Without the default cover folder, a cover folder path is needed.',
  HOST_NOT_ALLOWED: 'The Host is not an address of this server (see the publicHosts setting).',
  ORIGIN_NOT_ALLOWED: 'A change from another site is refused (see the allowedOrigins setting).',
} as const satisfies Record<string, string>;

export type ApiErrorCode = keyof typeof ERROR_CODES;

export const API_ERROR_CODES = Object.keys(ERROR_CODES) as ApiErrorCode[];

export const isApiErrorCode = (value: unknown): value is ApiErrorCode => typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);

/** What the web needs to rebuild a sentence: numbers and server-known names only. */
export type ErrorParams = Record<string, string | number>;
