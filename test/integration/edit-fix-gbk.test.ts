/**
 * `POST /api/work/fix/gbk/:id` on a scanned work whose names were garbled the ways unzip tools garble
 * them (Shift-JIS/GBK bytes read as CP437 or Latin-1, raw legacy bytes on disk): names repaired inside
 * the work folder only (never through a symlink), file numbers, reviews, history and AI tasks kept,
 * idempotent, and refused for other roles, unknown works and missing folders.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, lstatSync, mkdirSync, readFileSync, readdirSync, readlinkSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, tempDir, type TestServer } from '../helpers/app.js';
import type { Actor } from '../../server/auth/roles.js';

const AUDIO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/audio');
const WORK = 400001;
const GONE = 400002;
const DIR = 'RJ400001 文字化け';

/** A name as an unzip tool shows it: encoded with `source`, read back as `misread`. */
const garble = (name: string, source: 'cp932' | 'gbk', misread: 'cp437' | 'latin1') => {
  const bytes = iconv.encode(name, source);
  return misread === 'latin1' ? bytes.toString('latin1') : iconv.decode(bytes, 'cp437');
};

const SE = garble('SEなし', 'cp932', 'cp437');
const TRACK_MP3 = garble('トラック01_ささやき.mp3', 'cp932', 'cp437');
const TRACK_LRC = garble('トラック01_ささやき.lrc', 'cp932', 'cp437');
const CHAPTER = garble('第一章 睡前故事.mp3', 'gbk', 'latin1');
const TAKEN = garble('はじめにお読みください.txt', 'cp932', 'cp437');
const OUTSIDE_DIR = garble('ハイレゾ版', 'cp932', 'cp437');

const RENAMES: Record<string, string> = {
  [`${SE}/${TRACK_MP3}`]: 'SEなし/トラック01_ささやき.mp3',
  [`${SE}/${TRACK_LRC}`]: 'SEなし/トラック01_ささやき.lrc',
  [CHAPTER]: '第一章 睡前故事.mp3',
};

/** Every entry under a folder (names as bytes: some are not UTF-8), symlinks not followed. */
function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: Buffer, rel: string) => {
    for (const name of readdirSync(dir, { encoding: 'buffer' })) {
      const abs = Buffer.concat([dir, Buffer.from('/'), name]);
      const key = rel + name.toString('latin1');
      const st = lstatSync(abs);
      if (st.isSymbolicLink()) out[key] = `-> ${readlinkSync(abs)}`;
      else if (st.isDirectory()) {
        out[key] = 'dir';
        walk(abs, `${key}/`);
      } else out[key] = createHash('sha1').update(readFileSync(abs)).digest('hex');
    }
  };
  walk(Buffer.from(root), '');
  return out;
}

interface FixBody {
  memo: { duration: Record<string, number>; isContainLyric: boolean; totalDuration: number };
  renamed: { from: string; to: string }[];
  skipped: { path: string; reason: string }[];
  error?: string;
}

