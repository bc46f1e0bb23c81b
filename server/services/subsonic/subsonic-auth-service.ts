import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Actor } from '../../auth/roles.js';
import { canWrite } from '../../auth/roles.js';
import type { LoginLimiter } from '../../auth/login-limiter.js';
import type { SecretBox } from '../../auth/secret-box.js';
import type { UsersRepo, UserRow } from '../../db/repos/users-repo.js';
import type { ApiKeyRow, SubsonicRepo } from '../../db/repos/subsonic-repo.js';
import { badRequest, conflict, forbidden, notFound } from '../../domain/errors.js';
import { SUBSONIC_CODES, SubsonicError, missingParameter } from './subsonic-error.js';

/** API keys start with this, so a key pasted where a password goes is recognisable. */
export const API_KEY_PREFIX = 'kps_';

const hashKey = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex');
const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');

/** The credentials a /rest request carries (query string or form body). */
export interface SubsonicCredentials {
  apiKey?: string;
  u?: string;
  p?: string;
  t?: string;
  s?: string;
}

export interface ApiKeyInfo {
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

const MIN_PASSWORD = 8;
const MAX_PASSWORD = 256;
const MAX_KEY_NAME = 64;

function equal(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** `p=enc:<hex>` is the password in hex (Subsonic's legacy obfuscation). */
function plainPassword(p: string): string | null {
  if (!p.startsWith('enc:')) return p;
  const hex = p.slice(4);
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(hex)) return null;
  return Buffer.from(hex, 'hex').toString('utf8');
}

/**
 * Who calls the Subsonic API (docs/API.md#subsonic-api): an OpenSubsonic API key (`apiKey`, stored as
 * its sha256), or the user name with the user's separate Subsonic password (`p`, `p=enc:` or the
 * salted md5 token `t` + `s`), kept sealed with the data dir's key. The login password is never
 * accepted here. Password checks are counted by the login limiter like logins.
 */
export class SubsonicAuthService {
  constructor(
    private readonly repo: SubsonicRepo,
    private readonly users: UsersRepo,
    private readonly box: SecretBox,
    private readonly limiter: LoginLimiter,
  ) {}

  // ----- credentials management (account page, CLI) ----------------------------------------------

  async createKey(actor: Actor, name: unknown): Promise<{ name: string; key: string }> {
    this.mayManage(actor);
    const n = typeof name === 'string' ? name.trim() : '';
    if (!n || n.length > MAX_KEY_NAME || /[\u0000-\u001f]/.test(n)) throw badRequest(`密钥名称不能为空，不能超过 ${MAX_KEY_NAME} 个字符`, { code: 'FIELD_INVALID', field: 'name' });
    const key = API_KEY_PREFIX + randomBytes(32).toString('base64url');
    if (!(await this.repo.createKey(actor.id, n, hashKey(key)))) throw conflict(`已有名为 ${n} 的 API 密钥`, { code: 'CONFLICT', field: 'name' });
    return { name: n, key };
  }

  async listKeys(actor: Actor): Promise<ApiKeyInfo[]> {
    return (await this.repo.listKeys(actor.id)).map((k: ApiKeyRow) => ({ name: k.name, createdAt: k.created_at, lastUsedAt: k.last_used_at }));
  }

  async revokeKey(actor: Actor, name: unknown): Promise<void> {
    this.mayManage(actor);
    if (typeof name !== 'string' || !(await this.repo.revokeKey(actor.id, name))) throw notFound(`没有名为 ${String(name)} 的 API 密钥`, { code: 'NOT_FOUND' });
  }

  async setPassword(actor: Actor, password: unknown): Promise<void> {
    this.mayManage(actor);
    if (typeof password !== 'string' || password.length < MIN_PASSWORD || password.length > MAX_PASSWORD) {
      throw badRequest(`Subsonic 密码长度须为 ${MIN_PASSWORD} 到 ${MAX_PASSWORD} 个字符`, { code: 'FIELD_INVALID', field: 'password' });
    }
    const user = await this.users.byId(actor.id);
    if (!user) throw notFound('用户不存在', { code: 'NOT_FOUND' });
    await this.repo.setSealedPassword(actor.id, this.box.seal(password));
  }

  async clearPassword(actor: Actor): Promise<boolean> {
    this.mayManage(actor);
    return this.repo.clearPassword(actor.id);
  }

  async hasPassword(actor: Actor): Promise<boolean> {
    return this.repo.hasPassword(actor.id);
  }

  /** Guests read and play with their account's credentials; making them is for users and admins. */
  private mayManage(actor: Actor): void {
    if (!canWrite(actor)) throw forbidden('游客账号不能创建 Subsonic 凭据.', { code: 'GUEST_READ_ONLY' });
  }

  // ----- authentication ----------------------------------------------------------------------------

  /** The user a request's credentials name, or a Subsonic error (40, 43, 44, 10; 0 with 429 when over the limit). */
  async authenticate(c: SubsonicCredentials, address: string): Promise<Actor> {
    if (c.apiKey !== undefined) {
      if (c.u !== undefined || c.p !== undefined || c.t !== undefined) throw new SubsonicError(SUBSONIC_CODES.conflictingAuth, 'Multiple conflicting authentication mechanisms provided');
      return this.byKey(c.apiKey, address);
    }
    if (c.u === undefined) throw missingParameter('u');
    if (c.p === undefined && (c.t === undefined || c.s === undefined)) throw missingParameter(c.t === undefined ? 'p' : 's');
    if (c.p !== undefined && c.t !== undefined) throw new SubsonicError(SUBSONIC_CODES.conflictingAuth, 'Multiple conflicting authentication mechanisms provided');
    const name = c.u.trim();
    const attempt = this.limiter.begin(address, name);
    if ('retryAfter' in attempt) return this.refuse(attempt.retryAfter);
    try {
      const user = await this.users.byName(name);
      const stored = user ? await this.repo.sealedPassword(user.id) : undefined;
      const password = stored === undefined ? null : this.box.open(stored);
      if (!user || password === null || !this.matches(password, c)) {
        attempt.failed();
        throw new SubsonicError(SUBSONIC_CODES.wrongCredentials, 'Wrong username or password');
      }
      return actorOf(user);
    } finally {
      attempt.release();
    }
  }

  private matches(password: string, c: SubsonicCredentials): boolean {
    if (c.p !== undefined) {
      const plain = plainPassword(c.p);
      return plain !== null && equal(plain, password);
    }
    return equal((c.t ?? '').toLowerCase(), md5(password + (c.s ?? '')));
  }

  private async byKey(key: string, address: string): Promise<Actor> {
    // keys cannot be guessed; failures are still counted per address so a scanner slows down
    const attempt = this.limiter.begin(address, `\u0000apikey:${address}`);
    if ('retryAfter' in attempt) return this.refuse(attempt.retryAfter);
    try {
      const row = key.startsWith(API_KEY_PREFIX) ? await this.repo.keyByHash(hashKey(key)) : undefined;
      const user = row ? await this.users.byId(row.user_id) : undefined;
      if (!row || !user) {
        attempt.failed();
        throw new SubsonicError(SUBSONIC_CODES.invalidApiKey, 'Invalid API key');
      }
      await this.repo.touchKey(row.id);
      return actorOf(user);
    } finally {
      attempt.release();
    }
  }

  private async refuse(retryAfter: number): Promise<never> {
    await sleep(this.limiter.limits.refusalPauseMs);
    throw new SubsonicError(SUBSONIC_CODES.generic, `Too many failed attempts, try again in ${retryAfter} s`, { 'Retry-After': String(retryAfter) }, 429);
  }
}

const actorOf = (u: UserRow): Actor => ({ id: u.id, name: u.name, role: u.role });
