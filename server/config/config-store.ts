import { EventEmitter } from 'node:events';
import { AppError } from '../domain/errors.js';
import { configFieldErrors, configSchema, describeConfigError, type Config } from './schema.js';
import { ConfigFileError, loadConfig, readConfigFile, updateConfigFile, resolvePaths, type Paths } from './load.js';

/**
 * The live configuration of a running process: file + env + flags, re-read after every change.
 * Emits 'change' (new config, changed keys) so scanners, cron and routes pick changes up without a restart.
 */
export class ConfigStore extends EventEmitter {
  private current: Config;

  constructor(
    readonly dataDir: string,
    private readonly flags: Partial<Config> = {},
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {
    super();
    this.current = loadConfig(dataDir, flags, env);
  }

  get(): Config {
    return this.current;
  }

  paths(): Paths {
    return resolvePaths(this.dataDir, this.current);
  }

  /** Validate and persist a partial change (atomic write), then reload. */
  update(patch: Record<string, unknown>): Config {
    const before = this.current;
    const candidate = configSchema.safeParse({ ...before, ...patch });
    if (!candidate.success) {
      // `error` as before (the whole story in one line); `errors[]` says it per key, with codes
      const fields = configFieldErrors(candidate.error);
      throw new AppError('bad_request', `配置无效: ${describeConfigError(candidate.error)}`, { code: 'CONFIG_INVALID', field: fields[0]?.param, params: {}, fields });
    }
    try {
      updateConfigFile(this.dataDir, patch);
    } catch (err) {
      if (err instanceof ConfigFileError) throw new AppError('bad_request', `配置无效: ${err.message}`, { code: 'CONFIG_INVALID' });
      throw err;
    }
    this.current = loadConfig(this.dataDir, this.flags, this.env);
    const changed = Object.keys(patch).filter((k) => JSON.stringify((before as Record<string, unknown>)[k]) !== JSON.stringify((this.current as Record<string, unknown>)[k]));
    if (changed.length) this.emit('change', this.current, changed);
    return this.current;
  }

  /** Re-read the file (e.g. after `kikoplay config set` in another process). */
  reload(): Config {
    const before = this.current;
    this.current = loadConfig(this.dataDir, this.flags, this.env);
    const changed = Object.keys(this.current).filter((k) => JSON.stringify((before as Record<string, unknown>)[k]) !== JSON.stringify((this.current as Record<string, unknown>)[k]));
    if (changed.length) this.emit('change', this.current, changed);
    return this.current;
  }

  storedKeys(): string[] {
    return Object.keys(readConfigFile(this.dataDir));
  }
}
