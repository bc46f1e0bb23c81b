import { readFileSync, renameSync, rmSync, writeFileSync, existsSync, chmodSync } from 'node:fs';
import { ZodError } from 'zod';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { AppError } from '../domain/errors.js';
import { configSchema, defaultConfig, describeConfigError, validatePartial, CONFIG_KEYS, type Config, type ConfigKey } from './schema.js';
import { folderWriteProblems, type FolderWriteOptions, type MissingFolderWarning } from './folder-rules.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './private-files.js';
import { DirectoryError, ensureDir } from './ensure-dir.js';
import { pathSettingProblem, type PathSettingProblem } from './path-settings.js';

export const DEFAULT_DATA_DIR = path.join(os.homedir(), '.kikoplay');

export function resolveDataDir(flag?: string): string {
  const dir = flag || process.env.KIKOPLAY_DATA_DIR || DEFAULT_DATA_DIR;
  return path.resolve(dir);
}

export const configPath = (dataDir: string) => path.join(dataDir, 'config.json');

/**
 * What is wrong with config.json or the KIKOPLAY_* environment, as a key and its parameters, so the
 * terminal says it in its language (cli/i18n: `configFile`). `reason` is the schema's own list of
 * problems, not translated. These errors stay on this machine: the API wraps them as CONFIG_INVALID.
 */
export type ConfigProblem =
  | { key: 'notJson'; file: string; reason: string }
  /** the file (or the data dir holding it) cannot be read by this user: `code` is EACCES, EISDIR … */
  | { key: 'unreadable'; file: string; code: string }
  /** a change could not be written (config.json or its folder): nothing was changed */
  | { key: 'unwritable'; file: string; code: string }
  /** a folder setting refused on the disk (path-settings.ts) */
  | ({ key: 'pathSetting' } & PathSettingProblem)
  | { key: 'notObject'; file: string }
  | { key: 'invalidIn'; file: string; reason: string }
  | { key: 'envInvalid'; reason: string }
  | { key: 'invalid'; reason: string }
  /** a change refused (config.json is left as it was) */
  | { key: 'refused'; reason: string };

/** The English form of a problem (the `message` of the error: logs, the API's wrapped text). */
function problemMessage(p: ConfigProblem): string {
  switch (p.key) {
    case 'notJson':
      return `${p.file} is not valid JSON: ${p.reason}`;
    case 'unreadable':
      return `cannot read ${p.file} (${p.code})`;
    case 'unwritable':
      return `cannot write ${p.file} (${p.code})`;
    case 'pathSetting':
      return `${p.setting}: ${p.rule === 'notFolder' ? `${p.path} is a file, not a folder` : 'false needs databaseFolderDir set to an absolute folder'}`;
    case 'notObject':
      return `${p.file} must hold a JSON object`;
    case 'invalidIn':
      return `invalid config in ${p.file}: ${p.reason}`;
    case 'envInvalid':
      return `invalid environment override: ${p.reason}`;
    case 'invalid':
      return `invalid config: ${p.reason}`;
    case 'refused':
      return p.reason;
  }
}

export class ConfigFileError extends AppError {
  constructor(readonly problem: ConfigProblem) {
    super('bad_request', problemMessage(problem), { code: 'CONFIG_INVALID' });
  }
}

/**
 * The JSON object stored in `<data-dir>/config.json`, not validated ({} when there is no file). A file
 * this user cannot read (or a data dir it cannot enter) is an error, never "no file": the defaults
 * would hide the settings. `emptyIsNone`: an empty file holds nothing (for a change, which then writes it).
 */
export function readRawConfigFile(dataDir: string, opts: { emptyIsNone?: boolean } = {}): Record<string, unknown> {
  const file = configPath(dataDir);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'EIO';
    if (code === 'ENOENT') return {};
    throw new ConfigFileError({ key: 'unreadable', file, code });
  }
  if (opts.emptyIsNone && !text.trim()) return {};
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new ConfigFileError({ key: 'notJson', file, reason: (err as Error).message });
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new ConfigFileError({ key: 'notObject', file });
  return raw as Record<string, unknown>;
}

/** Read and validate `<data-dir>/config.json` (the keys stored in it only, no defaults). */
export function readConfigFile(dataDir: string): Partial<Config> {
  const parsed = validatePartial(readRawConfigFile(dataDir));
  if (!parsed.ok) throw new ConfigFileError({ key: 'invalidIn', file: configPath(dataDir), reason: parsed.message });
  return parsed.data;
}

/** SCREAMING_SNAKE form of a key: pageSize → KIKOPLAY_PAGE_SIZE. */
export const envName = (key: ConfigKey) => 'KIKOPLAY_' + key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();

