import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Actor } from '../../auth/roles.js';
import { canWrite, isAdmin } from '../../auth/roles.js';
import type { LoginLimiter } from '../../auth/login-limiter.js';
import type { SecretBox } from '../../auth/secret-box.js';
import type { UsersRepo, UserRow } from '../../db/repos/users-repo.js';
import type { ApiKeyRow, SubsonicRepo } from '../../db/repos/subsonic-repo.js';
import { StampedCache } from '../../db/stamped-cache.js';
import { badRequest, conflict, forbidden, notFound } from '../../domain/errors.js';
import { SUBSONIC_CODES, SubsonicError, missingParameter } from './subsonic-error.js';
import { hasControlChars } from '../../domain/text-rules.js';

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
/** Credentials of no user are looked up again each time (a user may be made at any moment). */
const KEEP_FOUND = { keep: (found: { user: UserRow | undefined }) => found.user !== undefined };

export class SubsonicAuthService {
  /** When this process last recorded each key's use. */
  private readonly touched = new Map<number, number>();
  /**
   * Credentials checked recently (by key hash, or by user name with the opened Subsonic password): apps
   * send a request per cover and per range, and while nothing was committed the lookups would answer
   * the same. Only found users are kept.
   */
  private readonly recent = new StampedCache<string, { user: UserRow | undefined; keyId?: number; password?: string | null }>(() => this.users.changeStamp());

  constructor(
    private readonly repo: SubsonicRepo,
    private readonly users: UsersRepo,
    private readonly box: SecretBox,
    private readonly limiter: LoginLimiter,
  ) {}

  // ----- credentials management (account page, CLI) ----------------------------------------------

  /**
   * Make an API key named `name`; returned once, only its hash is kept. `forUser`: an admin acting for
   * another account (the CLI), guests included; without it the actor's own, which guests may not make.
   */
  async createKey(actor: Actor, name: unknown, forUser?: string): Promise<{ name: string; key: string }> {
    const user = await this.target(actor, forUser);
    const n = typeof name === 'string' ? name.trim() : '';
    if (!n || n.length > MAX_KEY_NAME || hasControlChars(n)) throw badRequest(`密钥名称不能为空，不能超过 ${MAX_KEY_NAME} 个字符`, { code: 'FIELD_INVALID', field: 'name' });
    const key = API_KEY_PREFIX + randomBytes(32).toString('base64url');
    if (!(await this.repo.createKey(user.id, n, hashKey(key)))) throw conflict(`已有名为 ${n} 的 API 密钥`, { code: 'CONFLICT', field: 'name' });
    return { name: n, key };
  }

  async listKeys(actor: Actor, forUser?: string): Promise<ApiKeyInfo[]> {
    const user = await this.target(actor, forUser, false);
    return (await this.repo.listKeys(user.id)).map((k: ApiKeyRow) => ({ name: k.name, createdAt: k.created_at, lastUsedAt: k.last_used_at }));
  }

  async revokeKey(actor: Actor, name: unknown, forUser?: string): Promise<void> {
    const user = await this.target(actor, forUser, false);
    if (typeof name !== 'string' || !(await this.repo.revokeKey(user.id, name))) throw notFound('没有这个名字的 API 密钥', { code: 'NOT_FOUND' });
  }

  /** Set the Subsonic password (stored sealed: the token form needs it back). */
  async setPassword(actor: Actor, password: unknown, forUser?: string): Promise<void> {
    const user = await this.target(actor, forUser);
    if (typeof password !== 'string' || password.length < MIN_PASSWORD || password.length > MAX_PASSWORD) {
      throw badRequest(`Subsonic 密码长度须为 ${MIN_PASSWORD} 到 ${MAX_PASSWORD} 个字符`, { code: 'FIELD_INVALID', field: 'password' });
    }
    await this.repo.setSealedPassword(user.id, this.box.seal(password));
  }

  /** Remove the Subsonic password: only API keys work then. False when there was none. */
  async clearPassword(actor: Actor, forUser?: string): Promise<boolean> {
    const user = await this.target(actor, forUser, false);
    return this.repo.clearPassword(user.id);
  }

  async hasPassword(actor: Actor, forUser?: string): Promise<boolean> {
    const user = await this.target(actor, forUser, false);
    return this.repo.hasPassword(user.id);
  }

  /**
   * Whose credentials: another user's only for an admin; one's own, where `making` refuses guests
   * (a guest account is often shared: an admin makes its credentials).
   */
  private async target(actor: Actor, forUser: string | undefined, making = true): Promise<{ id: number }> {
    if (forUser !== undefined && isAdmin(actor)) {
      const user = await this.users.byName(forUser);
      if (!user) throw notFound('用户不存在', { code: 'USER_NOT_FOUND' });
      return user;
    }
    if (forUser !== undefined && forUser !== actor.name) throw forbidden('只有管理员能管理其他用户的 Subsonic 凭据.', { code: 'ADMIN_ONLY' });
    if (making && !canWrite(actor)) throw forbidden('游客账号不能创建 Subsonic 凭据.', { code: 'GUEST_READ_ONLY' });
    return actor;
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
      const { user, password } = await this.recent.get(
        `u\u0000${name}`,
        async () => {
          const user = await this.users.byName(name);
          const stored = user ? await this.repo.sealedPassword(user.id) : undefined;
          return { user, password: stored === undefined ? null : this.box.open(stored) };
        },
        KEEP_FOUND,
      );
      if (!user || password == null || !this.matches(password, c)) {
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
      const { user, keyId } = key.startsWith(API_KEY_PREFIX)
        ? await this.recent.get(
            `k\u0000${hashKey(key)}`,
            async () => {
              const row = await this.repo.keyByHash(hashKey(key));
              return { user: row ? await this.users.byId(row.user_id) : undefined, keyId: row?.id };
            },
            KEEP_FOUND,
          )
        : { user: undefined, keyId: undefined };
      if (!user || keyId === undefined) {
        attempt.failed();
        throw new SubsonicError(SUBSONIC_CODES.invalidApiKey, 'Invalid API key');
      }
      // a key's last use is written at most once a minute (apps send a request per cover and range)
      const now = Date.now();
      if ((this.touched.get(keyId) ?? 0) < now - 60_000) {
        if (this.touched.size >= 10_000) this.touched.clear();
        this.touched.set(keyId, now);
        await this.repo.touchKey(keyId);
      }
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
