/**
 * Issue 17 items 4 and 8: tokens name an identity that is never reused; passwords need the current one;
 * a logout revokes one token; media and cover URLs carry a short-lived media-only token.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import jwt from 'jsonwebtoken';
import sqlite3 from 'sqlite3';
import { open } from 'sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, tempDir, type TestServer } from '../helpers/app.js';
import { seedWorks } from '../helpers/seed.js';
import { Database } from '../../server/db/connection.js';
import { hashPassword } from '../../server/auth/password.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const MIGRATIONS = path.resolve(HERE, '../../server/db/migrations');
const AUDIO = path.resolve(HERE, '../fixtures/audio');
const WORK = 200001;

describe('tokens and passwords (issue 17 items 4 and 8)', () => {
  let t: TestServer;
  let admin: string;
  let lib: string;

  beforeAll(async () => {
    lib = tempDir('kikoplay-tokens-lib-');
    mkdirSync(path.join(lib, 'RJ200001'), { recursive: true });
    copyFileSync(path.join(AUDIO, 'tone-1.5s.flac'), path.join(lib, 'RJ200001', 'track.flac'));
    t = await startTestServer({ flags: { rootFolders: [{ name: 'lib', path: lib }] } });
    await seedWorks(t.app.db, [{ id: WORK, title: '作品', dir: 'RJ200001', files: [{ path: 'track.flac', n: 1 }] }]);
    await t.addUser('admin', 'adminpass', 'admin');
    admin = await t.login('admin', 'adminpass');
  });
  afterAll(() => t.close());

  const status = async (method: string, p: string, token?: string, body?: unknown) => (await t.json(method, p, { token, body })).status;
  const query = (p: string, token: string) => fetch(`${t.url}${p}${p.includes('?') ? '&' : '?'}token=${encodeURIComponent(token)}`);
  const mediaToken = async (login: string) => {
    const res = await t.json<{ token: string; expiresAt: string }>('GET', '/api/auth/media-token', { token: login });
    expect(res.status).toBe(200);
    return res.body;
  };

  describe('item 4: a deleted user’s token never works again', () => {
    it('a deleted guest’s token is refused after an admin is created in its place', async () => {
      expect(await status('POST', '/api/credentials/user', admin, { name: 'guest1', password: 'guestpass', group: 'guest' })).toBe(200);
      const guest = await t.login('guest1', 'guestpass');
      const guestId = (await t.app.repos.users.byName('guest1'))!.id;
      expect(await status('DELETE', '/api/credentials/user', admin, { users: [{ name: 'guest1' }] })).toBe(200);
      await t.app.services.users.create({ id: 0, name: '(test)', role: 'admin' }, { name: 'admin2', password: 'admin2pass', group: 'admin' }, { allowAdmin: true });
      expect(await status('GET', '/api/auth/me', guest)).toBe(401);
      expect(await status('GET', '/api/credentials/users', guest)).toBe(401);
      expect(await status('GET', '/api/works', guest)).toBe(401);
      expect((await t.app.repos.users.byName('admin2'))!.id).not.toBe(guestId);
    });

    it('ids are never handed out again, not even the highest one', async () => {
      await t.addUser('highest', 'highpass', 'user');
      const high = (await t.app.repos.users.byName('highest'))!.id;
      await t.app.repos.users.deleteByNames(['highest']);
      await t.addUser('next1', 'nextpass', 'user');
      expect((await t.app.repos.users.byName('next1'))!.id).toBeGreaterThan(high);
    });

    it('refuses tokens of the old format (a numeric user id)', async () => {
      const secret = readFileSync(path.join(t.dataDir, 'jwt-secret'), 'utf8').trim();
      const user = (await t.app.repos.users.byName('admin'))!;
      const old = jwt.sign({ sub: String(user.id), name: 'admin', group: 'administrator', role: 'admin', ver: user.token_version }, secret, {
        algorithm: 'HS256',
        expiresIn: 3600,
        issuer: 'http://kikoeru',
        audience: 'http://kikoeru/api',
      });
      expect(await status('GET', '/api/auth/me', old)).toBe(401);
      expect(await status('GET', '/api/works', old)).toBe(401);
    });
  });

  describe('item 8: passwords', () => {
    beforeAll(async () => {
      await t.addUser('guest2', 'guestpass', 'guest');
      await t.addUser('userone', 'userpass', 'user');
    });

    it('guests change no password, not even their own (403)', async () => {
      const guest = await t.login('guest2', 'guestpass');
      const own = await t.json<{ error: string }>('PUT', '/api/credentials/user', { token: guest, body: { name: 'guest2', newPassword: 'newguest', currentPassword: 'guestpass' } });
      expect(own.status).toBe(403);
      expect(own.body.error).toBe('游客账号不能修改密码.');
      expect(await status('PUT', '/api/credentials/user', guest, { name: 'userone', newPassword: 'newguest' })).toBe(403);
      expect(await t.login('guest2', 'guestpass')).toBeTruthy();
    });

    it('changing one’s own password takes the current one: missing → 422, wrong → 403, right → 200', async () => {
      const user = await t.login('userone', 'userpass');
      const missing = await t.json<{ errors: { msg: string; param: string }[] }>('PUT', '/api/credentials/user', { token: user, body: { name: 'userone', newPassword: 'userpass2' } });
      expect(missing.status).toBe(422);
      expect(missing.body.errors[0]).toMatchObject({ msg: '请输入当前密码', param: 'currentPassword' });
      const wrong = await t.json<{ error: string }>('PUT', '/api/credentials/user', { token: user, body: { name: 'userone', newPassword: 'userpass2', currentPassword: 'nottheone' } });
      expect(wrong.status).toBe(403);
      expect(wrong.body.error).toBe('当前密码错误.');
      expect(await status('GET', '/api/auth/me', user)).toBe(200);
      const right = await t.json('PUT', '/api/credentials/user', { token: user, body: { name: 'userone', newPassword: 'userpass2', currentPassword: 'userpass' } });
      expect(right.status).toBe(200);
      expect(right.body).toEqual({ message: '密码修改成功.' });
      expect(await status('GET', '/api/auth/me', user)).toBe(401);
      expect(await t.login('userone', 'userpass2')).toBeTruthy();
    });

    it('the admin needs the current password for their own account, not to reset another user’s', async () => {
      expect(await status('PUT', '/api/credentials/user', admin, { name: 'admin', newPassword: 'adminpass2' })).toBe(422);
      expect(await status('PUT', '/api/credentials/user', admin, { name: 'admin', newPassword: 'adminpass2', currentPassword: 'wrongpass' })).toBe(403);
      const reset = await t.json('PUT', '/api/credentials/user', { token: admin, body: { name: 'userone', newPassword: 'resetpass' } });
      expect(reset.status).toBe(200);
      expect(await t.login('userone', 'resetpass')).toBeTruthy();
      expect(await status('GET', '/api/auth/me', admin)).toBe(200);
    });
  });

  describe('item 8: logout', () => {
    it('revokes the token it was sent with and no other', async () => {
      await t.addUser('leaver', 'leaverpass', 'user');
      const first = await t.login('leaver', 'leaverpass');
      const second = await t.login('leaver', 'leaverpass');
      const media = await mediaToken(first);
      expect((await query(`/api/media/stream/${WORK}/1`, media.token)).status).toBe(200);
      const out = await t.json('POST', '/api/auth/logout', { token: first });
      expect(out.status).toBe(200);
      expect(await status('GET', '/api/auth/me', first)).toBe(401);
      expect(await status('GET', '/api/works', first)).toBe(401);
      expect((await query(`/api/media/stream/${WORK}/1`, media.token)).status).toBe(401);
      expect(await status('GET', '/api/auth/me', second)).toBe(200);
      expect(await status('GET', '/api/works', second)).toBe(200);
      expect(await status('POST', '/api/auth/logout')).toBe(401);
    });
  });

  describe('item 8: media tokens', () => {
    let user: string;
    let media: { token: string; expiresAt: string };

    beforeAll(async () => {
      await t.addUser('listener', 'listenpass', 'user');
      user = await t.login('listener', 'listenpass');
      media = await mediaToken(user);
    });

    it('is short-lived, and the same within its window', async () => {
      const hours = (Date.parse(media.expiresAt) - Date.now()) / 3_600_000;
      expect(hours).toBeGreaterThan(3.9);
      expect(hours).toBeLessThanOrEqual(5);
      expect((await mediaToken(user)).token).toBe(media.token);
    });

    it('works on stream, download, and covers, in the query or the header', async () => {
      expect((await query(`/api/media/stream/${WORK}/1`, media.token)).status).toBe(200);
      expect((await query(`/api/media/download/${WORK}/1`, media.token)).status).toBe(200);
      expect((await t.request('GET', `/api/media/stream/${WORK}/1`, { token: media.token })).status).toBe(200);
      expect((await query(`/api/cover/${WORK}?type=main`, media.token)).status).not.toBe(401);
      expect((await query(`/api/cover/${WORK}?type=main`, 'not-a-token')).status).toBe(401);
    });

    it('is a 401 everywhere else', async () => {
      for (const [method, p] of [
        ['GET', '/api/works'],
        ['GET', `/api/work/${WORK}`],
        ['GET', `/api/tracks/${WORK}`],
        ['GET', '/api/auth/me'],
        ['GET', '/api/auth/media-token'],
        ['GET', '/api/credentials/users'],
        ['GET', '/api/review'],
        ['PUT', '/api/credentials/user'],
        ['POST', '/api/auth/logout'],
        ['GET', '/api/config/shared'],
      ]) {
        expect(
          (await t.json(method, p, { token: media.token, body: method === 'GET' ? undefined : { name: 'listener', newPassword: 'x12345', currentPassword: 'listenpass' } })).status,
          `${method} ${p}`,
        ).toBe(401);
      }
      expect((await query('/api/works', media.token)).status).toBe(401);
    });

    it('the login token in ?token= still works on media and covers (kikoeru clients)', async () => {
      expect((await query(`/api/media/stream/${WORK}/1`, user)).status).toBe(200);
      expect((await query(`/api/cover/${WORK}?type=main`, user)).status).not.toBe(401);
    });

    it('stops working when the password or the role changes, or the user is deleted', async () => {
      await t.addUser('changing', 'changepass', 'user');
      const login = await t.login('changing', 'changepass');
      const m1 = await mediaToken(login);
      expect(await status('PUT', '/api/credentials/user/role', admin, { name: 'changing', role: 'guest' })).toBe(200);
      expect((await query(`/api/media/stream/${WORK}/1`, m1.token)).status).toBe(401);
      const m2 = await mediaToken(await t.login('changing', 'changepass'));
      expect(await status('DELETE', '/api/credentials/user', admin, { users: [{ name: 'changing' }] })).toBe(200);
      expect((await query(`/api/media/stream/${WORK}/1`, m2.token)).status).toBe(401);
    });
  });
});

describe('migration 004 on a database of the old schema', () => {
  it('keeps ids, reviews, history and AI tasks, gives every user a uid, and refuses old tokens', async () => {
    const dataDir = tempDir('kikoplay-migrate-');
    const oldMigrations = tempDir('kikoplay-old-migrations-');
    for (const f of ['001-initial.sql', '003-browse.sql']) copyFileSync(path.join(MIGRATIONS, f), path.join(oldMigrations, f));
    const file = path.join(dataDir, 'kikoplay.db');
    const old = await open({ filename: file, driver: sqlite3.Database });
    await old.exec('PRAGMA foreign_keys = ON');
    await old.migrate({ migrationsPath: oldMigrations });
    const hash = await hashPassword('oldpass1');
    for (const [id, name, role] of [
      [1, 'admin', 'admin'],
      [2, 'alice', 'user'],
      [3, 'guesty', 'guest'],
    ] as const) {
      await old.run('INSERT INTO users (id, name, password_hash, role) VALUES (?, ?, ?, ?)', id, name, hash, role);
    }
    await old.run("INSERT INTO works (id, code, title, root_folder, dir) VALUES (100001, 'RJ100001', 'w', 'lib', 'RJ100001')");
    await old.run("INSERT INTO reviews (user_id, work_id, rating, progress) VALUES (2, 100001, 5, 'listening'), (3, 100001, 3, NULL)");
    await old.run("INSERT INTO play_history (user_id, work_id, state) VALUES (2, 100001, '{}'), (3, 100001, '{}')");
    await old.run("INSERT INTO ai_tasks (work_id, audio_path, created_by) VALUES (100001, 'a.mp3', 2)");
    await old.close();
    writeFileSync(path.join(dataDir, 'jwt-secret'), 'x'.repeat(64) + '\n');
    const oldToken = jwt.sign({ sub: '2', name: 'alice', group: 'user', role: 'user', ver: 0 }, 'x'.repeat(64), {
      algorithm: 'HS256',
      expiresIn: 3600,
      issuer: 'http://kikoeru',
      audience: 'http://kikoeru/api',
    });

    const db = await Database.open(file);
    try {
      const users = await db.all<{ id: number; uid: string; name: string }>('SELECT id, uid, name FROM users ORDER BY id');
      expect(users.map((u) => [u.id, u.name])).toEqual([
        [1, 'admin'],
        [2, 'alice'],
        [3, 'guesty'],
      ]);
      for (const u of users) expect(u.uid).toMatch(/^[0-9a-f]{32}$/);
      expect(new Set(users.map((u) => u.uid)).size).toBe(3);
      expect(await db.all('SELECT user_id, rating FROM reviews ORDER BY user_id')).toEqual([
        { user_id: 2, rating: 5 },
        { user_id: 3, rating: 3 },
      ]);
      expect((await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM play_history'))!.n).toBe(2);
      expect((await db.get<{ created_by: number }>('SELECT created_by FROM ai_tasks'))!.created_by).toBe(2);
      // the children still reference users, and the references still act
      for (const table of ['reviews', 'play_history', 'ai_tasks']) {
        const fks = await db.all<{ table: string; from: string }>(`PRAGMA foreign_key_list(${table})`);
        expect(fks.find((f) => f.from === 'user_id' || f.from === 'created_by')?.table, table).toBe('users');
      }
      await db.run("DELETE FROM users WHERE name = 'guesty'");
      expect(await db.all('SELECT user_id FROM reviews')).toEqual([{ user_id: 2 }]);
      expect(await db.all('SELECT user_id FROM play_history')).toEqual([{ user_id: 2 }]);
      await db.run("INSERT INTO users (name, password_hash, role) VALUES ('newcomer', 'x', 'admin')");
      expect((await db.get<{ id: number }>("SELECT id FROM users WHERE name = 'newcomer'"))!.id).toBe(4);
      expect(await db.all('PRAGMA foreign_key_check')).toEqual([]);
    } finally {
      await db.close();
    }

    const t = await startTestServer({ dataDir });
    try {
      expect((await t.json('GET', '/api/auth/me', { token: oldToken })).status).toBe(401);
      const fresh = await t.login('alice', 'oldpass1');
      expect((await t.json('GET', '/api/auth/me', { token: fresh })).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});
