import { setTimeout as sleep } from 'node:timers/promises';
import { AppError, isAppError, forbidden, notFound, unauthorized, validationFailed, type FieldError } from '../domain/errors.js';
import { hashPassword, needsRehash, randomPassword, verifyPassword } from '../auth/password.js';
import { groupOfRole, isAdmin, ROLES, type Actor, type Role } from '../auth/roles.js';
import type { TokenService, VerifiedToken } from '../auth/tokens.js';
import type { LoginLimiter } from '../auth/login-limiter.js';
import type { UsersRepo, UserRow } from '../db/repos/users-repo.js';
import { TAKEN } from '../db/unique.js';
import type { RevokedTokensRepo } from '../db/repos/revoked-tokens-repo.js';
import { StampedCache } from '../db/stamped-cache.js';
import { isLocale, LOCALES, type Locale } from '../domain/locales.js';
import { hasControlChars, hasFormatChars, nameKey } from '../domain/text-rules.js';

export const MSG = {
  // the name is not repeated: error bodies never echo input
  userNotFound: '用户不存在.',
  nameTooShort: '用户名长度至少为 5',
  passwordTooShort: '密码长度至少为 5',
  badGroup: "用户组名称必须为 ['user', 'guest', 'administrator'] 的一个.",
  nameTaken: '该名称已存在，用户名不能重复',
  wrongCredentials: '用户名或密码错误.',
  tooManyAttempts: '登录失败次数过多，请稍后再试',
  sessionExpired: '登录已失效，请重新登录',
  mediaTokenOnly: '媒体令牌只能用于播放媒体和加载封面',
  currentPasswordMissing: '请输入当前密码',
  currentPasswordWrong: '当前密码错误.',
  guestPassword: '游客账号不能修改密码.',
  guestLogoutAll: '游客账号不能退出所有设备的登录.',
  authDisabled: '服务器未开启登录验证，没有账号可管理.',
} as const;

export interface AuthenticateOptions {
  /** Accept a media token (only the media and cover routes do). */
  allowMediaScope?: boolean;
}

export interface PublicUser {
  name: string;
  group: string;
  role: Role;
  created_at: string;
}

export const publicUser = (u: UserRow): PublicUser => ({ name: u.name, group: groupOfRole(u.role), role: u.role, created_at: u.created_at });

/** A resolved token is reused only until it expires. */
const UNEXPIRED = { usable: (hit: { expiresAt: number }, now: number) => now < hit.expiresAt };

const MIN_LEN = 5;
const MAX_NAME = 64;
const MAX_PASSWORD = 1024;

function checkName(name: unknown, fields: FieldError[]): name is string {
  if (typeof name !== 'string' || name.trim().length < MIN_LEN) {
    fields.push({ msg: MSG.nameTooShort, param: 'name', location: 'body', code: 'USERNAME_TOO_SHORT', params: { min: MIN_LEN } });
    return false;
  }
  if (name.length > MAX_NAME || hasControlChars(name) || /[/\\]/.test(name)) {
    fields.push({ msg: `用户名不能超过 ${MAX_NAME} 个字符，且不能包含控制字符或斜杠`, param: 'name', location: 'body', code: 'USERNAME_INVALID', params: { max: MAX_NAME } });
    return false;
  }
  return true;
}

/**
 * A name for a new account: checkName's rules, and no invisible format characters (a login still takes
 * the names stored before this rule).
 */
function checkNewName(name: unknown, fields: FieldError[]): name is string {
  if (!checkName(name, fields)) return false;
  if (hasFormatChars(name)) {
    fields.push({ msg: '用户名不能包含不可见的格式字符（如零宽空格）', param: 'name', location: 'body', code: 'USERNAME_INVALID', params: { max: MAX_NAME } });
    return false;
  }
  return true;
}

function checkPassword(password: unknown, param: string, fields: FieldError[]): password is string {
  if (typeof password !== 'string' || password.length < MIN_LEN) {
    fields.push({ msg: MSG.passwordTooShort, param, location: 'body', code: 'PASSWORD_TOO_SHORT', params: { min: MIN_LEN } });
    return false;
  }
  if (password.length > MAX_PASSWORD) {
    fields.push({ msg: `密码长度不能超过 ${MAX_PASSWORD}`, param, location: 'body', code: 'PASSWORD_TOO_LONG', params: { max: MAX_PASSWORD } });
    return false;
  }
  return true;
}

