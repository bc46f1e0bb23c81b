import type { Database } from '../connection.js';
import { sqlNow } from '../../domain/time.js';

export interface ApiKeyRow {
  id: number;
  user_id: number;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

export type StarKind = 'album' | 'song' | 'artist';

/** Subsonic credentials (API keys by hash, sealed Subsonic passwords) and the users' stars. */
export class SubsonicRepo {
  constructor(private readonly db: Database) {}

  /** Store a key under `name` for the user; false when the user already has a key of that name. */
  async createKey(userId: number, name: string, keyHash: string): Promise<boolean> {
    const r = await this.db.run('INSERT OR IGNORE INTO subsonic_api_keys (user_id, name, key_hash) VALUES (?, ?, ?)', [userId, name, keyHash]);
    return r.changes > 0;
  }

  listKeys(userId: number): Promise<ApiKeyRow[]> {
    return this.db.all<ApiKeyRow>('SELECT id, user_id, name, created_at, last_used_at FROM subsonic_api_keys WHERE user_id = ? ORDER BY name', [userId]);
  }

  async revokeKey(userId: number, name: string): Promise<boolean> {
    return (await this.db.run('DELETE FROM subsonic_api_keys WHERE user_id = ? AND name = ?', [userId, name])).changes > 0;
  }

  keyByHash(keyHash: string): Promise<ApiKeyRow | undefined> {
    return this.db.get<ApiKeyRow>('SELECT id, user_id, name, created_at, last_used_at FROM subsonic_api_keys WHERE key_hash = ?', [keyHash]);
  }

  /** Record a key's use (at most once a minute per key, so streaming does not write on every range). */
  async touchKey(id: number): Promise<void> {
    const now = sqlNow();
    await this.db.run("UPDATE subsonic_api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < strftime('%Y-%m-%d %H:%M:%S', 'now', '-1 minute'))", [now, id]);
  }

  async sealedPassword(userId: number): Promise<string | undefined> {
    return (await this.db.get<{ secret: string }>('SELECT secret FROM subsonic_passwords WHERE user_id = ?', [userId]))?.secret;
  }

  async setSealedPassword(userId: number, sealed: string): Promise<void> {
    await this.db.run('INSERT INTO subsonic_passwords (user_id, secret, updated_at) VALUES (?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET secret = excluded.secret, updated_at = excluded.updated_at', [
      userId,
      sealed,
      sqlNow(),
    ]);
  }

  async clearPassword(userId: number): Promise<boolean> {
    return (await this.db.run('DELETE FROM subsonic_passwords WHERE user_id = ?', [userId])).changes > 0;
  }

  async hasPassword(userId: number): Promise<boolean> {
    return (await this.sealedPassword(userId)) !== undefined;
  }

  async star(userId: number, kind: StarKind, item: string): Promise<void> {
    await this.db.run('INSERT OR IGNORE INTO subsonic_stars (user_id, kind, item, created_at) VALUES (?, ?, ?, ?)', [userId, kind, item, sqlNow()]);
  }

  async unstar(userId: number, kind: StarKind, item: string): Promise<void> {
    await this.db.run('DELETE FROM subsonic_stars WHERE user_id = ? AND kind = ? AND item = ?', [userId, kind, item]);
  }

  /** The user's stars of one kind, newest first. */
  starred(userId: number, kind: StarKind, limit = 5000): Promise<{ item: string; created_at: string }[]> {
    return this.db.all('SELECT item, created_at FROM subsonic_stars WHERE user_id = ? AND kind = ? ORDER BY created_at DESC, item LIMIT ?', [userId, kind, limit]);
  }

  async circleExists(id: number): Promise<boolean> {
    return (await this.db.get('SELECT 1 AS x FROM circles WHERE id = ?', [id])) !== undefined;
  }
}
