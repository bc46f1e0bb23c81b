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
}

export class TokenService {
  constructor(
    private readonly secret: string,
    private readonly expiresInSeconds: () => number,
  ) {}

  sign(user: { id: number; name: string; role: Role; token_version: number }): string {
    const claims: TokenClaims = { sub: String(user.id), name: user.name, group: groupOfRole(user.role), role: user.role, ver: user.token_version };
    return jwt.sign(claims, this.secret, { algorithm: 'HS256', expiresIn: this.expiresInSeconds(), issuer: ISSUER, audience: AUDIENCE });
  }

  /** Verified claims, or an error message suitable for a 401. */
  verify(token: string): { ok: true; claims: TokenClaims } | { ok: false; message: string } {
    try {
      const decoded = jwt.verify(token, this.secret, { algorithms: ['HS256'], issuer: ISSUER, audience: AUDIENCE });
      if (typeof decoded !== 'object' || decoded === null || typeof decoded.sub !== 'string') return { ok: false, message: 'invalid token' };
      return { ok: true, claims: decoded as unknown as TokenClaims };
    } catch (err) {
      return { ok: false, message: (err as Error).message };
    }
  }
}
