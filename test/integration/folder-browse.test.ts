/**
 * GET /api/config/browse: the folder browser of the admin's "add a library folder" panel. Admin only;
 * lists directories (never files, never hidden ones), sorted naturally, bounded with `truncated`;
 * paths absolute and normalised; a relative, missing, non-directory or unreadable path is a 4xx with
 * a code.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, tempDir, type TestServer } from '../helpers/app.js';
import { browseDirs } from '../../server/services/folder-browse.js';

type Browse = { path: string; parent: string | null; dirs: { name: string; path: string }[]; truncated: boolean };

describe('GET /api/config/browse', () => {
  let t: TestServer;
  let admin: string;
  let user: string;
  let guest: string;
  let root: string;

  beforeAll(async () => {
    t = await startTestServer();
    await t.addUser('admin', 'adminpass', 'admin');
    await t.addUser('alice', 'alicepass', 'user');
    await t.addUser('guesty', 'guestpass', 'guest');
    [admin, user, guest] = await Promise.all([t.login('admin', 'adminpass'), t.login('alice', 'alicepass'), t.login('guesty', 'guestpass')]);
    root = tempDir('kikoplay-browse-');
    for (const d of ['Work 10', 'Work 2', 'work 1', '.hidden', '音声']) mkdirSync(path.join(root, d));
    writeFileSync(path.join(root, 'notes.txt'), 'secret contents');
    writeFileSync(path.join(root, 'Work 2', 'track.mp3'), 'x');
    symlinkSync(path.join(root, 'Work 10'), path.join(root, 'linked'));
    symlinkSync(path.join(root, 'notes.txt'), path.join(root, 'file-link'));
  });
  afterAll(() => t.close());

  const browse = (token: string | undefined, p?: string) =>
    t.json<Browse & { error?: string; code?: string }>('GET', `/api/config/browse${p === undefined ? '' : `?path=${encodeURIComponent(p)}`}`, { token });

  it('lists the directories only, sorted naturally, skipping hidden ones and files', async () => {
    const res = await browse(admin, root);
    expect(res.status).toBe(200);
    expect(res.body.path).toBe(root);
    expect(res.body.parent).toBe(path.dirname(root));
    expect(res.body.truncated).toBe(false);
    expect(res.body.dirs.map((d) => d.name)).toEqual(['linked', 'work 1', 'Work 2', 'Work 10', '音声']);
    expect(res.body.dirs.find((d) => d.name === 'Work 2')).toEqual({ name: 'Work 2', path: path.join(root, 'Work 2') });
    expect(JSON.stringify(res.body)).not.toMatch(/notes|secret|track|hidden|file-link/);
  });

  it('normalises the path and says the parent; the root has none', async () => {
    const res = await browse(admin, `${root}/Work 2/../work 1/`);
    expect(res.status).toBe(200);
    expect(res.body.path).toBe(path.join(root, 'work 1'));
    expect(res.body.dirs).toEqual([]);
    const top = await browse(admin, '/');
    expect(top.status).toBe(200);
    expect(top.body.path).toBe('/');
    expect(top.body.parent).toBeNull();
  });

  it('starts at the data dir’s parent without a path', async () => {
    const res = await browse(admin);
    expect(res.status).toBe(200);
    expect(res.body.path).toBe(path.dirname(t.dataDir));
    expect(res.body.dirs.map((d) => d.path)).toContain(t.dataDir);
  });

  it('refuses relative, missing, non-directory and repeated paths with 4xx and a code', async () => {
    const cases: [string | undefined, string, number, string][] = [
      [undefined, 'relative/path', 400, 'FOLDER_PATH_NOT_ABSOLUTE'],
      [undefined, '../etc', 400, 'FOLDER_PATH_NOT_ABSOLUTE'],
      [undefined, path.join(root, 'nope'), 404, 'FOLDER_MISSING'],
      [undefined, path.join(root, 'notes.txt'), 400, 'FOLDER_NOT_DIRECTORY'],
      [undefined, path.join(root, 'notes.txt', 'below'), 400, 'FOLDER_NOT_DIRECTORY'],
      [undefined, `${root}\0x`, 400, 'FOLDER_PATH_NOT_ABSOLUTE'],
    ];
    for (const [, p, status, code] of cases) {
      const res = await browse(admin, p);
      expect(res.status, p).toBe(status);
      expect(res.body.code, p).toBe(code);
      expect(typeof res.body.error).toBe('string');
    }
    const twice = await t.json<{ code: string }>('GET', `/api/config/browse?path=${encodeURIComponent(root)}&path=/`, { token: admin });
    expect(twice.status).toBe(400);
  });

  it('is for admins only: users and guests 403, no token 401', async () => {
    for (const token of [user, guest]) {
      const res = await browse(token, root);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('ADMIN_ONLY');
      expect(JSON.stringify(res.body)).not.toContain('Work');
    }
    expect((await browse(undefined, root)).status).toBe(401);
  });

  it('answers at most the limit, with truncated', async () => {
    const many = tempDir('kikoplay-browse-many-');
    for (let i = 1; i <= 30; i++) mkdirSync(path.join(many, `d${i}`));
    const res = await browseDirs(many, { dirs: 10, entries: 1000 });
    expect(res.truncated).toBe(true);
    expect(res.dirs.map((d) => d.name)).toEqual(['d1', 'd2', 'd3', 'd4', 'd5', 'd6', 'd7', 'd8', 'd9', 'd10']);
    const cut = await browseDirs(many, { dirs: 1000, entries: 5 });
    expect(cut.truncated).toBe(true);
    expect(cut.dirs.length).toBeLessThanOrEqual(5);
    expect((await browseDirs(many)).truncated).toBe(false);
  });
});