export class UsersService {
  constructor(
    private readonly users: UsersRepo,
    private readonly revoked: RevokedTokensRepo,
    private readonly tokens: TokenService,
    private readonly limiter: LoginLimiter,
  ) {}

  /**
   * POST /api/auth/me. Types and lengths are checked first; the attempt is counted (per address and
   * per name) before any hashing; an unknown name verifies a dummy hash so it costs what a known one
   * does; a password stored with a cheaper scrypt cost is re-hashed at the current one.
   */
  async login(name: unknown, password: unknown, address: string): Promise<{ token: string; user: PublicUser }> {
    const fields: FieldError[] = [];
    checkName(name, fields);
    checkPassword(password, 'password', fields);
    if (fields.length) throw validationFailed(fields);
    const n = (name as string).trim();
    const attempt = this.limiter.begin(address, n);
    if ('retryAfter' in attempt) return this.refuse(attempt.retryAfter);
    let user: UserRow | undefined;
    try {
      user = await this.users.byName(n);
      const ok = await this.verifyPaced(password as string, user?.password_hash);
      if (!user || !ok) {
        attempt.failed();
        throw unauthorized(MSG.wrongCredentials, { code: 'WRONG_CREDENTIALS' });
      }
    } finally {
      attempt.release();
    }
    if (needsRehash(user.password_hash)) await this.rehash(user, password as string);
    return { token: this.tokens.sign(user), user: publicUser(user) };
  }

  /** A password attempt over the limiter's count: 429 with Retry-After, answered after the pause. */
  private async refuse(retryAfter: number): Promise<never> {
    await sleep(this.limiter.limits.refusalPauseMs);
    throw new AppError('too_many_requests', `${MSG.tooManyAttempts}（${retryAfter} 秒后）`, {
      code: 'TOO_MANY_ATTEMPTS',
      params: { seconds: retryAfter },
      headers: { 'Retry-After': String(retryAfter) },
    });
  }

  /**
   * Verify a password; a full hash queue (503) is answered after the limiter's pause too. Such an
   * attempt is not counted (it reached no verdict), so without the pause a guesser would get busy
   * answers as fast as it can ask.
   */
  private async verifyPaced(password: string, hash: string | undefined): Promise<boolean> {
    try {
      return await verifyPassword(password, hash);
    } catch (err) {
      if (isAppError(err) && err.kind === 'unavailable') await sleep(this.limiter.limits.refusalPauseMs);
      throw err;
    }
  }

  /**
   * Store the password again at the current cost. Best effort: a busy hash queue or database leaves
   * the old hash, which still verifies, for the next login; a concurrent password change wins.
   */
  private async rehash(user: UserRow, password: string): Promise<void> {
    try {
      await this.users.replacePasswordHash(user.id, user.password_hash, await hashPassword(password));
    } catch {
      // the login itself succeeded
    }
  }

  /**
   * Tokens resolved recently: every request carries a token, and while no process has committed
   * anything the signature check and the user lookup would give the same answer again. Never used past
   * the token's expiry.
   */
  private readonly resolved = new StampedCache<string, { actor: Actor; kind: VerifiedToken['kind']; expiresAt: number }>(() => this.users.changeStamp());

  /**
   * Resolve a bearer token to the acting user. Refused (401): bad or expired tokens, tokens of a
   * deleted user or of the old format, tokens issued before a password or role change, tokens
   * revoked by a logout, and media tokens unless `allowMediaScope`.
   */
  async authenticate(token: string, opts: AuthenticateOptions = {}): Promise<Actor> {
    const found = await this.resolved.get(
      token,
      async () => {
        const { token: claims, user } = await this.verify(token);
        return { actor: { id: user.id, name: user.name, role: user.role }, kind: claims.kind, expiresAt: claims.exp * 1000 };
      },
      UNEXPIRED,
    );
    if (found.kind === 'media' && !opts.allowMediaScope) throw unauthorized(MSG.mediaTokenOnly, { code: 'MEDIA_TOKEN_ONLY' });
    return found.actor;
  }

