/**
 * `POST /api/media/save-lrc/:workId` against a scanned library: WebVTT written inside the work folder,
 * the file index and lyric flag updated with stable numbers, and every bad input (paths leading out of
 * the folder by `..`, absolute paths or symlinks, non-lyric targets, wrong types, oversized bodies, wrong
 * roles) answered with a 4xx `{error}` and no change on disk or in the database.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, readlinkSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, tempDir, type TestServer } from '../helpers/app.js';
import type { Actor } from '../../server/auth/roles.js';

const AUDIO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/audio');
const WORK = 300001;
const FAKE = 300002;
const GONE = 300003;
const DIR = 'RJ300001 保存テスト';

const LINES = [
  { time: 500, text: 'はじめまして' },
  { time: 4200, text: '二行目', timeEnd: 6000 },
  { time: 2000, text: '削除された行', deleted: true },
  { time: 9000, text: '最後の行', extLrc: { text: 'editor state' } },
];
const VTT = ['WEBVTT', '', '00:00:00.500 --> 00:00:04.199', 'はじめまして', '', '00:00:04.200 --> 00:00:06.000', '二行目', '', '00:00:09.000 --> 99:59:59.999', '最後の行', ''].join('\n');

/** Every entry under a folder (symlinks not followed) with a digest of file contents or the link target. */
function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const abs = path.join(dir, name);
      const rel = path.relative(root, abs);
      const st = lstatSync(abs);
      if (st.isSymbolicLink()) out[rel] = `-> ${readlinkSync(abs)}`;
      else if (st.isDirectory()) {
        out[rel] = 'dir';
        walk(abs);
      } else out[rel] = createHash('sha1').update(readFileSync(abs)).digest('hex');
    }
  };
  walk(root);
  return out;
}

