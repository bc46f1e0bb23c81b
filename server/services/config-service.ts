import path from 'node:path';
import { forbidden, badRequest } from '../domain/errors.js';
import { isAdmin, type Actor } from '../auth/roles.js';
import type { ConfigStore } from '../config/config-store.js';
import { CONFIG_KEYS, RESTART_KEYS, type Config } from '../config/schema.js';

/** Keys older kikoeru clients send back with the config; accepted and ignored. */
const LEGACY_KEYS = new Set(['version', 'md5secret', 'jwtsecret', 'httpsEnabled', 'httpsPrivateKey', 'httpsCert', 'httpsPort', 'lyricFolderDir', 'production']);

/** Where the running server keeps its files, resolved to absolute paths (admin only; read-only). */
export interface EffectivePaths {
  /** Covers are read and written here now (follows a change of the cover settings at once). */
  coverDir: string;
  /** The database file this process opened at start (a changed database folder applies after a restart). */
  databaseFile: string;
}

export class ConfigService {
  constructor(
    private readonly store: ConfigStore,
    /** The database file opened at start. */
    private readonly databaseFile: string,
  ) {}

  shared() {
    const c = this.store.get();
    return { rewindSeekTime: c.rewindSeekTime, forwardSeekTime: c.forwardSeekTime };
  }

  adminView(actor: Actor): Config {
    if (!isAdmin(actor)) throw forbidden('只有 admin 账号能读取管理配置文件.', { code: 'ADMIN_ONLY' });
    return { ...this.store.get() };
  }

  /**
   * Sent next to the config (never inside it: kikoeru clients send the config back whole and an
   * unknown key would be refused).
   */
  effectivePaths(actor: Actor): EffectivePaths {
    if (!isAdmin(actor)) throw forbidden('只有 admin 账号能读取管理配置文件.', { code: 'ADMIN_ONLY' });
    return { coverDir: path.resolve(this.store.paths().coverDir), databaseFile: path.resolve(this.databaseFile) };
  }

  /** PUT /api/config/admin: validate every key, drop legacy ones, keep `auth` locked in production. */
  update(actor: Actor, body: unknown): { config: Config; message: string; restartRequired: string[] } {
    if (!isAdmin(actor)) throw forbidden('只有 admin 账号能修改配置文件.', { code: 'ADMIN_ONLY' });
    const input = (body as { config?: unknown } | null)?.config;
    if (!input || typeof input !== 'object' || Array.isArray(input)) throw badRequest('请求体必须是 { "config": { ... } }', { code: 'CONFIG_INVALID', field: 'config' });
    const current = this.store.get();
    const patch: Record<string, unknown> = {};
    const unknown: string[] = [];
    for (const [key, value] of Object.entries(input as Record<string, unknown>)) {
      if (LEGACY_KEYS.has(key)) continue;
      if (!(CONFIG_KEYS as string[]).includes(key)) {
        unknown.push(key);
        continue;
      }
      if (JSON.stringify((current as Record<string, unknown>)[key]) === JSON.stringify(value)) continue;
      if (key === 'auth' && current.production) throw forbidden('生产模式下不能修改 auth 设置.', { code: 'AUTH_LOCKED' });
      patch[key] = value;
    }
    if (unknown.length) throw badRequest(`未知的配置项: ${unknown.join(', ')}`, { code: 'CONFIG_KEY_UNKNOWN' });
    const config = Object.keys(patch).length ? this.store.update(patch) : current;
    const restartRequired = Object.keys(patch).filter((k) => (RESTART_KEYS as string[]).includes(k));
    const message = restartRequired.length ? `保存成功. 以下设置需要重启服务器后生效: ${restartRequired.join(', ')}` : '保存成功.';
    return { config: { ...config }, message, restartRequired };
  }
}