  /** A token's claims and its user, when the token is still good (any scope). */
  private async verify(token: string): Promise<{ token: VerifiedToken; user: UserRow }> {
    const result = this.tokens.verify(token);
    if (!result.ok) throw unauthorized(result.message, { code: 'SESSION_EXPIRED' });
    const user = await this.users.byUid(result.token.uid);
    if (!user || user.token_version !== result.token.ver || (await this.revoked.isRevoked(result.token.sid))) throw unauthorized(MSG.sessionExpired, { code: 'SESSION_EXPIRED' });
    return { token: result.token, user };
  }

  /** A login token, verified (a media token is refused). */
  private async verifyLogin(token: string): Promise<VerifiedToken> {
    const { token: verified } = await this.verify(token);
    if (verified.kind !== 'login') throw unauthorized(MSG.mediaTokenOnly, { code: 'MEDIA_TOKEN_ONLY' });
    return verified;
  }

  /**
   * GET /api/auth/media-token: a token for media and cover URLs, made from the caller's login token.
   * It names the same user, is refused everywhere else, and is revoked with its login.
   */
  async mediaToken(loginToken: string): Promise<{ token: string; expiresAt: string }> {
    const { token, exp } = this.tokens.signMedia(await this.verifyLogin(loginToken));
    return { token, expiresAt: new Date(exp * 1000).toISOString() };
  }

  /** POST /api/auth/logout: revoke this login token (and the media tokens made from it), nothing else. */
  async logout(loginToken: string): Promise<void> {
    const verified = await this.verifyLogin(loginToken);
    await this.revoked.revoke(verified.sid, verified.exp, Math.floor(Date.now() / 1000));
    this.resolved.clear();
  }

  /** The admin every request acts as when auth is off. */
  async anonymousAdmin(): Promise<Actor> {
    const admin = await this.ensureAdmin();
    return { id: admin.user.id, name: admin.user.name, role: 'admin' };
  }

  /**
   * Make sure an admin exists. On first start creates `admin` with a random password, returned once
   * so the caller can show it.
   */
  async ensureAdmin(): Promise<{ user: UserRow; createdPassword?: string }> {
    const existing = await this.users.firstAdmin();
    if (existing) return { user: existing };
    const password = randomPassword();
    const name = (await this.users.byName('admin')) ? `admin${Date.now() % 100000}` : 'admin';
    // a generated password: the web app asks the admin to change it until they do
    await this.users.create(name, await hashPassword(password), 'admin', { mustChangePassword: true });
    const user = (await this.users.byName(name))!;
    return { user, createdPassword: password };
  }

  /** The interface language the acting user saved (GET /api/auth/me), or null. */
  async localeOf(actor: Actor): Promise<Locale | null> {
    return (await this.users.byId(actor.id))?.locale ?? null;
  }

  /**
   * What GET /api/auth/me tells about the acting user's account: the saved interface language, and
   * whether their password is still the one the server generated (the web app asks for a change).
   */
  async accountOf(actor: Actor): Promise<{ locale: Locale | null; mustChangePassword: boolean }> {
    const user = await this.users.byId(actor.id);
    return { locale: user?.locale ?? null, mustChangePassword: user?.must_change_password === 1 };
  }

  /**
   * PUT /api/auth/me/password `{ current, password }`: a user or admin changes their own password with
   * the current one (counted by the login limiter, like a login). Every token of the user issued
   * before stops working (all devices are logged out); the answer carries a new login token for the
   * caller. Guests cannot (403).
   */
  async changeOwnPassword(actor: Actor, input: { current?: unknown; password?: unknown }, address: string): Promise<{ token: string }> {
    if (actor.role === 'guest') throw forbidden(MSG.guestPassword, { code: 'GUEST_PASSWORD' });
    const fields: FieldError[] = [];
    checkPassword(input.password, 'password', fields);
    if (fields.length) throw validationFailed(fields);
    const user = await this.users.byId(actor.id);
    if (!user) throw unauthorized(MSG.sessionExpired, { code: 'SESSION_EXPIRED' });
    await this.checkCurrentPassword(user, input.current, address, 'current');
    await this.users.setPassword(user.id, await hashPassword(input.password as string));
    this.resolved.clear();
    const updated = await this.users.byId(user.id);
    if (!updated) throw unauthorized(MSG.sessionExpired, { code: 'SESSION_EXPIRED' });
    return { token: this.tokens.sign(updated) };
  }