describe('fix garbled (GBK / Shift-JIS) names', () => {
  let t: TestServer;
  let lib: string;
  let outside: string;
  let admin: string;
  let alice: string;
  let guest: string;
  let numbersBefore: Map<string, number>;
  let nextBefore: number;
  let taskId: number;
  const work = () => path.join(lib, DIR);
  const files = async () => new Map((await t.app.db.all<{ n: number; path: string }>('SELECT n, path FROM files WHERE work_id = ?', [WORK])).map((r) => [r.path, r.n]));
  const historyState = { queue: [] as { hash: string; title: string }[], index: 0, seconds: 42.5 };

  beforeAll(async () => {
    lib = tempDir('kikoplay-gbk-lib-');
    outside = tempDir('kikoplay-gbk-outside-');
    const put = (rel: string, from: string | Buffer) => {
      const dest = path.join(lib, rel);
      mkdirSync(path.dirname(dest), { recursive: true });
      if (typeof from === 'string') copyFileSync(path.join(AUDIO, from), dest);
      else writeFileSync(dest, from);
    };
    put(`${DIR}/${SE}/${TRACK_MP3}`, 'tone-2s.mp3');
    put(`${DIR}/${SE}/${TRACK_LRC}`, Buffer.from('[00:00.50]ささやき\n'));
    put(`${DIR}/${CHAPTER}`, 'tone-1s.wav');
    put(`${DIR}/ok/トラック02.mp3`, 'tone-2s.mp3');
    put(`${DIR}/readme.txt`, Buffer.from('readme\n'));
    put(`${DIR}/はじめにお読みください.txt`, Buffer.from('本物\n'));
    put(`${DIR}/${TAKEN}`, Buffer.from('文字化けした複製\n'));
    // raw Shift-JIS bytes on disk (not valid UTF-8): the scanner cannot list it until it is repaired
    writeFileSync(Buffer.concat([Buffer.from(`${work()}/`), iconv.encode('台本.txt', 'cp932')]), 'script\n');
    // a symlinked folder leading out of the work: nothing behind it is renamed
    mkdirSync(path.join(outside, OUTSIDE_DIR), { recursive: true });
    writeFileSync(path.join(outside, OUTSIDE_DIR, garble('台本.txt', 'cp932', 'cp437')), 'outside\n');
    symlinkSync(outside, path.join(work(), 'link'));
    put('RJ400002 gone/a.mp3', 'tone-2s.mp3');

    t = await startTestServer({ flags: { rootFolders: [{ name: 'lib', path: lib }] } });
    await t.addUser('admin', 'adminpass', 'admin');
    await t.addUser('alice', 'alicepass', 'user');
    await t.addUser('guest1', 'guestpass', 'guest');
    admin = await t.login('admin', 'adminpass');
    alice = await t.login('alice', 'alicepass');
    guest = await t.login('guest1', 'guestpass');
    const row = (await t.app.repos.users.byName('admin'))!;
    const actor: Actor = { id: row.id, name: row.name, role: 'admin' };
    expect((await t.app.services.scan.run(actor, { kind: 'scan', metadata: false })).status).toBe('finished');
    renameSync(path.join(lib, 'RJ400002 gone'), path.join(lib, 'RJ400002 moved'));

    numbersBefore = await files();
    for (const p of Object.keys(RENAMES)) expect(numbersBefore.has(p), p).toBe(true);
    nextBefore = (await t.app.db.get<{ next_file_n: number }>('SELECT next_file_n FROM works WHERE id = ?', [WORK]))!.next_file_n;

    // the user's data on this work
    const mp3Hash = `${WORK}/${numbersBefore.get(`${SE}/${TRACK_MP3}`)}`;
    historyState.queue.push({ hash: mp3Hash, title: TRACK_MP3 });
    expect((await t.json('PUT', '/api/review?starOnly=false', { token: alice, body: { work_id: WORK, rating: 4, review_text: '良い', progress: 'listening' } })).status).toBe(200);
    expect((await t.json('PUT', '/api/histroy', { token: alice, body: { work_id: WORK, state: historyState } })).status).toBe(200);
    const task = await t.json<{ id: number }>('PUT', `/api/lyric/translate/${mp3Hash}`, { token: alice });
    expect(task.status).toBe(200);
    taskId = task.body.id;
  });
  afterAll(async () => {
    await t?.close();
    rmSync(lib, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  it('refuses users, guests, unknown works, bad ids and missing folders, changing nothing', async () => {
    const disk = snapshot(lib);
    const db = await t.app.db.all('SELECT work_id, n, path FROM files ORDER BY work_id, n');
    for (const [id, token, status] of [
      [WORK, alice, 403],
      [WORK, guest, 403],
      [999999, admin, 404],
      ['abc', admin, 400],
      [GONE, admin, 409],
    ] as const) {
      const res = await t.json<FixBody>('POST', `/api/work/fix/gbk/${id}`, { token });
      expect(res.status, `${id}`).toBe(status);
      expect(typeof res.body.error).toBe('string');
    }
    expect((await t.json('POST', `/api/work/fix/gbk/${WORK}`)).status).toBe(401);
    expect(snapshot(lib)).toEqual(disk);
    expect(await t.app.db.all('SELECT work_id, n, path FROM files ORDER BY work_id, n')).toEqual(db);
  });

  it('repairs the names inside the work folder, keeping every file number', async () => {
    const outsideBefore = snapshot(outside);
    const res = await t.json<FixBody>('POST', `/api/work/fix/gbk/${WORK}`, { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.renamed).toEqual(
      expect.arrayContaining([
        { from: SE, to: 'SEなし' },
        { from: `SEなし/${TRACK_MP3}`, to: 'SEなし/トラック01_ささやき.mp3' },
        { from: `SEなし/${TRACK_LRC}`, to: 'SEなし/トラック01_ささやき.lrc' },
        { from: CHAPTER, to: '第一章 睡前故事.mp3' },
        { from: iconv.encode('台本.txt', 'cp932').toString('latin1'), to: '台本.txt' },
      ]),
    );
    expect(res.body.renamed).toHaveLength(5);
    expect(res.body.skipped).toEqual([{ path: TAKEN, reason: expect.stringContaining('はじめにお読みください.txt') }]);
    // the memo of a work rescan, under the repaired names
    expect(res.body.memo.isContainLyric).toBe(true);
    expect(Object.keys(res.body.memo.duration).sort()).toEqual(['ok/トラック02.mp3', 'SEなし/トラック01_ささやき.mp3', '第一章 睡前故事.mp3'].sort());

    const names = readdirSync(work()).sort();
    expect(names).toEqual(['SEなし', TAKEN, 'link', 'ok', 'readme.txt', 'はじめにお読みください.txt', '台本.txt', '第一章 睡前故事.mp3'].sort());
    expect(readdirSync(path.join(work(), 'SEなし')).sort()).toEqual(['トラック01_ささやき.lrc', 'トラック01_ささやき.mp3']);
    expect(snapshot(outside)).toEqual(outsideBefore);

    const after = await files();
    for (const [from, to] of Object.entries(RENAMES)) expect(after.get(to), to).toBe(numbersBefore.get(from));
    for (const [p, n] of numbersBefore) if (!(p in RENAMES)) expect(after.get(p), p).toBe(n);
    // the file the scanner could not read before is indexed now, with a new number
    expect(after.get('台本.txt')).toBeGreaterThanOrEqual(nextBefore);
  });

  it('keeps the review, the play history and the AI task, and old hashes still play', async () => {
    const reviews = await t.json<{ works: Record<string, unknown>[] }>('GET', '/api/review', { token: alice });
    expect(reviews.body.works).toHaveLength(1);
    expect(reviews.body.works[0]).toMatchObject({ id: WORK, userRating: 4, review_text: '良い', progress: 'listening' });
    const history = await t.json<{ works: { id: number; state: unknown }[] }>('GET', '/api/histroy', { token: alice });
    expect(history.body.works).toEqual([expect.objectContaining({ id: WORK, state: historyState })]);

    const task = await t.app.db.get<{ audio_path: string }>('SELECT audio_path FROM ai_tasks WHERE id = ?', [taskId]);
    expect(task!.audio_path).toBe('SEなし/トラック01_ささやき.mp3');

    const stream = await t.request('GET', `/api/media/stream/${historyState.queue[0].hash}`, { token: alice });
    expect(stream.status).toBe(200);
    expect(Buffer.from(await stream.arrayBuffer()).equals(readFileSync(path.join(AUDIO, 'tone-2s.mp3')))).toBe(true);
    const lrc = await t.json<{ result: boolean; lrc: unknown }>('GET', `/api/media/check-lrc/${historyState.queue[0].hash}`, { token: alice });
    expect(lrc.body).toMatchObject({ result: true, lrc: [{ time: 500, text: 'ささやき' }] });
  });

  it('is idempotent', async () => {
    const disk = snapshot(lib);
    const before = await files();
    const res = await t.json<FixBody>('POST', `/api/work/fix/gbk/${WORK}`, { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.renamed).toEqual([]);
    expect(res.body.memo.isContainLyric).toBe(true);
    expect(snapshot(lib)).toEqual(disk);
    expect(await files()).toEqual(before);
  });
});
