/**
 * `GET /api/media/download-work/:id` (docs/API.md#media): the work (or one folder of it) as a zip made
 * on the fly, unpacked with the system's `unzip` and Python's zipfile and compared byte for byte with
 * the files on disk; path safety, unknown works and folders, the per-user limit, and a client that
 * goes away mid-stream.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, tempDir, type TestServer } from '../helpers/app.js';
import { seedWorks } from '../helpers/seed.js';

/** Unpacking runs beside the server (same process): the event loop must stay free. */
const run = promisify(execFile);
const WORK = 200101;
const BIG = 200102;
const GONE = 200103;
const DIR = 'RJ200101 テスト作品';

/** Every file below `dir` as '/'-separated relative paths. */
function listTree(dir: string, base = ''): string[] {
  const out: string[] = [];
  for (const d of readdirSync(path.join(dir, base), { withFileTypes: true })) {
    const rel = base ? `${base}/${d.name}` : d.name;
    if (d.isDirectory()) out.push(...listTree(dir, rel));
    else out.push(rel);
  }
  return out.sort();
}

/** Open descriptors of this process (the test server runs in it) that point below `dir`. */
function openFilesBelow(dir: string): string[] {
  const out: string[] = [];
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      if (target.startsWith(dir + '/')) out.push(target);
    } catch {
      // closed meanwhile
    }
  }
  return out;
}