  /**
   * POST /api/auth/me/logout-all: every login and media token of the acting user stops working, on
   * every device, this one included (the token version goes up). Guests cannot: a guest account is
   * often shared, and one guest would log all the others out.
   */
  async logoutEverywhere(actor: Actor): Promise<void> {
    if (actor.role === 'guest') throw forbidden(MSG.guestLogoutAll, { code: 'GUEST_LOGOUT_ALL' });
    await this.users.revokeTokens(actor.id);
    this.resolved.clear();
  }

  /** PUT /api/auth/me/locale: any logged-in user (guests too) saves their own interface language. */
  async setLocale(actor: Actor, locale: unknown): Promise<Locale> {
    if (!isLocale(locale)) throw new AppError('bad_request', `locale 必须为 ${LOCALES.join(' / ')} 之一.`, { code: 'FIELD_INVALID', field: 'locale' });
    await this.users.setLocale(actor.id, locale);
    return locale;
  }

  async list(actor: Actor): Promise<PublicUser[]> {
    if (!isAdmin(actor)) throw forbidden('只有 admin 账号能浏览用户.', { code: 'ADMIN_ONLY' });
    return (await this.users.list()).map(publicUser);
  }

  /**
   * POST /api/credentials/user and `kikoplay user add`: an admin creates a user, guest or admin. The web
   * sends kikoeru's `group` (user / guest / administrator, `admin` too); the terminal says `role`.
   * Validation runs before the permission check (kikoeru's order). `opts.allowAdmin` (the terminal,
   * whose option is `--role`): a wrong value is said as a role (ROLE_INVALID), not as a group.
   */
  async create(actor: Actor, input: { name?: unknown; password?: unknown; group?: unknown }, opts: { allowAdmin?: boolean } = {}): Promise<PublicUser> {
    const fields: FieldError[] = [];
    checkNewName(input.name, fields);
    checkPassword(input.password, 'password', fields);
    const group = input.group === 'administrator' ? 'admin' : input.group;
    if (typeof group !== 'string' || !(ROLES as readonly string[]).includes(group)) {
      fields.push({ msg: opts.allowAdmin ? `角色必须为 ${ROLES.join(' / ')} 之一.` : MSG.badGroup, param: 'group', location: 'body', code: opts.allowAdmin ? 'ROLE_INVALID' : 'GROUP_INVALID' });
    }
    if (fields.length) throw validationFailed(fields);
    if (!isAdmin(actor)) throw forbidden('只有 admin 账号能创建新用户.', { code: 'ADMIN_ONLY' });
    const name = (input.name as string).trim();
    const taken = () => validationFailed([{ msg: MSG.nameTaken, param: 'name', location: 'body', code: 'NAME_TAKEN' }]);
    // checked before the slow hash, and decided by the insert: a parallel creation may take the name meanwhile
    if (await this.users.byName(name)) throw taken();
    // a name equal to a stored one under NFKC and case folding is taken too (stored names stay as they are)
    const key = nameKey(name);
    const id = await this.users.create(name, await hashPassword(input.password as string), group as Role, { clashes: (stored) => nameKey(stored) === key });
    if (id === TAKEN) throw taken();
    const user = await this.users.byId(id);
    if (!user) throw notFound(MSG.userNotFound, { code: 'USER_NOT_FOUND' });
    return publicUser(user);
  }

  /**
   * PUT /api/credentials/user `{ name, newPassword, currentPassword }`: the admin sets anyone's password
   * (another user's without theirs), a user only their own; changing one's own password takes the
   * current one; guests change none. Revokes the user's tokens. `address` keys the brute-force brake.
   */
  async changePassword(actor: Actor, input: { name?: unknown; newPassword?: unknown; currentPassword?: unknown }, address = ''): Promise<void> {
    if (actor.role === 'guest') throw forbidden(MSG.guestPassword, { code: 'GUEST_PASSWORD' });
    const fields: FieldError[] = [];
    if (typeof input.name !== 'string' || !input.name.trim()) fields.push({ msg: MSG.nameTooShort, param: 'name', location: 'body', code: 'USERNAME_TOO_SHORT', params: { min: MIN_LEN } });
    checkPassword(input.newPassword, 'newPassword', fields);
    if (fields.length) throw validationFailed(fields);
    const name = (input.name as string).trim();
    if (!isAdmin(actor) && actor.name !== name) throw forbidden('只能修改自己账号的密码.', { code: 'OWN_PASSWORD_ONLY' });
    const user = await this.users.byName(name);
    if (!user) throw notFound(MSG.userNotFound, { code: 'USER_NOT_FOUND' });
    if (user.id === actor.id) await this.checkCurrentPassword(user, input.currentPassword, address);
    await this.users.setPassword(user.id, await hashPassword(input.newPassword as string));
  }

