import { z } from 'zod';
import cron from 'node-cron';
import { isApiErrorCode, type ApiErrorCode, type ErrorParams } from '../domain/error-codes.js';
import type { FieldError } from '../domain/errors.js';
import { coverFolderProblem, FOLDER_RULE_MSG, isAbsoluteFolder, rootFolderProblems } from './folder-rules.js';

/**
 * The one config schema (every key and default is listed in README.md#configuration).
 * Stored as `<data-dir>/config.json`; every key is optional there and filled from these defaults.
 */
const rootFolder = z.object({ name: z.string().trim(), path: z.string().trim() });

/** Root folders by the rules of folder-rules.ts (unique aliases and paths, absolute, none inside another). */
const rootFolders = z.array(rootFolder).superRefine((folders, ctx) => {
  for (const p of rootFolderProblems(folders)) ctx.addIssue({ code: 'custom', message: p.message, path: p.at, params: { code: p.code, params: p.params } });
});

/** Empty (the default folder) or absolute. */
const coverFolderDir = z
  .string()
  .trim()
  .superRefine((dir, ctx) => {
    const problem = coverFolderProblem(true, dir);
    if (problem) ctx.addIssue({ code: 'custom', message: problem.message, params: { code: problem.code } });
  });

/** A host name (or IP) a browser may use to reach this server: no scheme, path or port. */
const hostName = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*\.?|\[[0-9a-f:.]+\])$/, 'must be a host name such as music.example.com (no scheme, port or path)');

/** A web origin (`https://host[:port]`) whose pages may call this server. */
const webOrigin = z
  .string()
  .trim()
  .refine(
    (value) => {
      try {
        const url = new URL(value);
        return /^https?:$/.test(url.protocol) && url.origin === value.replace(/\/$/, '').toLowerCase();
      } catch {
        return false;
      }
    },
    { message: 'must be an origin such as https://music.example.com (scheme, host and optional port; no path)', params: { code: 'CONFIG_ORIGIN_INVALID' } },
  );

/** Empty (`<data-dir>/backups`) or an absolute folder. */
const backupDir = z
  .string()
  .trim()
  .refine((dir) => dir === '' || isAbsoluteFolder(dir), { message: 'must be an absolute folder path (or empty for <data-dir>/backups)', params: { code: 'FOLDER_PATH_NOT_ABSOLUTE' } });

/** Empty or an absolute path without control characters (what the setting means when empty: `emptyIs`). */
const absolutePathOrEmpty = (emptyIs: string) =>
  z.string().refine((p) => p === '' || isAbsoluteFolder(p), { message: `must be an absolute path without control characters (or empty for ${emptyIs})`, params: { code: 'FOLDER_PATH_NOT_ABSOLUTE' } });

/**
 * Empty (no schedule) or an expression the scheduler (server/jobs, node-cron) runs: five fields, or six
 * with seconds first. Checked here so a schedule that would never run is refused when it is written.
 */
const cronExpression = (what: string) =>
  z.string().refine((expr) => expr.trim() === '' || cron.validate(expr.trim()), {
    message: `must be a cron expression such as "0 3 * * *" (minute hour day month weekday), or empty for no ${what}`,
    params: { code: 'CONFIG_CRON_INVALID' },
  });

/** No whitespace or control characters (`new URL` would drop some of them silently). */
const hasSpaceOrControl = (s: string) => /[\s\u0000-\u001f\u007f]/.test(s);

