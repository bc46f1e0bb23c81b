/**
 * Issue 17 item 5: symlinks never lead out of the library. A real library on disk (its root folder
 * configured through a symlink, as a mount often is), scanned by the real scanner, with links leading
 * out of the root — a work folder, an audio file, a cover image, a lyric file — and links that stay
 * inside it; then files and a work folder swapped for links leading out AFTER the scan. Every route that
 * reads a library file refuses the outside targets (no absolute path in the answer) and serves the
 * inside ones: stream, download, small-img, covers of every size, check-lrc / query-lrc / fetch-lrc,
 * save-lrc, and the AI task queue (creation and the worker's download).
 */
import { mkdirSync, readFileSync, renameSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, tempDir, type TestServer } from '../helpers/app.js';
import type { Actor } from '../../server/auth/roles.js';
import { defaultCoverPath, SERVED_COVER_TYPES } from '../../server/media/covers.js';

const AUDIO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/audio');
const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };

const OUT_WORK = 300001; // (a) the work folder is a link to a folder outside the root
const LINKS_OUT = 300002; // (b) audio, (c) cover image and (d) lyric linked outside
const LINKS_IN = 300003; // (e) audio, folder, cover and lyric linked inside the root
const WORK_LINK_IN = 300004; // (e) the work folder is a link to a folder inside the root
const SWAP_FILES = 300005; // real files at scan time, swapped for outside links afterwards
const SWAP_FOLDER = 300006; // a real work folder at scan time, swapped for an outside link afterwards