  private async checkCurrentPassword(user: UserRow, current: unknown, address: string, param = 'currentPassword'): Promise<void> {
    if (typeof current !== 'string' || current === '') {
      throw validationFailed([{ msg: MSG.currentPasswordMissing, param, location: 'body', code: 'CURRENT_PASSWORD_REQUIRED' }]);
    }
    // counted like a login attempt, before hashing: the same brake on guessing
    const attempt = this.limiter.begin(address, user.name);
    if ('retryAfter' in attempt) return this.refuse(attempt.retryAfter);
    try {
      if (current.length > MAX_PASSWORD || !(await this.verifyPaced(current, user.password_hash))) {
        attempt.failed();
        throw forbidden(MSG.currentPasswordWrong, { code: 'CURRENT_PASSWORD_WRONG', field: param });
      }
    } finally {
      attempt.release();
    }
  }

  async setRole(actor: Actor, name: unknown, role: unknown): Promise<PublicUser> {
    if (!isAdmin(actor)) throw forbidden('只有 admin 账号能修改用户角色.', { code: 'ADMIN_ONLY' });
    // a string only: String(["alice"]) would be "alice"
    if (typeof name !== 'string' || name === '') throw new AppError('bad_request', '参数 name 必须是用户名字符串.', { code: 'FIELD_INVALID', field: 'name' });
    if (typeof role !== 'string' || !(ROLES as readonly string[]).includes(role)) throw new AppError('bad_request', `角色必须为 ${ROLES.join(' / ')} 之一.`, { code: 'ROLE_INVALID', field: 'role' });
    const user = await this.users.byName(name);
    const gone = () => notFound(MSG.userNotFound, { code: 'USER_NOT_FOUND' });
    if (!user) throw gone();
    // the admin count is read in the write's transaction: two admins demoting each other at once leave one
    const result = await this.users.setRole(user.id, role as Role, { keepAnAdmin: true });
    if (result === 'last-admin') throw forbidden('不能取消最后一个管理员的管理员身份.', { code: 'LAST_ADMIN_ROLE' });
    const updated = result === 'done' ? await this.users.byId(user.id) : undefined;
    if (!updated) throw gone();
    return publicUser(updated);
  }

  /** DELETE /api/credentials/user with `{ users: [{ name }] }`. */
  async delete(actor: Actor, names: string[]): Promise<number> {
    if (!isAdmin(actor)) throw forbidden('只有 admin 账号能删除用户.', { code: 'ADMIN_ONLY' });
    const all = await this.users.list();
    // by id, not name: the terminal's actor (id 0, "(terminal)") is no account, whatever the accounts are called
    if (all.some((u) => u.id === actor.id && names.includes(u.name))) throw forbidden('不能删除当前登录的账号.', { code: 'SELF_DELETE' });
    const unknown = names.filter((n) => !all.some((u) => u.name === n));
    if (unknown.length) throw notFound(MSG.userNotFound, { code: 'USER_NOT_FOUND' });
    const lastAdmin = () => forbidden('不能删除最后一个管理员账号.', { code: 'LAST_ADMIN_DELETE' });
    // only a deletion that removes an admin can remove the last one (a library with no admin yet can still lose users)
    const removesAdmin = all.some((u) => u.role === 'admin' && names.includes(u.name));
    if (removesAdmin && !all.some((u) => u.role === 'admin' && !names.includes(u.name))) throw lastAdmin();
    // counted again in the deletion's transaction: two admins deleting each other at once leave one
    const deleted = await this.users.deleteByNames(names, { keepAnAdmin: removesAdmin });
    if (deleted === 'last-admin') throw lastAdmin();
    return deleted;
  }
}
