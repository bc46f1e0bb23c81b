import { writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Database } from '../../server/db/connection.js';
import { tempDir } from '../helpers/app.js';

describe('database', () => {
  it('migrates an empty database to the full schema with the right pragmas', async () => {
    const db = await Database.open(path.join(tempDir(), 'k.db'));
    try {
      const tables = (await db.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type IN ('table') ORDER BY name")).map((t) => t.name);
      for (const t of ['works', 'circles', 'tags', 'vas', 'work_tags', 'work_vas', 'files', 'users', 'reviews', 'play_history', 'ai_tasks', 'worker_tokens', 'scan_runs', 'scan_events', 'works_fts']) {
        expect(tables).toContain(t);
      }
      expect((await db.get<{ journal_mode: string }>('PRAGMA journal_mode'))?.journal_mode).toBe('wal');
      expect((await db.get<{ foreign_keys: number }>('PRAGMA foreign_keys'))?.foreign_keys).toBe(1);
      const integrity = await db.get<{ integrity_check: string }>('PRAGMA integrity_check');
      expect(integrity?.integrity_check).toBe('ok');
    } finally {
      await db.close();
    }
  });

  it('finds Japanese substrings through the trigram index', async () => {
    const db = await Database.open(path.join(tempDir(), 'k.db'));
    try {
      await db.run('INSERT INTO works_fts (rowid, body) VALUES (?, ?)', [1, '癒しの耳かきボイス']);
      await db.run('INSERT INTO works_fts (rowid, body) VALUES (?, ?)', [2, '添い寝と囁き']);
      const hits = await db.all<{ rowid: number }>('SELECT rowid FROM works_fts WHERE works_fts MATCH ?', ['"耳かき"']);
      expect(hits.map((h) => h.rowid)).toEqual([1]);
    } finally {
      await db.close();
    }
  });

  it('rolls a failed transaction back and keeps writes serialized', async () => {
    const db = await Database.open(path.join(tempDir(), 'k.db'));
    try {
      await expect(
        db.tx(async (w) => {
          await w.run("INSERT INTO users (name, password_hash, role) VALUES ('alice', 'x', 'user')");
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      expect(await db.get("SELECT * FROM users WHERE name = 'alice'")).toBeUndefined();

      // Two transactions started together never interleave: each sees only its own writes.
      const seen: number[] = [];
      await Promise.all(
        [1, 2].map((n) =>
          db.tx(async (w) => {
            await w.run('INSERT INTO users (name, password_hash, role) VALUES (?, ?, ?)', [`user${n}`, 'x', 'user']);
            await new Promise((r) => setTimeout(r, 20));
            const row = await w.get<{ n: number }>("SELECT COUNT(*) AS n FROM users WHERE name LIKE 'user%'");
            seen.push(row!.n);
          }),
        ),
      );
      expect(seen).toEqual([1, 2]);
      // a constraint violation is an error, not a hang
      await expect(db.run("INSERT INTO users (name, password_hash, role) VALUES ('user1', 'x', 'user')")).rejects.toThrow(/UNIQUE/);
      await expect(db.run("INSERT INTO users (name, password_hash, role) VALUES ('zed', 'x', 'emperor')")).rejects.toThrow(/CHECK/);
    } finally {
      await db.close();
    }
  });

  it('aborts start-up with a clear message when the database is not SQLite', async () => {
    const dir = tempDir();
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'k.db');
    writeFileSync(file, 'this is not a database file, just text that is long enough to look like a header.......');
    await expect(Database.open(file)).rejects.toBeInstanceOf(Error);
    await expect(Database.open(file)).rejects.toThrow(/not a database|migration failed|SQLITE_NOTADB/);
  });
});
