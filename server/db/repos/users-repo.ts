import type { Database } from '../connection.js';
import type { Role } from '../../auth/roles.js';
import type { Locale } from '../../domain/locales.js';
import { sqlNow } from '../../domain/time.js';

export interface UserRow {
  id: number;
  /** Names the user in tokens: random, never reused. */
  uid: string;
  name: string;
  password_hash: string;
  role: Role;
  token_version: number;
  created_at: string;
  updated_at: string;
  /** The web app's interface language the user chose; null until they choose one. */
  locale: Locale | null;
}

export class UsersRepo {
  constructor(private readonly db: Database) {}

  byName(name: string): Promise<UserRow | undefined> {
    return this.db.get<UserRow>('SELECT * FROM users WHERE name = ?', [name]);
  }

  /** See Database.changeStamp: unchanged means no process has committed anything since. */
  changeStamp(): string | null {
    return this.db.changeStamp();
  }

  byId(id: number): Promise<UserRow | undefined> {
    return this.db.get<UserRow>('SELECT * FROM users WHERE id = ?', [id]);
  }

  byUid(uid: string): Promise<UserRow | undefined> {
    return this.db.get<UserRow>('SELECT * FROM users WHERE uid = ?', [uid]);
  }

  list(): Promise<UserRow[]> {
    return this.db.all<UserRow>("SELECT * FROM users ORDER BY CASE role WHEN 'admin' THEN 0 WHEN 'user' THEN 1 ELSE 2 END, name");
  }

  async countByRole(role: Role): Promise<number> {
    const row = await this.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM users WHERE role = ?', [role]);
    return row?.n ?? 0;
  }

  async firstAdmin(): Promise<UserRow | undefined> {
    return (await this.db.get<UserRow>("SELECT * FROM users WHERE role = 'admin' AND name = 'admin'")) ?? this.db.get<UserRow>("SELECT * FROM users WHERE role = 'admin' ORDER BY id LIMIT 1");
  }

  async create(name: string, passwordHash: string, role: Role): Promise<number> {
    const r = await this.db.run('INSERT INTO users (name, password_hash, role) VALUES (?, ?, ?)', [name, passwordHash, role]);
    return r.lastID;
  }

  /** Sets a new password and revokes every token issued before. */
  async setPassword(id: number, passwordHash: string): Promise<void> {
    await this.db.run('UPDATE users SET password_hash = ?, token_version = token_version + 1, updated_at = ? WHERE id = ?', [passwordHash, sqlNow(), id]);
  }

  /**
   * The same password stored again (a stronger hash): tokens stay valid. Only while the stored hash
   * is still `oldHash`, so a password changed meanwhile is not overwritten.
   */
  async replacePasswordHash(id: number, oldHash: string, newHash: string): Promise<void> {
    await this.db.run('UPDATE users SET password_hash = ? WHERE id = ? AND password_hash = ?', [newHash, id, oldHash]);
  }

  async setRole(id: number, role: Role): Promise<void> {
    await this.db.run('UPDATE users SET role = ?, token_version = token_version + 1, updated_at = ? WHERE id = ?', [role, sqlNow(), id]);
  }

  /** Stores the user's interface language (tokens stay valid). */
  async setLocale(id: number, locale: Locale): Promise<void> {
    await this.db.run('UPDATE users SET locale = ? WHERE id = ?', [locale, id]);
  }

  /** Deletes users (their reviews and history cascade). Returns how many were deleted. */
  async deleteByNames(names: string[]): Promise<number> {
    if (!names.length) return 0;
    return this.db.tx(async (w) => {
      let n = 0;
      for (const name of names) n += (await w.run('DELETE FROM users WHERE name = ?', [name])).changes;
      return n;
    });
  }
}