/** Parse a string the way `config set` and env vars do: JSON when it parses, else the raw string. */
export function parseLooseValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function readEnvOverrides(env: NodeJS.ProcessEnv = process.env): Partial<Config> {
  const out: Record<string, unknown> = {};
  for (const key of CONFIG_KEYS) {
    const value = env[envName(key)];
    if (value !== undefined && value !== '') out[key] = parseLooseValue(value);
  }
  if (env.PORT && !out.listenPort) out.listenPort = parseLooseValue(env.PORT);
  const parsed = validatePartial(out);
  if (!parsed.ok) throw new ConfigFileError({ key: 'envInvalid', reason: parsed.message });
  return parsed.data;
}

/** defaults < config file < KIKOPLAY_* env < flags */
export function loadConfig(dataDir: string, flags: Partial<Config> = {}, env: NodeJS.ProcessEnv = process.env): Config {
  const merged = { ...readConfigFile(dataDir), ...readEnvOverrides(env), ...flags };
  const parsed = configSchema.safeParse(merged);
  if (!parsed.success) throw new ConfigFileError({ key: 'invalid', reason: describeConfigError(parsed.error) });
  const config = parsed.data;
  if (config.production) config.auth = true;
  return config;
}

/** Write a file atomically: temp file in the same folder, then rename. */
export function writeFileAtomic(file: string, data: string, mode?: number): void {
  ensureDir(path.dirname(file), PRIVATE_DIR_MODE);
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    writeFileSync(tmp, data, { mode });
    if (mode !== undefined) chmodSync(tmp, mode);
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

/**
 * Validate a change of some keys and write it into config.json, keeping every other stored key.
 * Throws (and writes nothing) when the result would be invalid. `opts.warnMissing`: see folder-rules.ts.
 */
export function updateConfigFile(dataDir: string, patch: Record<string, unknown>, opts: ConfigWriteOptions = {}): Partial<Config> {
  // the stored file may break a rule (written by hand, or by an older version): a change that mends it is allowed
  const current = readRawConfigFile(dataDir, { emptyIsNone: true });
  return writeConfigFile(dataDir, current, { ...current, ...patch }, Object.keys(patch), opts);
}

/** Remove keys from config.json (their defaults apply), refused like any change when the result is invalid. */
export function unsetConfigKeys(dataDir: string, keys: string[], opts: ConfigWriteOptions = {}): Partial<Config> {
  const current = readRawConfigFile(dataDir, { emptyIsNone: true });
  const next: Record<string, unknown> = { ...current };
  for (const k of keys) delete next[k];
  return writeConfigFile(dataDir, current, next, keys, opts);
}

/**
 * Move config.json aside as `config.json.bak-<UTC time>` (the defaults apply from then on); the path it
 * was moved to, or null when there was none. Nothing is deleted: the file the user wrote stays there.
 */
export function resetConfigFile(dataDir: string, now = new Date()): string | null {
  const file = configPath(dataDir);
  readRawConfigFileText(file);
  if (!existsSync(file)) return null;
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  let bak = `${file}.bak-${stamp}`;
  for (let i = 1; existsSync(bak); i++) bak = `${file}.bak-${stamp}-${i}`;
  try {
    renameSync(file, bak);
  } catch (err) {
    throw new ConfigFileError({ key: 'unwritable', file, code: (err as NodeJS.ErrnoException).code ?? 'EIO' });
  }
  return bak;
}

/** Refuse a config.json (or data dir) this user cannot reach, as `readRawConfigFile` does. */
function readRawConfigFileText(file: string): void {
  try {
    readFileSync(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'EIO';
    if (code !== 'ENOENT') throw new ConfigFileError({ key: 'unreadable', file, code });
  }
}

export interface ConfigWriteOptions extends FolderWriteOptions {
  /**
   * Given (by `kikoplay config set / unset`), a change is allowed while keys it does not touch stay
   * broken as they were: they are kept as stored and said here once the change is written. Without it
   * (the API) any problem left refuses the change.
   */
  stillInvalid?: (reason: string) => void;
}

/** Stored keys whose own value is invalid (or that are unknown). */
const brokenKeys = (obj: Record<string, unknown>) => new Set(Object.keys(obj).filter((k) => !validatePartial({ [k]: obj[k] }).ok));
const omit = (obj: Record<string, unknown>, keys: Set<string>) => Object.fromEntries(Object.entries(obj).filter(([k]) => !keys.has(k)));
/** The whole-config problems (rules across keys) of stored values, one text each. */
function crossProblems(obj: Record<string, unknown>): string[] {
  const r = configSchema.safeParse(obj);
  return r.success ? [] : r.error.issues.map((i) => describeConfigError(new ZodError([i])));
}

/**
 * The one gate of config.json: the schema (every rule that needs no file system, see folder-rules.ts),
 * then the file-system checks of folders the change brings in. Nothing is written when a check fails.
 */
function writeConfigFile(dataDir: string, current: Record<string, unknown>, next: Record<string, unknown>, changed: string[], opts: ConfigWriteOptions = {}): Partial<Config> {
  const tolerant = !!opts.stillInvalid;
  const brokenBefore = brokenKeys(current);
  // broken keys the change does not touch stay as they were (tolerant mode only)
  const kept = tolerant ? new Set([...brokenKeys(next)].filter((k) => brokenBefore.has(k) && !changed.includes(k))) : new Set<string>();
  const valid = omit(next, kept);
  const parsed = validatePartial(valid);
  if (!parsed.ok) throw new ConfigFileError({ key: 'refused', reason: parsed.message });
  const full = configSchema.safeParse(valid);
  let crossLeft: string[] = [];
  if (!full.success) {
    const before = new Set(crossProblems(omit(current, brokenBefore)));
    crossLeft = crossProblems(valid);
    if (!tolerant || crossLeft.some((p) => !before.has(p))) throw new ConfigFileError({ key: 'refused', reason: describeConfigError(full.error) });
  }
  const nextConfig = full.success ? full.data : ({ ...defaultConfig(), ...parsed.data } as Config);
  const pathProblem = pathSettingProblem(current, valid);
  if (pathProblem) throw new ConfigFileError({ key: 'pathSetting', ...pathProblem });
  // folders of a stored file that breaks the rules are checked as if new
  const before = configSchema.safeParse(omit(current, brokenBefore));
  const warnings: MissingFolderWarning[] = [];
  const disk = folderWriteProblems(before.success ? before.data : defaultConfig(), nextConfig, opts.warnMissing ? { warnMissing: (w) => warnings.push(w) } : {});
  if (disk.length) throw new ConfigFileError({ key: 'refused', reason: disk.join('; ') });
  const data: Record<string, unknown> = parsed.data;
  const stored = Object.fromEntries(Object.keys(next).map((k) => [k, kept.has(k) ? next[k] : data[k]]));
  const file = configPath(dataDir);
  try {
    writeFileAtomic(file, JSON.stringify(stored, null, 2) + '\n', PRIVATE_FILE_MODE);
  } catch (err) {
    if (err instanceof DirectoryError) throw new ConfigFileError({ key: 'unwritable', file: err.dir, code: err.code });
    throw new ConfigFileError({ key: 'unwritable', file, code: (err as NodeJS.ErrnoException).code ?? 'EIO' });
  }
  // said once the change is written (a refused change warns of nothing)
  for (const w of warnings) opts.warnMissing?.(w);
  const left = [...(kept.size ? [validatePartial(Object.fromEntries([...kept].map((k) => [k, next[k]]))) as { ok: false; message: string }] : []).map((r) => r.message), ...crossLeft];
  if (left.length) opts.stillInvalid?.(left.join('; '));
  return parsed.data;
}

/** The JWT secret: generated once into the data dir (mode 0600), never sent by the API. */
export function loadOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file)) {
    const secret = readFileSync(file, 'utf8').trim();
    if (secret.length >= 32) return secret;
  }
  const secret = randomBytes(48).toString('hex');
  writeFileAtomic(file, secret + '\n', PRIVATE_FILE_MODE);
  return secret;
}

/** Resolved file-system locations derived from the data dir and config. */
export interface Paths {
  dataDir: string;
  dbFile: string;
  coverDir: string;
  thumbDir: string;
  lockFile: string;
  logDir: string;
  /** Where scheduled backups are written (backupDir, default `<data-dir>/backups`). */
  backupDir: string;
}

export function resolvePaths(dataDir: string, config: Config): Paths {
  const dbDir = config.dbUseDefaultPath || !config.databaseFolderDir ? dataDir : path.resolve(dataDir, config.databaseFolderDir);
  const coverDir = config.coverUseDefaultPath || !config.coverFolderDir ? path.join(dataDir, 'covers') : path.resolve(dataDir, config.coverFolderDir);
  return {
    dataDir,
    dbFile: path.join(dbDir, 'kikoplay.db'),
    coverDir,
    thumbDir: path.join(dataDir, 'cache', 'thumbs'),
    lockFile: path.join(dataDir, 'scan.lock'),
    logDir: path.join(dataDir, 'logs'),
    backupDir: config.backupDir ? path.resolve(config.backupDir) : path.join(dataDir, 'backups'),
  };
}
