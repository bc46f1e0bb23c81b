import type { Database } from '../connection.js';

export interface WorkerTokenRow {
  id: number;
  name: string;
  created_at: string;
  last_used_at: string | null;
  revoked: number;
}

/** Long-lived transcription worker credentials (only their sha256 is stored). */
export class WorkerTokensRepo {
  constructor(private readonly db: Database) {}

  list(): Promise<WorkerTokenRow[]> {
    return this.db.all<WorkerTokenRow>('SELECT id, name, created_at, last_used_at, revoked FROM worker_tokens ORDER BY revoked, name');
  }

  byName(name: string): Promise<WorkerTokenRow | undefined> {
    return this.db.get<WorkerTokenRow>('SELECT id, name, created_at, last_used_at, revoked FROM worker_tokens WHERE name = ?', [name]);
  }

  /** The active token with this hash. */
  activeByHash(tokenHash: string): Promise<WorkerTokenRow | undefined> {
    return this.db.get<WorkerTokenRow>('SELECT id, name, created_at, last_used_at, revoked FROM worker_tokens WHERE token_hash = ? AND revoked = 0', [tokenHash]);
  }

  /**
   * Store a new token under `name`. A revoked token of the same name is replaced; an active one is kept
   * and `false` returned.
   */
  create(name: string, tokenHash: string, now: string): Promise<boolean> {
    return this.db.tx(async (w) => {
      const existing = await w.get<{ revoked: number }>('SELECT revoked FROM worker_tokens WHERE name = ?', [name]);
      if (existing && !existing.revoked) return false;
      if (existing) await w.run('DELETE FROM worker_tokens WHERE name = ?', [name]);
      await w.run('INSERT INTO worker_tokens (name, token_hash, created_at) VALUES (?, ?, ?)', [name, tokenHash, now]);
      return true;
    });
  }

  /** Revoke the active token of `name`. False when there is none. */
  async revoke(name: string): Promise<boolean> {
    return (await this.db.run('UPDATE worker_tokens SET revoked = 1 WHERE name = ? AND revoked = 0', [name])).changes > 0;
  }

  async touch(id: number, now: string): Promise<void> {
    await this.db.run('UPDATE worker_tokens SET last_used_at = ? WHERE id = ?', [now, id]);
  }
}
