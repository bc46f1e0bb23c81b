import { createSecretKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { Role } from './roles.js';
import { groupOfRole } from './roles.js';

const ISSUER = 'http://kikoeru';
const AUDIENCE = 'http://kikoeru/api';

export interface TokenClaims {
  sub: string; // user id
  name: string;
  group: string;
  role: Role;
  ver: number; // users.token_version at issue time
  exp?: number; // expiry, seconds since the epoch (set by jwt.sign)
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
  ) {
    this.key = createSecretKey(Buffer.from(secret, 'utf8'));
  }

  sign(user: { id: number; name: string; role: Role; token_version: number }): string {
    const claims: TokenClaims = { sub: String(user.id), name: user.name, group: groupOfRole(user.role), role: user.role, ver: user.token_version };
    return jwt.sign(claims, this.key, { algorithm: 'HS256', expiresIn: this.expiresInSeconds(), issuer: ISSUER, audience: AUDIENCE });
  }

  /** Verified claims, or an error message suitable for a 401. */
  verify(token: string): { ok: true; claims: TokenClaims } | { ok: false; message: string } {
    try {
      const decoded = jwt.verify(token, this.key, { algorithms: ['HS256'], issuer: ISSUER, audience: AUDIENCE });
      if (typeof decoded !== 'object' || decoded === null || typeof decoded.sub !== 'string') return { ok: false, message: 'invalid token' };
      return { ok: true, claims: decoded as unknown as TokenClaims };
    } catch (err) {
      return { ok: false, message: (err as Error).message };
    }
  }
}