describe('media: download a work as a zip', () => {
  let t: TestServer;
  let token: string;
  let lib: string;
  let outside: string;
  let work: string;
  const inWork = ['01 はじめに.mp3', '02 本編.flac', '曲 名 #1 (日本語).mp3', '特典/おまけ トラック.wav', '特典/画像/表紙.jpg', '特典/歌詞.lrc', 'track10.mp3', 'track2.mp3'];

  beforeAll(async () => {
    lib = tempDir('kikoplay-zip-lib-');
    outside = tempDir('kikoplay-zip-outside-');
    work = path.join(lib, DIR);
    inWork.forEach((rel, i) => {
      mkdirSync(path.dirname(path.join(work, rel)), { recursive: true });
      writeFileSync(path.join(work, rel), Buffer.from(Array.from({ length: 1000 + i * 7919 }, (_, j) => (j * (i + 3)) & 0xff)));
    });
    writeFileSync(path.join(outside, 'secret.mp3'), 'outside the library');
    symlinkSync(path.join(outside, 'secret.mp3'), path.join(work, 'escape.mp3'));
    const big = path.join(lib, 'RJ200102');
    mkdirSync(big);
    writeFileSync(path.join(big, 'long.wav'), Buffer.alloc(24 * 1024 * 1024, 7));

    t = await startTestServer({ flags: { rootFolders: [{ name: 'lib', path: lib }] } });
    await t.addUser('alice', 'alicepass', 'user');
    token = await t.login('alice', 'alicepass');
    await seedWorks(t.app.db, [
      { id: WORK, title: 'テスト作品', dir: DIR, files: [...inWork, 'escape.mp3', '../RJ200102/long.wav', 'vanished.mp3'].map((p) => ({ path: p })) },
      { id: BIG, title: 'big', dir: 'RJ200102', files: [{ path: 'long.wav' }] },
      { id: GONE, title: 'gone', dir: 'RJ200103 消えた', files: [{ path: 'a.mp3' }] },
    ]);
  });
  afterAll(async () => {
    await t?.close();
    rmSync(lib, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  /** Download to a file and unpack it with `unzip`; the folder it was unpacked into. */
  async function download(query: string, auth: 'header' | 'query' = 'header'): Promise<{ res: Response; zip: string; out: string }> {
    const sep = query.includes('?') ? '&' : '?';
    const res =
      auth === 'header' ? await t.request('GET', `/api/media/download-work/${query}`, { token }) : await fetch(`${t.url}/api/media/download-work/${query}${sep}token=${encodeURIComponent(token)}`);
    expect(res.status).toBe(200);
    const dir = tempDir('kikoplay-zip-out-');
    const zip = path.join(dir, 'work.zip');
    writeFileSync(zip, Buffer.from(await res.arrayBuffer()));
    const out = path.join(dir, 'out');
    await run('unzip', ['-q', zip, '-d', out], { env: { ...process.env, LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' } });
    return { res, zip, out };
  }

  it('holds every file of the work, byte for byte, under the work folder with UTF-8 names', async () => {
    const { res, zip, out } = await download(`${WORK}`);
    expect(res.headers.get('content-type')).toBe('application/zip');
    const disposition = res.headers.get('content-disposition') ?? '';
    expect(disposition).toMatch(/^attachment; filename="[^"]*\.zip"; filename\*=UTF-8''/);
    expect(decodeURIComponent(disposition.split("filename*=UTF-8''")[1])).toBe('RJ200101 テスト作品.zip');
    expect(readdirSync(out)).toEqual([DIR]);
    // the link leading out, the path leaving the work and the file gone from disk are left out
    expect(listTree(path.join(out, DIR))).toEqual([...inWork].sort());
    for (const rel of inWork) expect(readFileSync(path.join(out, DIR, rel)).equals(readFileSync(path.join(work, rel))), rel).toBe(true);
    // a second reader agrees (CRCs, the central directory, the UTF-8 flag)
    const names = (
      await run('python3', ['-c', 'import sys,zipfile; z=zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None; print("\\n".join(i.filename for i in z.infolist()))', zip], { encoding: 'utf8' })
    ).stdout;
    expect(names.trim().split('\n').sort()).toEqual(
      ['01 はじめに.mp3', '02 本編.flac', 'track2.mp3', 'track10.mp3', '曲 名 #1 (日本語).mp3', '特典/おまけ トラック.wav', '特典/歌詞.lrc', '特典/画像/表紙.jpg'].map((p) => `${DIR}/${p}`).sort(),
    );
  });

  it('lists the entries in the file tree order (sub-folders first, natural order)', async () => {
    const res = await t.request('GET', `/api/media/download-work/${WORK}`, { token });
    const dir = tempDir('kikoplay-zip-order-');
    const zip = path.join(dir, 'w.zip');
    writeFileSync(zip, Buffer.from(await res.arrayBuffer()));
    const names = (await run('python3', ['-c', 'import sys,zipfile; print("\\n".join(i.filename for i in zipfile.ZipFile(sys.argv[1]).infolist()))', zip], { encoding: 'utf8' })).stdout;
    expect(names.trim().split('\n')).toEqual(
      ['特典/画像/表紙.jpg', '特典/おまけ トラック.wav', '特典/歌詞.lrc', '01 はじめに.mp3', '02 本編.flac', 'track2.mp3', 'track10.mp3', '曲 名 #1 (日本語).mp3'].map((p) => `${DIR}/${p}`),
    );
  });

  it('zips one folder with ?path= and takes the token as a query parameter', async () => {
    const { res, out } = await download(`${WORK}?path=${encodeURIComponent('特典')}`, 'query');
    expect(decodeURIComponent((res.headers.get('content-disposition') ?? '').split("filename*=UTF-8''")[1])).toBe('RJ200101 特典.zip');
    expect(listTree(out)).toEqual(['特典/おまけ トラック.wav', '特典/歌詞.lrc', '特典/画像/表紙.jpg']);
    for (const rel of ['おまけ トラック.wav', '歌詞.lrc', '画像/表紙.jpg']) expect(readFileSync(path.join(out, '特典', rel)).equals(readFileSync(path.join(work, '特典', rel)))).toBe(true);
    const nested = await download(`${WORK}?path=${encodeURIComponent('特典/画像')}`);
    expect(listTree(nested.out)).toEqual(['画像/表紙.jpg']);
  });

  it('needs a login', async () => {
    const res = await fetch(`${t.url}/api/media/download-work/${WORK}`);
    expect(res.status).toBe(401);
  });

  it('answers 404 with a code for an unknown work, an unknown folder and a folder gone from disk', async () => {
    const unknown = await t.json('GET', `/api/media/download-work/999999`, { token });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('WORK_NOT_FOUND');
    const folder = await t.json('GET', `/api/media/download-work/${WORK}?path=${encodeURIComponent('ない')}`, { token });
    expect(folder.status).toBe(404);
    expect(folder.body.code).toBe('WORK_SUBFOLDER_NOT_FOUND');
    const gone = await t.json('GET', `/api/media/download-work/${GONE}`, { token });
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe('WORK_FOLDER_GONE');
    expect(gone.body.error).toContain('RJ200103');
  });

  it('refuses a path that climbs out of the work', async () => {
    for (const p of ['../..', '..', '特典/../..', '/etc', '../RJ200102']) {
      const res = await t.json('GET', `/api/media/download-work/${WORK}?path=${encodeURIComponent(p)}`, { token });
      expect(res.status, p).toBeGreaterThanOrEqual(400);
      expect(res.status, p).toBeLessThan(500);
      expect(res.status, p).not.toBe(200);
    }
    const climb = await t.json('GET', `/api/media/download-work/${WORK}?path=${encodeURIComponent('../..')}`, { token });
    expect(climb.status).toBe(400);
    expect(climb.body.code).toBe('FIELD_INVALID');
  });

  /** A zip request whose body is not read: the server is held by backpressure. */
  function hold(id: number): Promise<{ status: number; req: http.ClientRequest; res: http.IncomingMessage }> {
    return new Promise((resolve, reject) => {
      const req = http.get(`${t.url}/api/media/download-work/${id}`, { headers: { Authorization: `Bearer ${token}` } }, (res) => {
        res.pause();
        resolve({ status: res.statusCode ?? 0, req, res });
      });
      req.on('error', reject);
    });
  }

  const waitFor = async (check: () => boolean, ms = 5000) => {
    const end = Date.now() + ms;
    while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    return check();
  };

  it('lets a user download two archives at a time and answers 429 beyond', async () => {
    const a = await hold(BIG);
    const b = await hold(BIG);
    expect([a.status, b.status]).toEqual([200, 200]);
    const third = await t.json('GET', `/api/media/download-work/${BIG}`, { token });
    expect(third.status).toBe(429);
    expect(third.body.code).toBe('DOWNLOAD_BUSY');
    a.req.destroy();
    b.req.destroy();
    // the slots come back once the clients are gone
    let status = 0;
    for (let i = 0; i < 40 && status !== 200; i++) {
      const res = await t.request('GET', `/api/media/download-work/${WORK}`, { token });
      status = res.status;
      await res.arrayBuffer();
      if (status !== 200) await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe(200);
  });

  it('stops reading and closes the file when the client goes away mid-stream', async () => {
    const bigFile = path.join(lib, 'RJ200102');
    const held = await hold(BIG);
    expect(held.status).toBe(200);
    // read a little, so the server is inside the big file
    held.res.resume();
    await new Promise<void>((r) => held.res.once('data', () => r()));
    held.res.pause();
    expect(await waitFor(() => openFilesBelow(bigFile).length > 0)).toBe(true);
    held.req.destroy();
    expect(await waitFor(() => openFilesBelow(bigFile).length === 0)).toBe(true);
    // and the server keeps answering
    const again = await download(`${BIG}`);
    expect(statSync(path.join(again.out, 'RJ200102', 'long.wav')).size).toBe(24 * 1024 * 1024);
  });
});