/** An absolute http:// or https:// URL with a host. */
function isHttpUrl(value: string): boolean {
  if (hasSpaceOrControl(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** A metadata site or mirror: http(s) only (no `file:`, `javascript:`, `data:`). */
const httpBaseUrl = z.string().refine(isHttpUrl, { message: 'must be an http:// or https:// URL', params: { code: 'CONFIG_URL_INVALID' } });

/**
 * Where the reverse proxy serves the library folders when `offloadMedia` is on (docs/DEPLOY.md): the
 * redirect goes to this base + `/<folder alias>/<path>` (server/contract/tracks.ts `offloadUrl`). Either a
 * path from the site's root (`/media/stream/`, not `//host`) or an http(s) URL of another host; printable
 * ASCII without spaces, `\`, `?` or `#` (it starts a Location header).
 */
function isOffloadBase(value: string): boolean {
  if (!/^[\x21-\x7e]+$/.test(value) || /[\\?#]/.test(value)) return false;
  if (value.startsWith('/')) return !value.startsWith('//');
  return isHttpUrl(value);
}
const offloadBase = z.string().refine(isOffloadBase, {
  message: 'must be a path from the site root such as /media/stream/, or an http(s) URL such as https://files.example.com/media/ (no spaces, query or fragment)',
  params: { code: 'CONFIG_OFFLOAD_INVALID' },
});

const int = (min: number, max: number) => z.number().int().min(min).max(max);
const ms = int(1, 600_000);

export const configSchema = z
  .object({
    // Folders and paths
    rootFolders: rootFolders.default([]),
    coverUseDefaultPath: z.boolean().default(true),
    coverFolderDir: coverFolderDir.default(''),
    voiceWorkDefaultPath: absolutePathOrEmpty('no prefill').default(''),
    dbUseDefaultPath: z.boolean().default(true),
    databaseFolderDir: absolutePathOrEmpty('the data dir').default(''),
    // Playback
    rewindSeekTime: int(1, 600).default(5),
    forwardSeekTime: int(1, 600).default(30),
    // Language
    tagLanguage: z.enum(['zh-cn', 'zh-tw', 'ja-jp']).default('zh-cn'),
    // Scraping and retry
    dlsiteTimeout: ms.default(10000),
    hvdbTimeout: ms.default(10000),
    retryDelay: int(0, 600_000).default(2000),
    retry: int(0, 20).default(5),
    maxParallelism: int(1, 64).default(16),
    // Proxy
    httpProxyHost: z.string().default(''),
    httpProxyPort: int(0, 65535).default(0),
    // Metadata sources (overridable so tests and mirrors can be used)
    dlsiteBaseUrl: httpBaseUrl.default('https://www.dlsite.com'),
    dlsiteImageBaseUrl: httpBaseUrl.default('https://img.dlsite.jp'),
    hvdbBaseUrl: httpBaseUrl.default('https://hvdb.me'),
    asmrOneBaseUrl: httpBaseUrl.default('https://api.asmr-200.com'),
    // Scanning
    scannerMaxRecursionDepth: int(1, 32).default(2),
    skipCleanup: z.boolean().default(false),
    scanCron: cronExpression('scheduled scans').default(''),
    // Backups (README.md#backup-and-restore)
    backupCron: cronExpression('scheduled backups').default(''),
    backupKeep: int(1, 1000).default(7),
    backupDir: backupDir.default(''),
    // Server
    production: z.boolean().default(false),
    auth: z.boolean().default(true),
    enableGzip: z.boolean().default(true),
    listenPort: int(1, 65535).default(8888),
    blockRemoteConnection: z.boolean().default(false),
    behindProxy: z.boolean().default(false),
    trustedProxyHops: int(1, 16).default(1),
    publicHosts: z.array(hostName).max(64).default([]),
    allowedOrigins: z.array(webOrigin).max(64).default([]),
    expiresIn: int(60, 10 * 365 * 86400).default(2592000),
    pageSize: int(1, 100).default(12),
    dbBusyTimeout: int(100, 120_000).default(5000),
    offloadMedia: z.boolean().default(false),
    offloadStreamPath: offloadBase.default('/media/stream/'),
    offloadDownloadPath: offloadBase.default('/media/download/'),
    // AI lyrics
    aiTaskLeaseMinutes: int(1, 24 * 60).default(30),
    // Updates (off by default: nothing calls an update server unless the admin asks)
    checkUpdate: z.boolean().default(false),
    checkBetaUpdate: z.boolean().default(false),
  })
  .strict()
  .superRefine((c, ctx) => {
    if (!c.coverUseDefaultPath && !c.coverFolderDir) ctx.addIssue({ code: 'custom', message: FOLDER_RULE_MSG.coverDirNeeded, path: ['coverFolderDir'], params: { code: 'COVER_FOLDER_REQUIRED' } });
  });

export type Config = z.infer<typeof configSchema>;
export type ConfigKey = keyof Config;
export const CONFIG_KEYS = Object.keys(configSchema.shape) as ConfigKey[];

/** Keys a running server applies only after a restart. */
export const RESTART_KEYS: ConfigKey[] = ['listenPort', 'blockRemoteConnection', 'enableGzip', 'behindProxy', 'trustedProxyHops', 'dbUseDefaultPath', 'databaseFolderDir'];

export const defaultConfig = (): Config => configSchema.parse({});

/** Human message for a zod error, naming the offending key(s). */
export function describeConfigError(err: z.ZodError, prefix: PropertyKey[] = []): string {
  return err.issues
    .map((issue) => {
      const at = [...prefix, ...issue.path].map(String);
      const key = at.length ? at.join('.') : '(root)';
      if (issue.code === 'unrecognized_keys') return `unknown config key(s): ${issue.keys.join(', ')}`;
      return `${key}: ${issue.message}`;
    })
    .join('; ');
}

/** The error code (server/domain/error-codes.ts) and sentence parameters of one schema issue. */
function issueDetail(issue: z.core.$ZodIssue): { code: ApiErrorCode; params?: ErrorParams } {
  switch (issue.code) {
    case 'custom': {
      const own = issue.params as { code?: unknown; params?: ErrorParams } | undefined;
      return isApiErrorCode(own?.code) ? { code: own.code, params: own.params } : { code: 'CONFIG_VALUE_INVALID' };
    }
    case 'invalid_type':
      return { code: issue.expected === 'int' ? 'CONFIG_VALUE_INTEGER' : 'CONFIG_VALUE_TYPE' };
    case 'too_small':
      return issue.origin === 'number' ? { code: 'CONFIG_VALUE_TOO_SMALL', params: { min: Number(issue.minimum) } } : { code: 'CONFIG_VALUE_INVALID' };
    case 'too_big':
      if (issue.origin === 'number') return { code: 'CONFIG_VALUE_TOO_BIG', params: { max: Number(issue.maximum) } };
      return issue.origin === 'array' ? { code: 'CONFIG_LIST_TOO_LONG', params: { max: Number(issue.maximum) } } : { code: 'CONFIG_VALUE_INVALID' };
    case 'invalid_value':
      return { code: 'CONFIG_VALUE_CHOICE', params: { values: issue.values.map(String).join(', ') } };
    case 'invalid_format':
      if (issue.format === 'url') return { code: 'CONFIG_URL_INVALID' };
      return issue.path[0] === 'publicHosts' ? { code: 'CONFIG_HOST_INVALID' } : { code: 'CONFIG_VALUE_INVALID' };
    case 'unrecognized_keys':
      return { code: 'CONFIG_KEY_UNKNOWN' };
    default:
      return { code: 'CONFIG_VALUE_INVALID' };
  }
}

/**
 * A schema error as field errors of a `{ config }` body: `param` is the key's path (`listenPort`,
 * `rootFolders.0.path`), `msg` the issue's own text, `code` and `params` what the web app says it by.
 */
export function configFieldErrors(err: z.ZodError): FieldError[] {
  return err.issues.map((issue) => {
    const { code, params } = issueDetail(issue);
    const at = issue.path.map(String).join('.');
    return { msg: issue.message, param: at || 'config', location: 'body', code, ...(params ? { params } : {}) };
  });
}

/**
 * Validate some keys without filling defaults (for config.json, env overrides and edits, which hold
 * only what was set). Unknown keys are errors.
 */
export function validatePartial(input: Record<string, unknown>): { ok: true; data: Partial<Config> } | { ok: false; message: string } {
  const out: Record<string, unknown> = {};
  const problems: string[] = [];
  const unknown = Object.keys(input).filter((k) => !(k in configSchema.shape));
  if (unknown.length) problems.push(`unknown config key(s): ${unknown.join(', ')}`);
  for (const [key, value] of Object.entries(input)) {
    const field = configSchema.shape[key as ConfigKey];
    if (!field || value === undefined) continue;
    const r = field.safeParse(value);
    if (r.success) out[key] = r.data;
    else problems.push(describeConfigError(r.error, [key]));
  }
  return problems.length ? { ok: false, message: problems.join('; ') } : { ok: true, data: out as Partial<Config> };
}
