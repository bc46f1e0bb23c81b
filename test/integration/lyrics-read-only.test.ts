/**
 * A library folder the server may not write (mounted read-only, or another user's): scanning, browsing
 * and streaming work; saving a lyric into it is answered with a 409 LIBRARY_READ_ONLY saying so, and
 * nothing is left half-written. As root the server side runs as `nobody` (test/helpers/unprivileged.ts),
 * so the kernel really refuses the writes.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, lstatSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, tempDir, type TestServer } from '../helpers/app.js';
import { withoutWriteAccess } from '../helpers/unprivileged.js';

const AUDIO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/audio');
const WORK = 310001;
const DIR = 'RJ310001 読み取り専用';
const LINES = [{ time: 500, text: 'はじめまして' }];

/** Every entry under a folder with a digest of file contents. */
function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const abs = path.join(dir, name);
      if (lstatSync(abs).isDirectory()) {
        out[path.relative(root, abs)] = 'dir';
        walk(abs);
      } else out[path.relative(root, abs)] = createHash('sha1').update(readFileSync(abs)).digest('hex');
    }
  };
  walk(root);
  return out;
}

describe('a read-only library folder', () => {
  let t: TestServer;
  let lib: string;
  let admin: string;

  beforeAll(async () => {
    lib = tempDir('kikoplay-ro-lib-');
    mkdirSync(path.join(lib, DIR, 'mp3'), { recursive: true });
    copyFileSync(path.join(AUDIO, 'tone-2s.mp3'), path.join(lib, DIR, 'mp3/01 track.mp3'));
    writeFileSync(path.join(lib, DIR, 'mp3/01 track.vtt'), 'WEBVTT\n\n00:00:00.000 --> 00:00:01.000\n元の歌詞\n');
    t = await startTestServer({ flags: { rootFolders: [{ name: 'lib', path: lib }] } });
    await t.addUser('admin', 'adminpass', 'admin');
    admin = await t.login('admin', 'adminpass');
  });
  afterAll(async () => {
    await t?.close();
  });

  const save = (writePath: string) => t.json<Record<string, unknown>>('POST', `/api/media/save-lrc/${WORK}`, { token: admin, body: { writePath, lrc: LINES } });
  const refused = { error: '媒体库文件夹 "lib" 对服务器是只读的，歌词未保存', code: 'LIBRARY_READ_ONLY', params: { folder: 'lib' } };

  it('scans, browses and streams it; a lyric save is refused with a 409 and leaves nothing behind', async () => {
    const before = snapshot(lib);
    await withoutWriteAccess(
      [lib],
      async () => {
        const row = (await t.app.repos.users.byName('admin'))!;
        const summary = await t.app.services.scan.run({ id: row.id, name: row.name, role: 'admin' }, { kind: 'scan', metadata: false });
        expect(summary.status).toBe('finished');
        const works = await t.json<{ works: { id: number }[] }>('GET', '/api/works', { token: admin });
        expect(works.body.works.map((w) => w.id)).toEqual([WORK]);
        const files = await t.app.db.all<{ n: number; path: string }>('SELECT n, path FROM files WHERE work_id = ? ORDER BY n', [WORK]);
        const audio = files.find((f) => f.path === 'mp3/01 track.mp3')!;
        const stream = await t.request('GET', `/api/media/stream/${WORK}/${audio.n}`, { token: admin });
        expect(stream.status).toBe(200);
        expect(Buffer.from(await stream.arrayBuffer()).equals(readFileSync(path.join(lib, DIR, 'mp3/01 track.mp3')))).toBe(true);

        const dbBefore = await t.app.db.all('SELECT work_id, n, path, size, mtime_ms FROM files ORDER BY work_id, n');
        // a new file, a replaced lyric, a file in a new subfolder: each refused in words
        for (const writePath of ['mp3/01 track.mp3.vtt', 'mp3/01 track.vtt', 'new/sub/lyric.vtt']) expect(await save(writePath)).toEqual({ status: 409, body: refused });
        expect(await t.app.db.all('SELECT work_id, n, path, size, mtime_ms FROM files ORDER BY work_id, n')).toEqual(dbBefore);
      },
      [t.dataDir],
    );
    expect(snapshot(lib)).toEqual(before);
    // the refusal was the file system's: with write access the same save goes through
    expect((await save('mp3/01 track.mp3.vtt')).status).toBe(200);
  });

  it('the refusal reads in every language of the API error catalogue', async () => {
    const { errorSentence } = await import('../../server/contract/error-text/index.js');
    const e = { code: 'LIBRARY_READ_ONLY' as const, params: { folder: 'lib' } };
    expect(errorSentence(e, refused.error, 'en')).toBe('The library folder "lib" is read-only for the server, so the lyric was not saved. Give the server write access to it to save lyrics there.');
    expect(errorSentence(e, refused.error, 'ja')).toContain('「lib」');
    expect(errorSentence(e, refused.error, 'zh-CN')).toContain('"lib"');
  });
});