describe('symlinks leading out of the library are refused everywhere; links inside it keep working', () => {
  let t: TestServer;
  let real: string;
  let outside: string;
  let rootLink: string;
  let token: string;
  let adminToken: string;
  /** `${work}/${path}` → file number, from the scan. */
  const numbers = new Map<string, number>();
  const hash = (work: number, p: string) => {
    const n = numbers.get(`${work}/${p}`);
    if (n === undefined) throw new Error(`not indexed: ${work}/${p}`);
    return `${work}/${n}`;
  };
  const get = (p: string, tok = token) => t.request('GET', p, { token: tok });
  const json = <T = { error?: string }>(method: string, p: string, body?: unknown, tok = token) => t.json<T>(method, p, { token: tok, body });
  const acquire = async () => (await (await t.request('POST', '/api/lyric/translate/acquire', { token, raw: 'worker_name=w', headers: FORM })).json()) as { id: number; secret: string };
  const indexed = async (work: number) => (await t.app.db.all<{ path: string }>('SELECT path FROM files WHERE work_id = ? ORDER BY path', [work])).map((r) => r.path);
  const mp3 = readFileSync(path.join(AUDIO, 'tone-2s.mp3'));
  const flac = readFileSync(path.join(AUDIO, 'tone-1.5s.flac'));
  const image = (r: number, g: number, b: number) =>
    sharp({ create: { width: 320, height: 240, channels: 3, background: { r, g, b } } })
      .jpeg()
      .toBuffer();
  /** An error body that names no place on disk. */
  const expectNoPath = (body: unknown) => {
    const text = JSON.stringify(body);
    expect(text).not.toContain(outside);
    expect(text).not.toContain(real);
    expect(text).not.toContain(rootLink);
  };

  beforeAll(async () => {
    real = tempDir('kikoplay-symlinks-lib-');
    outside = tempDir('kikoplay-symlinks-outside-');
    rootLink = path.join(tempDir('kikoplay-symlinks-mount-'), 'library');
    symlinkSync(real, rootLink);
    const put = (rel: string, data: Buffer | string) => {
      mkdirSync(path.dirname(path.join(real, rel)), { recursive: true });
      writeFileSync(path.join(real, rel), data);
    };
    const link = (target: string, rel: string) => {
      mkdirSync(path.dirname(path.join(real, rel)), { recursive: true });
      symlinkSync(target, path.join(real, rel));
    };

    // outside the root
    mkdirSync(path.join(outside, 'RJ300001 外'));
    writeFileSync(path.join(outside, 'RJ300001 外/track.mp3'), mp3);
    writeFileSync(path.join(outside, 'RJ300001 外/cover.jpg'), await image(250, 0, 0));
    writeFileSync(path.join(outside, 'secret.mp3'), flac);
    writeFileSync(path.join(outside, 'secret.jpg'), await image(250, 0, 0));
    writeFileSync(path.join(outside, 'secret.lrc'), '[00:00.00]outside the library\n');
    mkdirSync(path.join(outside, 'elsewhere'));
    writeFileSync(path.join(outside, 'elsewhere/x.mp3'), flac);
    writeFileSync(path.join(outside, 'elsewhere/y.jpg'), await image(250, 0, 0));

    // (a)
    link(path.join(outside, 'RJ300001 外'), 'RJ300001 外');
    // (b) (c) (d)
    put('RJ300002 links out/inside.mp3', mp3);
    link(path.join(outside, 'secret.mp3'), 'RJ300002 links out/escape.mp3');
    link(path.join(outside, 'secret.jpg'), 'RJ300002 links out/cover.jpg');
    link(path.join(outside, 'secret.lrc'), 'RJ300002 links out/inside.lrc');
    link(outside, 'RJ300002 links out/out-dir');
    // (e) a shared folder in the root (not a work) that works link into
    put('_shared/art.jpg', await image(0, 0, 250));
    put('_shared/song.mp3', mp3);
    put('_shared/song.lrc', '[00:00.00]shared inside\n');
    put('RJ300003 links in/own.mp3', mp3);
    link('../RJ300002 links out/inside.mp3', 'RJ300003 links in/other-work.mp3');
    link(path.join(real, '_shared/art.jpg'), 'RJ300003 links in/cover.jpg');
    link('../_shared', 'RJ300003 links in/shared');
    // (e) below the scanner's depth limit, reached only through the work folder link
    put('_store/deep/RJ300004 real/a.mp3', mp3);
    put('_store/deep/RJ300004 real/a.lrc', '[00:00.00]deep inside\n');
    put('_store/deep/RJ300004 real/folder.jpg', await image(0, 250, 0));
    link(path.join(real, '_store/deep/RJ300004 real'), 'RJ300004 linked in');
    // swapped after the scan
    put('RJ300005 swap/swap.mp3', mp3);
    put('RJ300005 swap/swap.lrc', '[00:00.00]inside before the swap\n');
    put('RJ300005 swap/cover.jpg', await image(0, 250, 0));
    put('RJ300005 swap/keep.mp3', mp3);
    put('RJ300006 swap folder/x.mp3', mp3);
    put('RJ300006 swap folder/y.jpg', await image(0, 250, 0));

    t = await startTestServer({ flags: { rootFolders: [{ name: 'lib', path: rootLink }] } });
    await t.addUser('alice', 'alicepass', 'user');
    await t.addUser('admin', 'adminpass', 'admin');
    token = await t.login('alice', 'alicepass');
    adminToken = await t.login('admin', 'adminpass');
    const row = (await t.app.repos.users.byName('admin'))!;
    const admin: Actor = { id: row.id, name: row.name, role: 'admin' };
    const summary = await t.app.services.scan.run(admin, { kind: 'scan', metadata: false });
    expect(summary.status).toBe('finished');
    const rows = await t.app.db.all<{ work_id: number; n: number; path: string }>('SELECT work_id, n, path FROM files');
    for (const r of rows) numbers.set(`${r.work_id}/${r.path}`, r.n);
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('the scanner', () => {
    it('does not index a work folder, files or folders through links leading out of the root', async () => {
      expect((await json('GET', `/api/work/${OUT_WORK}`)).status).toBe(404);
      expect(await t.app.db.get('SELECT id FROM works WHERE id = ?', [OUT_WORK])).toBeUndefined();
      expect(await indexed(LINKS_OUT)).toEqual(['inside.mp3']);
    });

    it('indexes links that stay inside the root: files, folders, and a work folder below the depth limit', async () => {
      expect(await indexed(LINKS_IN)).toEqual(['cover.jpg', 'other-work.mp3', 'own.mp3', 'shared/art.jpg', 'shared/song.lrc', 'shared/song.mp3']);
      expect(await indexed(WORK_LINK_IN)).toEqual(['a.lrc', 'a.mp3', 'folder.jpg']);
      const work = await t.app.db.get<{ dir: string; duration: number | null }>('SELECT w.dir, f.duration FROM works w JOIN files f ON f.work_id = w.id WHERE w.id = ? AND f.path = ?', [
        WORK_LINK_IN,
        'a.mp3',
      ]);
      expect(work?.dir).toBe('RJ300004 linked in');
      expect(work?.duration).toBeGreaterThan(1.5);
    });
  });

  describe('after the scan, files and a work folder are swapped for links leading out', () => {
    let heldTask: { id: number; secret: string };

    beforeAll(async () => {
      // a task for the folder that is about to be swapped, held by a worker
      expect((await json('PUT', `/api/lyric/translate/${hash(SWAP_FOLDER, 'x.mp3')}`)).status).toBe(200);
      heldTask = await acquire();
      const dir = path.join(real, 'RJ300005 swap');
      for (const [name, target] of [
        ['swap.mp3', 'secret.mp3'],
        ['swap.lrc', 'secret.lrc'],
        ['cover.jpg', 'secret.jpg'],
      ]) {
        unlinkSync(path.join(dir, name));
        symlinkSync(path.join(outside, target), path.join(dir, name));
      }
      renameSync(path.join(real, 'RJ300006 swap folder'), path.join(real, '_moved-away'));
      symlinkSync(path.join(outside, 'elsewhere'), path.join(real, 'RJ300006 swap folder'));
    });

    it('stream and download refuse them with 403 and no path; the rest of the work still plays', async () => {
      for (const [work, file] of [
        [SWAP_FILES, 'swap.mp3'],
        [SWAP_FOLDER, 'x.mp3'],
      ] as const) {
        for (const kind of ['stream', 'download']) {
          const res = await json('GET', `/api/media/${kind}/${hash(work, file)}`);
          expect(res.status, `${kind} ${work}/${file}`).toBe(403);
          expect(typeof res.body.error).toBe('string');
          expectNoPath(res.body);
        }
      }
      const ranged = await get(`/api/media/stream/${hash(SWAP_FOLDER, 'x.mp3')}`);
      expect(ranged.status).toBe(403);
      const keep = await get(`/api/media/stream/${hash(SWAP_FILES, 'keep.mp3')}`);
      expect(keep.status).toBe(200);
      expect(Buffer.from(await keep.arrayBuffer())).toEqual(mp3);
    });

    it('small-img refuses an image swapped for an outside link, or in a folder swapped for one', async () => {
      for (const [work, file] of [
        [SWAP_FILES, 'cover.jpg'],
        [SWAP_FOLDER, 'y.jpg'],
      ] as const) {
        const res = await json('GET', `/api/media/small-img/${hash(work, file)}`);
        expect(res.status, `${work}/${file}`).toBe(403);
        expectNoPath(res.body);
      }
    });

    it('covers of every size fall back to the default image instead of reading the outside image', async () => {
      for (const type of SERVED_COVER_TYPES) {
        const res = await get(`/api/cover/${SWAP_FILES}?type=${type}`);
        expect(res.status, type).toBe(200);
        expect(res.headers.get('etag'), type).toMatch(/^W\/"default-/);
        expect(Buffer.from(await res.arrayBuffer()), type).toEqual(readFileSync(defaultCoverPath(type)));
      }
    });

    it('check-lrc and fetch-lrc refuse a lyric swapped for an outside link', async () => {
      const check = await json('GET', `/api/media/check-lrc/${hash(SWAP_FILES, 'swap.mp3')}`);
      expect(check.status).toBe(403);
      expect(JSON.stringify(check.body)).not.toContain('outside the library');
      expectNoPath(check.body);
      const fetched = await json('GET', `/api/media/fetch-lrc/${hash(SWAP_FILES, 'swap.lrc')}/0`);
      expect(fetched.status).toBe(403);
      expect(JSON.stringify(fetched.body)).not.toContain('outside the library');
      expectNoPath(fetched.body);
    });

    it('save-lrc does not write through a work folder swapped for an outside link', async () => {
      const res = await json('POST', `/api/media/save-lrc/${SWAP_FOLDER}`, { writePath: 'x.vtt', lrc: [{ time: 0, text: 'x' }] }, adminToken);
      expect(res.status).toBe(403);
      expectNoPath(res.body);
      expect(() => readFileSync(path.join(outside, 'elsewhere/x.vtt'))).toThrow();
    });

    it('the AI queue refuses a task for an outside file, and the worker download refuses a held task whose folder was swapped', async () => {
      const created = await json('PUT', `/api/lyric/translate/${hash(SWAP_FILES, 'swap.mp3')}`);
      expect(created.status).toBe(403);
      expectNoPath(created.body);
      const dl = await get(`/api/lyric/translate/download?id=${heldTask.id}&secret=${heldTask.secret}`);
      expect(dl.status).toBe(403);
      const body = await dl.text();
      expect(body).not.toContain(outside);
      expect(JSON.parse(body)).toEqual({ error: expect.any(String), code: 'PATH_OUTSIDE_LIBRARY' });
    });

    it('a rescan drops the swapped files and marks the swapped work folder missing', async () => {
      const row = (await t.app.repos.users.byName('admin'))!;
      const summary = await t.app.services.scan.run({ id: row.id, name: row.name, role: 'admin' }, { kind: 'scan', metadata: false });
      expect(summary.status).toBe('finished');
      expect(await indexed(SWAP_FILES)).toEqual(['keep.mp3']);
      expect(await t.app.db.get('SELECT missing FROM works WHERE id = ?', [SWAP_FOLDER])).toEqual({ missing: 1 });
    });
  });

  describe('links that stay inside the root keep working', () => {
    it('stream and download follow links into another work and into a shared folder, and through a linked work folder', async () => {
      const cases: [number, string, Buffer][] = [
        [LINKS_IN, 'other-work.mp3', mp3],
        [LINKS_IN, 'shared/song.mp3', mp3],
        [WORK_LINK_IN, 'a.mp3', mp3],
      ];
      for (const [work, file, bytes] of cases) {
        for (const kind of ['stream', 'download']) {
          const res = await get(`/api/media/${kind}/${hash(work, file)}`);
          expect(res.status, `${kind} ${work}/${file}`).toBe(200);
          expect(Buffer.from(await res.arrayBuffer())).toEqual(bytes);
        }
      }
    });

    it('small-img and covers of every size are made from an image linked inside the root', async () => {
      const thumb = await get(`/api/media/small-img/${hash(LINKS_IN, 'cover.jpg')}`);
      expect(thumb.status).toBe(200);
      expect(thumb.headers.get('content-type')).toBe('image/jpeg');
      const { width } = await sharp(Buffer.from(await thumb.arrayBuffer())).metadata();
      expect(width).toBe(128);
      for (const work of [LINKS_IN, WORK_LINK_IN]) {
        for (const type of SERVED_COVER_TYPES.filter((x) => x !== '360x360')) {
          const res = await get(`/api/cover/${work}?type=${type}`);
          expect(res.status, `${work} ${type}`).toBe(200);
          expect(res.headers.get('etag'), `${work} ${type}`).not.toMatch(/default/);
        }
      }
      // the linked image is blue: the main cover is made from it
      const main = await get(`/api/cover/${LINKS_IN}?type=main`);
      const stats = await sharp(Buffer.from(await main.arrayBuffer())).stats();
      expect(stats.channels[2].mean).toBeGreaterThan(200);
      expect(stats.channels[0].mean).toBeLessThan(40);
    });

    it('lyrics are found and read through links inside the root; query-lrc lists no outside lyric', async () => {
      const shared = await json<{ result: boolean; lrc?: { text: string }[] }>('GET', `/api/media/check-lrc/${hash(LINKS_IN, 'shared/song.mp3')}`);
      expect(shared.status).toBe(200);
      expect(shared.body.result).toBe(true);
      expect(shared.body.lrc?.[0].text).toBe('shared inside');
      const deep = await json<{ lrc: { text: string }[] }>('GET', `/api/media/fetch-lrc/${hash(WORK_LINK_IN, 'a.lrc')}/0`);
      expect(deep.status).toBe(200);
      expect(deep.body.lrc[0].text).toBe('deep inside');
      const none = await json<{ result: boolean }>('GET', `/api/media/check-lrc/${hash(LINKS_OUT, 'inside.mp3')}`);
      expect(none).toEqual({ status: 200, body: { result: false, message: '不存在歌词文件', hash: '' } });
      const listed = await json<{ lyricList: unknown[] }>('GET', `/api/media/query-lrc/${hash(LINKS_OUT, 'inside.mp3')}`);
      expect(listed.status).toBe(200);
      expect(listed.body.lyricList).toEqual([]);
    });

    it('the AI worker downloads audio reached through a link inside the root', async () => {
      const created = await json<{ id: number }>('PUT', `/api/lyric/translate/${hash(LINKS_IN, 'other-work.mp3')}`);
      expect(created.status).toBe(200);
      const task = await acquire();
      expect(task.id).toBe(created.body.id);
      const dl = await get(`/api/lyric/translate/download?id=${task.id}&secret=${task.secret}`);
      expect(dl.status).toBe(200);
      expect(Buffer.from(await dl.arrayBuffer())).toEqual(mp3);
    });
  });
});
