/**
 * Lyric endpoints against a library made by the real scanner: check-lrc (the lyric file next to an
 * audio file), query-lrc (ranked candidates incl. successful AI tasks), fetch-lrc (local and AI), for
 * lyric fixtures in every format and encoding, plus the bad inputs.
 */
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, tempDir, type TestServer } from '../helpers/app.js';
import type { Actor } from '../../server/auth/roles.js';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures');
const LYRICS = path.join(FIXTURES, 'lyrics');
const expected = JSON.parse(readFileSync(path.join(LYRICS, 'expected.json'), 'utf8')) as Record<string, { time: number; text: string; timeEnd: number }[]>;
const noEnd = (lines: { time: number; text: string }[]) => lines.map(({ time, text }) => ({ time, text }));

const WORK = 200001;
const ENCODINGS = 200002;
const OTHER = 200003;

interface Lrc {
  result: boolean;
  message?: string;
  hash: string | number;
  lyricExtension?: string;
  lrc?: { time: number; text: string; timeEnd?: number }[];
  lyricList?: { title: string; subtitle: string; hash: string | number; isAI: boolean; matchLevel: number }[];
  error?: string;
}

describe('lyrics: check-lrc, query-lrc, fetch-lrc', () => {
  let t: TestServer;
  let lib: string;
  let outside: string;
  let token: string;
  let guestToken: string;
  let admin: Actor;
  /** path → stable number, per work */
  const numbers = new Map<number, Map<string, number>>();
  const n = (work: number, p: string) => {
    const v = numbers.get(work)?.get(p);
    if (v === undefined) throw new Error(`no file ${work}/${p}`);
    return v;
  };
  const get = (p: string, tok = token) => t.json<Lrc>('GET', p, { token: tok });

  beforeAll(async () => {
    lib = tempDir('kikoplay-lyrics-lib-');
    outside = tempDir('kikoplay-outside-');
    const put = (rel: string, from: string | Buffer) => {
      const dest = path.join(lib, rel);
      mkdirSync(path.dirname(dest), { recursive: true });
      if (typeof from === 'string') copyFileSync(from, dest);
      else writeFileSync(dest, from);
    };
    const mp3 = path.join(FIXTURES, 'audio/tone-2s.mp3');
    const w = 'RJ200001 歌詞のテスト';
    put(`${w}/mp3/01 はじまり.mp3`, mp3);
    put(`${w}/mp3/01 はじまり.lrc`, path.join(LYRICS, 'ja/shift_jis.lrc'));
    put(`${w}/mp3/02 おやすみ.mp3`, mp3);
    put(`${w}/mp3/02 おやすみ.mp3.srt`, path.join(LYRICS, 'ja/utf-16le.srt'));
    put(`${w}/mp3/03 track.mp3`, mp3);
    put(`${w}/vtt/03 track.vtt`, path.join(LYRICS, 'ja/utf-8-bom.vtt'));
    put(`${w}/wav/01 はじまり.wav`, path.join(FIXTURES, 'audio/tone-1s.wav'));
    put(`${w}/mp3/05 gone.mp3`, mp3);
    put(`${w}/mp3/05 gone.lrc`, Buffer.from('[00:01.00]消える\n'));
    put(`${w}/mp3/06 evil.mp3`, mp3);
    put(`${w}/readme.txt`, Buffer.from('説明\n'));
    put(`${w}/mp3/06 evil.lrc`, Buffer.from('[00:00.00]inside\n'));
    writeFileSync(path.join(outside, 'secret.lrc'), '[00:00.00]outside the library\n');
    // every fixture encoding and format, with an audio file next to each LRC
    for (const lang of Object.keys(expected)) {
      for (const file of readdirSync(path.join(LYRICS, lang))) {
        put(`RJ200002 encodings/${lang}/${file}`, path.join(LYRICS, lang, file));
        if (file.endsWith('.lrc')) put(`RJ200002 encodings/${lang}/${file.replace(/\.lrc$/, '.mp3')}`, mp3);
      }
    }
    put('RJ200003 other/x.mp3', mp3);

    t = await startTestServer({ flags: { rootFolders: [{ name: 'lib', path: lib }] } });
    await t.addUser('admin', 'adminpass', 'admin');
    await t.addUser('guest1', 'guestpass', 'guest');
    token = await t.login('admin', 'adminpass');
    guestToken = await t.login('guest1', 'guestpass');
    const row = (await t.app.repos.users.byName('admin'))!;
    admin = { id: row.id, name: row.name, role: 'admin' };
    const summary = await t.app.services.scan.run(admin, { kind: 'scan', metadata: false });
    expect(summary.status).toBe('finished');
    for (const id of [WORK, ENCODINGS, OTHER]) {
      const rows = await t.app.db.all<{ n: number; path: string }>('SELECT n, path FROM files WHERE work_id = ?', [id]);
      numbers.set(id, new Map(rows.map((r) => [r.path, r.n])));
    }
    unlinkSync(path.join(lib, w, 'mp3/05 gone.lrc'));
    // swapped for a link leading out of the library after the scan indexed it (the scanner skips such links)
    unlinkSync(path.join(lib, w, 'mp3/06 evil.lrc'));
    symlinkSync(path.join(outside, 'secret.lrc'), path.join(lib, w, 'mp3/06 evil.lrc'));
  });
  afterAll(async () => {
    await t?.close();
    rmSync(lib, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  describe('check-lrc', () => {
    it('finds the lyric with the same stem next to the audio and parses it (Shift-JIS LRC)', async () => {
      const res = await get(`/api/media/check-lrc/${WORK}/${n(WORK, 'mp3/01 はじまり.mp3')}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        result: true,
        message: '找到歌词文件',
        hash: `${WORK}/${n(WORK, 'mp3/01 はじまり.lrc')}`,
        lyricExtension: '.lrc',
        lrc: noEnd(expected.ja),
      });
    });

    it('finds `<full name>.srt` and gives cue end times (UTF-16 SRT)', async () => {
      const res = await get(`/api/media/check-lrc/${WORK}/${n(WORK, 'mp3/02 おやすみ.mp3')}`);
      expect(res.body).toMatchObject({ result: true, hash: `${WORK}/${n(WORK, 'mp3/02 おやすみ.mp3.srt')}`, lyricExtension: '.srt' });
      expect(res.body.lrc).toEqual(expected.ja);
    });

    it('answers result false when no lyric is in the same folder', async () => {
      for (const p of ['mp3/03 track.mp3', 'wav/01 はじまり.wav']) {
        const res = await get(`/api/media/check-lrc/${WORK}/${n(WORK, p)}`);
        expect(res).toEqual({ status: 200, body: { result: false, message: '不存在歌词文件', hash: '' } });
      }
    });

    it('parses the LRC of every encoding to the same lines, with ?token= instead of the header', async () => {
      for (const lang of Object.keys(expected)) {
        for (const file of readdirSync(path.join(LYRICS, lang)).filter((f) => f.endsWith('.lrc'))) {
          const audio = n(ENCODINGS, `${lang}/${file.replace(/\.lrc$/, '.mp3')}`);
          const res = await t.json<Lrc>('GET', `/api/media/check-lrc/${ENCODINGS}/${audio}?token=${token}`);
          expect(res.status, `${lang}/${file}`).toBe(200);
          expect(res.body.hash, `${lang}/${file}`).toBe(`${ENCODINGS}/${n(ENCODINGS, `${lang}/${file}`)}`);
          expect(res.body.lrc, `${lang}/${file}`).toEqual(noEnd(expected[lang]));
        }
      }
    });

    it('is readable by guests', async () => {
      expect((await get(`/api/media/check-lrc/${WORK}/${n(WORK, 'mp3/01 はじまり.mp3')}`, guestToken)).body.result).toBe(true);
    });
  });

  describe('fetch-lrc (local)', () => {
    it('parses every fixture file (LRC, SRT, VTT × every encoding) to the expected lines', async () => {
      let count = 0;
      for (const lang of Object.keys(expected)) {
        for (const file of readdirSync(path.join(LYRICS, lang))) {
          const hash = `${ENCODINGS}/${n(ENCODINGS, `${lang}/${file}`)}`;
          const res = await get(`/api/media/fetch-lrc/${hash}/0`);
          expect(res.status, `${lang}/${file}`).toBe(200);
          const ext = path.extname(file);
          expect(res.body, `${lang}/${file}`).toEqual({ result: true, hash, lyricExtension: ext, lrc: ext === '.lrc' ? noEnd(expected[lang]) : expected[lang] });
          count++;
        }
      }
      expect(count).toBeGreaterThanOrEqual(54);
    });

    it('refuses non-lyric files, unknown works and files, and files gone from disk', async () => {
      const cases: [string, number][] = [
        [`/api/media/fetch-lrc/${WORK}/${n(WORK, 'mp3/01 はじまり.mp3')}/0`, 400],
        [`/api/media/fetch-lrc/${WORK}/${n(WORK, 'readme.txt')}/0`, 400],
        [`/api/media/fetch-lrc/999999/0/0`, 404],
        [`/api/media/fetch-lrc/${WORK}/99999/0`, 404],
        [`/api/media/fetch-lrc/${WORK}/${n(WORK, 'mp3/05 gone.lrc')}/0`, 404],
        [`/api/media/fetch-lrc/${WORK}/1/2`, 400],
        [`/api/media/fetch-lrc/${WORK}/x/0`, 400],
        [`/api/media/fetch-lrc/abc/1/0`, 400],
      ];
      for (const [p, status] of cases) {
        const res = await get(p);
        expect(res.status, p).toBe(status);
        expect(typeof res.body.error, p).toBe('string');
      }
    });

    it('never reads through a symlink leading out of the library', async () => {
      const res = await get(`/api/media/fetch-lrc/${WORK}/${n(WORK, 'mp3/06 evil.lrc')}/0`);
      expect(res.status).toBe(403);
      expect(JSON.stringify(res.body)).not.toContain('outside the library');
      const check = await get(`/api/media/check-lrc/${WORK}/${n(WORK, 'mp3/06 evil.mp3')}`);
      expect(check.status).toBe(403);
      expect(JSON.stringify(check.body)).not.toContain('outside the library');
    });
  });

  describe('AI lyrics', () => {
    let taskId: number;
    let pendingId: number;
    let otherTaskId: number;

    beforeAll(async () => {
      const create = async (work: number, p: string) => {
        const res = await t.json<{ id: number }>('PUT', `/api/lyric/translate/${work}/${n(work, p)}`, { token });
        expect(res.status).toBe(200);
        return res.body.id;
      };
      taskId = await create(WORK, 'mp3/03 track.mp3');
      otherTaskId = await create(OTHER, 'x.mp3');
      pendingId = await create(WORK, 'mp3/02 おやすみ.mp3');
      const worker = { kind: 'token' as const, name: 'test-worker' };
      for (const [id, lrc] of [
        [taskId, '[00:01.50] AI の歌詞\n[00:03.00] 二行目\n'],
        [otherTaskId, '[00:00.00] other\n'],
      ] as const) {
        const acquired = await t.app.services.aiTasks.acquire(worker, 'test-worker');
        expect(acquired.id).toBe(id);
        await t.app.services.aiTasks.finish(worker, acquired.id, acquired.secret, true, lrc);
      }
    });

    it('fetches the lyric of a successful task of the work', async () => {
      const res = await get(`/api/media/fetch-lrc/${WORK}/${taskId}/1`);
      expect(res).toEqual({
        status: 200,
        body: {
          result: true,
          hash: taskId,
          lyricExtension: '.lrc',
          lrc: [
            { time: 1500, text: 'AI の歌詞' },
            { time: 3000, text: '二行目' },
          ],
        },
      });
    });

    it('refuses a task of another work, a task not finished and an unknown task with 404', async () => {
      for (const p of [
        `/api/media/fetch-lrc/${WORK}/${otherTaskId}/1`,
        `/api/media/fetch-lrc/${WORK}/${pendingId}/1`,
        `/api/media/fetch-lrc/${WORK}/424242/1`,
        `/api/media/fetch-lrc/999999/${taskId}/1`,
      ]) {
        const res = await get(p);
        expect(res.status, p).toBe(404);
        expect(typeof res.body.error).toBe('string');
      }
    });

    it('ranks every candidate: the AI lyric and the same-name lyric in another folder first, the rest after', async () => {
      const res = await get(`/api/media/query-lrc/${WORK}/${n(WORK, 'mp3/03 track.mp3')}`);
      expect(res.status).toBe(200);
      expect(res.body.result).toBe(true);
      const list = res.body.lyricList!;
      expect(list.slice(0, 2)).toEqual([
        { title: '03 track.mp3.lrc', subtitle: 'mp3', hash: taskId, isAI: true, matchLevel: 0 },
        { title: '03 track.vtt', subtitle: 'vtt', hash: `${WORK}/${n(WORK, 'vtt/03 track.vtt')}`, isAI: false, matchLevel: 0.5 },
      ]);
      const rest = list.slice(2);
      expect(rest.length).toBeGreaterThanOrEqual(3);
      expect(rest.every((o) => o.matchLevel < 0)).toBe(true);
      expect(rest.map((o) => o.title)).toEqual(expect.arrayContaining(['01 はじまり.lrc', '02 おやすみ.mp3.srt']));
      // another work's AI lyric is never offered; the pending task neither
      expect(list.some((o) => o.hash === otherTaskId || o.hash === pendingId)).toBe(false);
    });

    it('ranks a same-folder lyric of the audio as an exact match, and the other-format folder lower', async () => {
      const res = await get(`/api/media/query-lrc/${WORK}/${n(WORK, 'wav/01 はじまり.wav')}`);
      expect(res.body.lyricList![0]).toEqual({ title: '01 はじまり.lrc', subtitle: 'mp3', hash: `${WORK}/${n(WORK, 'mp3/01 はじまり.lrc')}`, isAI: false, matchLevel: 0.5 });
      const same = await get(`/api/media/query-lrc/${WORK}/${n(WORK, 'mp3/01 はじまり.mp3')}`);
      expect(same.body.lyricList![0]).toMatchObject({ title: '01 はじまり.lrc', matchLevel: 0, isAI: false });
    });

    it('answers 404/400 for unknown works, files and bad hashes', async () => {
      for (const [p, status] of [
        ['/api/media/query-lrc/999999/0', 404],
        [`/api/media/query-lrc/${WORK}/99999`, 404],
        [`/api/media/query-lrc/${WORK}/-1`, 400],
        ['/api/media/check-lrc/999999/0', 404],
        [`/api/media/check-lrc/${WORK}/99999`, 404],
        [`/api/media/check-lrc/${WORK}/1.5`, 400],
      ] as const) {
        const res = await get(p);
        expect(res.status, p).toBe(status);
        expect(typeof res.body.error, p).toBe('string');
      }
      expect((await t.json('GET', `/api/media/query-lrc/${WORK}/0`)).status).toBe(401);
    });
  });
});