describe('save-lrc', () => {
  let t: TestServer;
  let lib: string;
  let outside: string;
  let admin: string;
  let user: string;
  let guest: string;
  let adminActor: Actor;

  const dbState = async () => ({
    files: await t.app.db.all('SELECT work_id, n, path, kind, is_lyric, size, mtime_ms FROM files ORDER BY work_id, n'),
    works: await t.app.db.all('SELECT id, has_local_lyric, next_file_n, updated_at FROM works ORDER BY id'),
  });
  const save = (work: number | string, body: unknown, token = admin) => t.json<Record<string, unknown>>('POST', `/api/media/save-lrc/${work}`, { token, body });
  const nOf = async (work: number, p: string) => (await t.app.db.get<{ n: number }>('SELECT n FROM files WHERE work_id = ? AND path = ?', [work, p]))?.n;

  beforeAll(async () => {
    lib = tempDir('kikoplay-save-lib-');
    outside = tempDir('kikoplay-save-outside-');
    const put = (rel: string, from: string | Buffer) => {
      const dest = path.join(lib, rel);
      mkdirSync(path.dirname(dest), { recursive: true });
      if (typeof from === 'string') copyFileSync(path.join(AUDIO, from), dest);
      else writeFileSync(dest, from);
    };
    put(`${DIR}/mp3/01 track.mp3`, 'tone-2s.mp3');
    put(`${DIR}/mp3/02 track.mp3`, 'tone-2s.mp3');
    put(`${DIR}/notes.txt`, Buffer.from('メモ\n'));
    mkdirSync(path.join(lib, DIR, 'folder.vtt'));
    writeFileSync(path.join(outside, 'victim.vtt'), 'WEBVTT\n\n00:00:00.000 --> 00:00:01.000\noutside\n');
    put('RJ300002 偽物/a.mp3', 'tone-2s.mp3');
    put('RJ300002 偽物/fake.vtt', Buffer.from('This is a README, not a subtitle.\nDo not delete.\n'));
    symlinkSync(outside, path.join(lib, 'RJ300002 偽物/link-out'));
    symlinkSync(path.join(outside, 'victim.vtt'), path.join(lib, 'RJ300002 偽物/linked.vtt'));
    put('RJ300003 消える/a.mp3', 'tone-2s.mp3');

    t = await startTestServer({ flags: { rootFolders: [{ name: 'lib', path: lib }] } });
    await t.addUser('admin', 'adminpass', 'admin');
    await t.addUser('alice', 'alicepass', 'user');
    await t.addUser('guest1', 'guestpass', 'guest');
    admin = await t.login('admin', 'adminpass');
    user = await t.login('alice', 'alicepass');
    guest = await t.login('guest1', 'guestpass');
    const row = (await t.app.repos.users.byName('admin'))!;
    adminActor = { id: row.id, name: row.name, role: 'admin' };
    const summary = await t.app.services.scan.run(adminActor, { kind: 'scan', metadata: false });
    expect(summary.status).toBe('finished');
    renameSync(path.join(lib, 'RJ300003 消える'), path.join(lib, 'RJ300003 moved-away'));
  });
  afterAll(async () => {
    await t?.close();
    rmSync(lib, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  it('writes WebVTT inside the work folder, gives the new file the next stable number and sets the lyric flag', async () => {
    const before = await t.app.db.all<{ n: number; path: string }>('SELECT n, path FROM files WHERE work_id = ? ORDER BY n', [WORK]);
    const work = await t.app.db.get<{ next_file_n: number; has_local_lyric: number }>('SELECT next_file_n, has_local_lyric FROM works WHERE id = ?', [WORK]);
    expect(work!.has_local_lyric).toBe(0);
    expect((await t.json<{ lyric_status: string }>('GET', `/api/work/${WORK}`, { token: admin })).body.lyric_status).toBe('');

    const res = await save(WORK, { writePath: 'mp3/01 track.mp3.vtt', lrc: LINES });
    expect(res).toEqual({ status: 200, body: { result: true, hash: `${WORK}/${work!.next_file_n}`, created: true } });
    expect(readFileSync(path.join(lib, DIR, 'mp3/01 track.mp3.vtt'), 'utf8')).toBe(VTT);

    const after = await t.app.db.all<{ n: number; path: string }>('SELECT n, path FROM files WHERE work_id = ? ORDER BY n', [WORK]);
    expect(after).toEqual([...before, { n: work!.next_file_n, path: 'mp3/01 track.mp3.vtt' }]);
    expect((await t.json<{ lyric_status: string }>('GET', `/api/work/${WORK}`, { token: admin })).body.lyric_status).toBe('local');
    expect((await t.json<{ works: { id: number }[] }>('GET', '/api/works?lyric=local', { token: admin })).body.works.map((w) => w.id)).toContain(WORK);

    // the player finds and loads it
    const check = await t.json<Record<string, unknown>>('GET', `/api/media/check-lrc/${WORK}/${await nOf(WORK, 'mp3/01 track.mp3')}`, { token: admin });
    expect(check.body).toEqual({
      result: true,
      message: '找到歌词文件',
      hash: `${WORK}/${work!.next_file_n}`,
      lyricExtension: '.vtt',
      lrc: [
        { time: 500, text: 'はじめまして', timeEnd: 4199 },
        { time: 4200, text: '二行目', timeEnd: 6000 },
        { time: 9000, text: '最後の行', timeEnd: 359_999_999 },
      ],
    });
  });

  it('overwrites its own lyric file in place (same number), and a rescan keeps every number', async () => {
    const n = await nOf(WORK, 'mp3/01 track.mp3.vtt');
    const res = await save(WORK, { writePath: 'mp3\\01 track.mp3.vtt', lrc: [{ time: 1000, text: '書き直し' }] });
    expect(res.body).toEqual({ result: true, hash: `${WORK}/${n}`, created: false });
    expect(readFileSync(path.join(lib, DIR, 'mp3/01 track.mp3.vtt'), 'utf8')).toBe('WEBVTT\n\n00:00:01.000 --> 99:59:59.999\n書き直し\n');
    const before = await t.app.db.all('SELECT n, path FROM files WHERE work_id = ? ORDER BY n', [WORK]);
    const scan = await t.json<{ memo: unknown }>('POST', `/api/work/scan/${WORK}`, { token: admin });
    expect(scan.status).toBe(200);
    expect(await t.app.db.all('SELECT n, path FROM files WHERE work_id = ? ORDER BY n', [WORK])).toEqual(before);
  });

  it('creates missing folders, accepts backslash separators, and numbers each new file once', async () => {
    const res = await save(WORK, { writePath: 'subs\\新しい/02 track.vtt', lrc: [{ time: 0, text: 'x' }] });
    expect(res.status).toBe(200);
    expect(readFileSync(path.join(lib, DIR, 'subs/新しい/02 track.vtt'), 'utf8')).toContain('WEBVTT');
    const n = await nOf(WORK, 'subs/新しい/02 track.vtt');
    expect(res.body.hash).toBe(`${WORK}/${n}`);
    const next = (await t.app.db.get<{ next_file_n: number }>('SELECT next_file_n FROM works WHERE id = ?', [WORK]))!.next_file_n;
    expect(next).toBe(n! + 1);
  });

  it('takes the longest name whose temp file still fits in 255 bytes', async () => {
    const name = `${'é'.repeat(116)}${'a'.repeat(1)}.vtt`; // 237 bytes: + ".", "." + 12 hex + ".tmp" = 255
    expect(Buffer.byteLength(name)).toBe(237);
    const res = await save(WORK, { writePath: `mp3/${name}`, lrc: [{ time: 0, text: 'a' }] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(readFileSync(path.join(lib, DIR, 'mp3', name), 'utf8')).toContain('WEBVTT');
    rmSync(path.join(lib, DIR, 'mp3', name));
  });

  describe('bad inputs change nothing', () => {
    // over the route's 2 MB body limit
    const bigLrc = Array.from({ length: 60_000 }, (_, i) => ({ time: i * 10, text: `line ${i} padding padding` }));
    const cases: [string, number | string, unknown, number, string?][] = [
      ['.. segment', WORK, { writePath: '../escape.vtt', lrc: LINES }, 400],
      ['.. inside the path', WORK, { writePath: 'mp3/../../escape.vtt', lrc: LINES }, 400],
      ['. segment', WORK, { writePath: './x.vtt', lrc: LINES }, 400],
      ['absolute POSIX path', WORK, { writePath: '/tmp/kikoplay-abs.vtt', lrc: LINES }, 400],
      ['absolute Windows path', WORK, { writePath: 'C:\\lyrics\\x.vtt', lrc: LINES }, 400],
      ['UNC path', WORK, { writePath: '\\\\server\\share\\x.vtt', lrc: LINES }, 400],
      ['NUL byte', WORK, { writePath: 'mp3/a\u0000.vtt', lrc: LINES }, 400],
      ['not .vtt', WORK, { writePath: 'mp3/01 track.mp3.lrc', lrc: LINES }, 400],
      ['an audio name', WORK, { writePath: 'mp3/01 track.mp3', lrc: LINES }, 400],
      ['only an extension', WORK, { writePath: '.vtt', lrc: LINES }, 400],
      ['hidden folder', WORK, { writePath: '.hidden/x.vtt', lrc: LINES }, 400],
      ['symlinked folder leading out', FAKE, { writePath: 'link-out/x.vtt', lrc: LINES }, 403],
      ['symlinked file leading out', FAKE, { writePath: 'linked.vtt', lrc: LINES }, 403],
      ['a new folder under a symlink leading out', FAKE, { writePath: 'link-out/new/x.vtt', lrc: LINES }, 403],
      ['a folder named .vtt', WORK, { writePath: 'folder.vtt', lrc: LINES }, 409],
      ['a file under a file', WORK, { writePath: 'notes.txt/x.vtt', lrc: LINES }, 400],
      ['a .vtt that is not a lyric', FAKE, { writePath: 'fake.vtt', lrc: LINES }, 409],
      ['writePath of the wrong type', WORK, { writePath: 123, lrc: LINES }, 400],
      ['no writePath', WORK, { lrc: LINES }, 400],
      ['lrc not an array', WORK, { writePath: 'x.vtt', lrc: 'WEBVTT' }, 400],
      // file and folder names are bounded in UTF-8 bytes, and the name's temp file (.<name>.<12 hex>.tmp) must fit too
      ['a name of 200 two-byte characters', WORK, { writePath: `${'é'.repeat(200)}.vtt`, lrc: [{ time: 0, text: 'a' }] }, 400],
      ['a name whose temp file would be over 255 bytes', WORK, { writePath: `mp3/${'a'.repeat(234)}.vtt`, lrc: [{ time: 0, text: 'a' }] }, 400],
      ['a folder name over 255 bytes', WORK, { writePath: `${'日'.repeat(86)}/x.vtt`, lrc: [{ time: 0, text: 'a' }] }, 400],
      ['a line time that is not a number', WORK, { writePath: 'x.vtt', lrc: [{ time: '1', text: 'a' }] }, 400],
      ['a line time of 1e308 ms', WORK, { writePath: 'x.vtt', lrc: [{ time: 1e308, text: 'a' }] }, 400],
      ['a line time of 100 hours', WORK, { writePath: 'x.vtt', lrc: [{ time: 100 * 3_600_000, text: 'a' }] }, 400],
      ['a line end of 1e308 ms', WORK, { writePath: 'x.vtt', lrc: [{ time: 0, timeEnd: 1e308, text: 'a' }] }, 400],
      ['a negative line time', WORK, { writePath: 'x.vtt', lrc: [{ time: -5, text: 'a' }] }, 400],
      ['a line without text', WORK, { writePath: 'x.vtt', lrc: [{ time: 5 }] }, 400],
      ['no lines', WORK, { writePath: 'x.vtt', lrc: [] }, 400],
      ['only deleted lines', WORK, { writePath: 'x.vtt', lrc: [{ time: 5, text: 'a', deleted: true }] }, 400],
      ['an oversized body', WORK, { writePath: 'x.vtt', lrc: bigLrc }, 413],
      ['an unknown work', 999999, { writePath: 'x.vtt', lrc: LINES }, 404],
      ['a work id that is not a number', 'abc', { writePath: 'x.vtt', lrc: LINES }, 400],
      ['a work whose folder is gone', GONE, { writePath: 'x.vtt', lrc: LINES }, 409],
      ['a user', WORK, { writePath: 'x.vtt', lrc: LINES }, 403, 'user'],
      ['a guest', WORK, { writePath: 'x.vtt', lrc: LINES }, 403, 'guest'],
    ];

    it.each(cases)('%s', async (_name, work, body, status, who) => {
      const disk = { lib: snapshot(lib), outside: snapshot(outside) };
      const db = await dbState();
      const token = who === 'user' ? user : who === 'guest' ? guest : admin;
      const res = await save(work, body, token);
      expect(res.status).toBe(status);
      expect(typeof res.body.error).toBe('string');
      expect({ lib: snapshot(lib), outside: snapshot(outside) }).toEqual(disk);
      expect(await dbState()).toEqual(db);
    });

    it('malformed JSON and no token change nothing either', async () => {
      const disk = snapshot(lib);
      const db = await dbState();
      const bad = await t.request('POST', `/api/media/save-lrc/${WORK}`, { token: admin, headers: { 'Content-Type': 'application/json' }, raw: '{"writePath": "x.vtt", "lrc": [' });
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { error: string }).error).toBeTruthy();
      const anon = await t.json('POST', `/api/media/save-lrc/${WORK}`, { body: { writePath: 'x.vtt', lrc: LINES } });
      expect(anon.status).toBe(401);
      expect(snapshot(lib)).toEqual(disk);
      expect(await dbState()).toEqual(db);
      expect(existsSync('/tmp/kikoplay-abs.vtt')).toBe(false);
    });
  });
});
