import { createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { Role } from './roles.js';
import { groupOfRole } from './roles.js';

const ISSUER = 'http://kikoeru';
const AUDIENCE = 'http://kikoeru/api';

/**
 * A media token lives at least this long (seconds) and at most one window more: its expiry is
 * rounded up to the next whole window, so every request in the same window gets the very same token
 * (media and cover URLs stay the same, and the browser's cache keeps serving them).
 */
export const MEDIA_TOKEN_MIN_SECONDS = 4 * 3600;
export const MEDIA_TOKEN_WINDOW_SECONDS = 3600;

/** A user's immutable identity in tokens (users.uid): 32 lower-case hex digits. */
const UID = /^[0-9a-f]{32}$/;

/** Claims of a login token (kikoeru clients read `name` and `group`). */
export interface LoginClaims {
  sub: string; // users.uid, never reused
  name: string;
  group: string;
  role: Role;
  ver: number; // users.token_version at issue time
  jti: string; // this token's id: a logout revokes it alone
  exp?: number; // seconds since the epoch (set by jwt.sign)
}

/** Claims of a media token: good only for media and covers, for a few hours. */
export interface MediaClaims {
  sub: string;
  ver: number;
  scope: 'media';
  sid: string; // jti of the login token it was made from: that login's logout revokes it too
  exp: number;
}

/** `sid`: the login's token id (a media token's is the login's it was made from); revoked by a logout. */
export interface VerifiedToken {
  kind: 'login' | 'media';
  uid: string;
  ver: number;
  sid: string;
  exp: number;
}

export interface TokenUser {
  uid: string;
  name: string;
  role: Role;
  token_version: number;
}

export class TokenService {
  /**
   * The secret as a key object, made once: given a string, jsonwebtoken first tries to read it as a
   * public key on every call, which costs milliseconds per request.
   */
  private readonly key: KeyObject;

  constructor(
    secret: string,
    private readonly expiresInSeconds: () => number,
    private readonly nowSeconds: () => number = () => Math.floor(Date.now() / 1000),
  ) {
    this.key = createSecretKey(Buffer.from(secret, 'utf8'));
  }

  /** A login token (lifetime: the `expiresIn` setting). */
  sign(user: TokenUser): string {
    const claims: LoginClaims = {
      sub: user.uid,
      name: user.name,
      group: groupOfRole(user.role),
      role: user.role,
      ver: user.token_version,
      jti: randomBytes(16).toString('base64url'),
    };
    return jwt.sign(claims, this.key, { algorithm: 'HS256', expiresIn: this.expiresInSeconds(), issuer: ISSUER, audience: AUDIENCE });
  }

  /** A media token made from a verified login token; it never outlives that token. */
  signMedia(login: VerifiedToken): { token: string; exp: number } {
    const now = this.nowSeconds();
    const window = Math.ceil((now + MEDIA_TOKEN_MIN_SECONDS) / MEDIA_TOKEN_WINDOW_SECONDS) * MEDIA_TOKEN_WINDOW_SECONDS;
    const exp = Math.min(window, login.exp);
    const claims: MediaClaims = { sub: login.uid, ver: login.ver, scope: 'media', sid: login.sid, exp };
    // no iat: the same login in the same window gets the same token
    const token = jwt.sign(claims, this.key, { algorithm: 'HS256', noTimestamp: true, issuer: ISSUER, audience: AUDIENCE });
    return { token, exp };
  }

  /**
   * Verified claims, or an error message suitable for a 401. Tokens of the old format (a numeric user
   * id, no token id) are refused: their holder logs in once more.
   */
  verify(token: string): { ok: true; token: VerifiedToken } | { ok: false; message: string } {
    let decoded: string | jwt.JwtPayload;
    try {
      decoded = jwt.verify(token, this.key, { algorithms: ['HS256'], issuer: ISSUER, audience: AUDIENCE });
    } catch (err) {
      return { ok: false, message: (err as Error).message };
    }
    if (typeof decoded !== 'object' || decoded === null) return { ok: false, message: 'invalid token' };
    const { sub, ver, exp } = decoded;
    if (typeof sub !== 'string' || !UID.test(sub) || typeof ver !== 'number' || typeof exp !== 'number') return { ok: false, message: '登录已失效，请重新登录' };
    const claims = decoded as Record<string, unknown>;
    if (claims.scope === 'media' && typeof claims.sid === 'string') return { ok: true, token: { kind: 'media', uid: sub, ver, sid: claims.sid, exp } };
    if (claims.scope === undefined && typeof claims.jti === 'string') return { ok: true, token: { kind: 'login', uid: sub, ver, sid: claims.jti, exp } };
    return { ok: false, message: '登录已失效，请重新登录' };
  }
}
