import type { Database } from '../connection.js';

/** Ids of tokens revoked by a logout, kept until the token would have expired anyway. */
export class RevokedTokensRepo {
  constructor(private readonly db: Database) {}

  async isRevoked(jti: string): Promise<boolean> {
    return (await this.db.get('SELECT 1 AS x FROM revoked_tokens WHERE jti = ?', [jti])) !== undefined;
  }

  /** Revoke `jti` until `expiresAt` (seconds since the epoch); rows past their expiry go at the same time. */
  async revoke(jti: string, expiresAt: number, nowSeconds: number): Promise<void> {
    await this.db.tx(async (w) => {
      await w.run('DELETE FROM revoked_tokens WHERE expires_at < ?', [nowSeconds]);
      await w.run('INSERT OR REPLACE INTO revoked_tokens (jti, expires_at) VALUES (?, ?)', [jti, expiresAt]);
    });
  }
}
