/**
 * What the worker says: its log lines and the errors that stop it. The terminal passes them in the
 * run's language (cli/i18n: `worker`; `kikoplay worker` sets them), so the worker never imports the
 * CLI; WORKER_TEXT is the English the worker speaks when nobody passes any (tests, embedders).
 * Progress texts sent to the server (`/status`, shown in the AI lyric centre) are not here: they
 * belong to the task, not to this terminal.
 */
export interface WorkerText {
  /** Words before a log line of that level. */
  warning: string;
  error: string;

  // ---- the loop ----
  connected: (name: string, server: string) => string;
  forgetTask: (id: number, server: string) => string;
  resuming: (id: number) => string;
  queueEmpty: (seconds: number) => string;
  acquired: (id: number) => string;
  retrying: (step: string, why: string, seconds: string) => string;
  gaveUp: (why: string, attempts: number) => string;

  // ---- one task ----
  progress: (id: number, text: string) => string;
  done: (id: number) => string;
  failed: (id: number, why: string) => string;
  dropped: (id: number) => string;
  notTaken: (id: number) => string;
  failureNotReported: (id: number, why: string) => string;
  translationFailed: (id: number, why: string) => string;
  noLongerOurs: (id: number) => string;
  heartbeatFailed: (id: number, why: string) => string;

  // ---- the server ----
  unreachable: (server: string) => string;
  loggedIn: (server: string, user: string) => string;
  loggingInAgain: string;
  tokenRefused: string;
  loginWithoutToken: string;
  loginRefused: (user: string, status: number, why: string) => string;
  needsLogin: string;
  meAnswered: (status: number, why: string) => string;
  newLoginRefused: (why: string) => string;
  notAllowed: (why: string) => string;
  answered: (step: string, status: number, why: string) => string;
  unexpectedBody: (step: string, body: string) => string;
  apiKeyRefused: (status: number, why: string) => string;

  // ---- options ----
  serverRequired: string;
  notHttpUrl: (flag: string, value: string) => string;
  notNumber: (flag: string, min: number, max: number, value: string) => string;
  tokenOrUser: string;
  userNeedsPassword: string;
  passwordNeedsUser: string;
  unknownEngine: (engine: string) => string;
  badName: string;
  translateToEmpty: string;
  translateNeedsModel: string;
  glossaryUnreadable: (file: string, why: string) => string;
  glossaryInvalid: (file: string, why: string) => string;
  translateOptionsNeedTo: string;
}

export const WORKER_TEXT: WorkerText = {
  warning: 'warning',
  error: 'error',

  connected: (name, server) => `worker "${name}" connected to ${server}`,
  forgetTask: (id, server) => `forgetting task ${id} of another server (${server})`,
  resuming: (id) => `resuming task ${id}`,
  queueEmpty: (seconds) => `queue empty; polling every ${seconds} s`,
  acquired: (id) => `acquired task ${id}`,
  retrying: (step, why, seconds) => `${step}: ${why}; retrying in ${seconds} s`,
  gaveUp: (why, attempts) => `${why} (gave up after ${attempts} attempts)`,

  progress: (id, text) => `task ${id}: ${text}`,
  done: (id) => `task ${id}: done`,
  failed: (id, why) => `task ${id}: failed: ${why}`,
  dropped: (id) => `task ${id}: dropped, the server took it back`,
  notTaken: (id) => `task ${id}: the server did not take the result (no longer held)`,
  failureNotReported: (id, why) => `task ${id}: could not report the failure: ${why}`,
  translationFailed: (id, why) => `task ${id}: translation failed, sending the transcription alone: ${why}`,
  noLongerOurs: (id) => `task ${id}: the server no longer lists it as ours; dropping it`,
  heartbeatFailed: (id, why) => `task ${id}: heartbeat failed: ${why}`,

  unreachable: (server) => `server ${server} unreachable`,
  loggedIn: (server, user) => `logged in to ${server} as ${user}`,
  loggingInAgain: 'the server answered 401: logging in again',
  tokenRefused: 'the server refused the token (revoked or expired); give a new --token or --user/--password',
  loginWithoutToken: 'login answered without a token',
  loginRefused: (user, status, why) => `login as ${user} refused (${status}): ${why}`,
  needsLogin: 'the server needs a login: give --token or --user/--password',
  meAnswered: (status, why) => `server answered ${status} to GET /api/auth/me: ${why}`,
  newLoginRefused: (why) => `the server refused the new login too: ${why}`,
  notAllowed: (why) => `this account may not run tasks (403): ${why}`,
  answered: (step, status, why) => `${step} answered ${status}: ${why}`,
  unexpectedBody: (step, body) => `${step} answered an unexpected body: ${body}`,
  apiKeyRefused: (status, why) => `transcription service answered ${status}: ${why} (check --api-key)`,

  serverRequired: '--server URL is required (the kikoplay server, e.g. http://192.168.1.10:8888)',
  notHttpUrl: (flag, value) => `${flag} must be an http(s) URL, got "${value}"`,
  notNumber: (flag, min, max, value) => `${flag} must be a number from ${min} to ${max}, got "${value}"`,
  tokenOrUser: 'give either --token or --user/--password, not both',
  userNeedsPassword: '--user needs --password (or env KIKOPLAY_WORKER_PASSWORD)',
  passwordNeedsUser: '--password needs --user',
  unknownEngine: (engine) => `unknown --engine "${engine}" (available: openai)`,
  badName: '--name must be 1–100 characters',
  translateToEmpty: '--translate-to needs a language (e.g. zh)',
  translateNeedsModel: '--translate-to needs --translate-model (the chat model, e.g. gpt-4o-mini)',
  glossaryUnreadable: (file, why) => `cannot read --glossary ${file}: ${why}`,
  glossaryInvalid: (file, why) => `--glossary ${file}: ${why}`,
  translateOptionsNeedTo: '--translate-model, --translate-api-base, --translate-api-key and --glossary need --translate-to',
};
