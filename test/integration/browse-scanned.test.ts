/**
 * Browse endpoints against a library made by the real scanner: work folders with real audio on disk,
 * scanned offline (ffprobe durations, stable file numbers, lyric flags), then enriched through the
 * library's own metadata write path — the rows the API reads are exactly what production writes.
 */
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { v5 as uuidv5 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, tempDir, type TestServer } from '../helpers/app.js';
import type { Actor } from '../../server/auth/roles.js';
import { VA_NAMESPACE, type WorkMetadata } from '../../server/domain/work-metadata.js';
import type { WorkDetail, WorksPage } from '../../server/contract/works.js';
import type { LabelItem } from '../../server/contract/labels.js';
import type { FileNode, TrackNode } from '../../server/contract/tracks.js';

const AUDIO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/audio');
const BJ = 1_000_000_234_567;
const va = (name: string) => ({ id: uuidv5(name, VA_NAMESPACE), name });

function metadata(over: Partial<WorkMetadata> & Pick<WorkMetadata, 'title'>): WorkMetadata {
  return {
    circle: null,
    nsfw: true,
    release: '',
    tags: [],
    vas: [],
    price: 0,
    dl_count: 0,
    review_count: 0,
    rate_count: 0,
    rate_average_2dp: 0,
    rate_count_detail: null,
    rank: null,
    related: null,
    covers: {},
    source: 'dlsite',
    ...over,
  };
}

const METADATA: Record<number, WorkMetadata> = {
  123456: metadata({
    title: '【耳かき・添い寝】ねむりの森の癒やし屋さん【バイノーラル】',
    circle: { id: 12345, name: '月下工房' },
    release: '2021-03-05',
    tags: [
      { id: 497, name: '掏耳朵' },
      { id: 1031, name: '治愈' },
      { id: 54, name: '陪睡' },
    ],
    vas: [va('藤堂ゆい'), va('小鳥遊みく')],
    price: 1320,
    dl_count: 12345,
    rate_count: 1234,
    rate_average_2dp: 4.71,
    review_count: 56,
    rate_count_detail: [{ review_point: 5, count: 1004, ratio: 81 }],
    rank: [{ term: 'day', category: 'voice', rank: 3, rank_date: '2021-03-06' }],
    related: [
      { id: 123456, name: '日语' },
      { id: 1100001, name: '简体中文' },
    ],
  }),
  1100001: metadata({
    title: '【掏耳朵・陪睡】睡眠森林的治愈屋【双耳立体声】',
    circle: { id: 12345, name: '月下工房' },
    release: '2022-08-01',
    tags: [{ id: 497, name: '掏耳朵' }],
    vas: [va('藤堂ゆい')],
    dl_count: 300,
    related: [
      { id: 123456, name: '日语' },
      { id: 1100001, name: '简体中文' },
    ],
  }),
  1234567: metadata({
    title: '星降る夜のプラネタリウム ～やさしい天文解説～',
    circle: { id: 60123, name: 'Studio Hoshizora' },
    nsfw: false,
    release: '2023-11-22',
    tags: [{ id: 498, name: '耳语' }],
    vas: [va('星野あかり')],
    dl_count: 987,
  }),
  [BJ]: metadata({ title: '夜明けの書架 第1巻', circle: { id: 1_000_000_023_456, name: '暁書房' }, release: '2020-06-30', tags: [{ id: 158, name: '奇幻' }] }),
};

describe('browse: a scanned library', () => {
  let t: TestServer;
  let token: string;
  let admin: Actor;
  let lib: string;
  const get = <T = WorksPage>(p: string) => t.json<T>('GET', p, { token });
  const ids = (page: WorksPage) => page.works.map((w) => w.id);

  beforeAll(async () => {
    lib = tempDir('kikoplay-scanned-lib-');
    const put = (rel: string, from: string | Buffer) => {
      const dest = path.join(lib, rel);
      mkdirSync(path.dirname(dest), { recursive: true });
      if (typeof from === 'string') copyFileSync(path.join(AUDIO, from), dest);
      else writeFileSync(dest, from);
    };
    put('RJ123456 ねむりの森/mp3/track1.mp3', 'tone-2s.mp3');
    put('RJ123456 ねむりの森/mp3/track1.lrc', Buffer.from('[00:00.50]おやすみなさい\n'));
    put('RJ123456 ねむりの森/mp3/SEなし/track10.mp3', 'tone-2s.mp3');
    put('RJ123456 ねむりの森/mp3/SEなし/track2.mp3', 'tone-2s.mp3');
    put('RJ123456 ねむりの森/wav/track1.wav', 'tone-1s.wav');
    put('RJ123456 ねむりの森/readme.txt', Buffer.from('説明書\n'));
    put(
      'RJ123456 ねむりの森/cover.jpg',
      await sharp({ create: { width: 300, height: 300, channels: 3, background: '#336699' } })
        .jpeg()
        .toBuffer(),
    );
    put('RJ01100001 中文版/track.flac', 'tone-1.5s.flac');
    put('RJ01234567 プラネタリウム/a.m4a', 'tone-3s.m4a');
    put('RJ01234567 プラネタリウム/b.ogg', 'tone-2.5s.ogg');
    put('BJ234567 書架/voice.opus', 'tone-2s.opus');
    put('[サークル] RJ999999 メタデータなし/x.mp3', 'tone-2s.mp3');

    t = await startTestServer({ flags: { rootFolders: [{ name: 'lib', path: lib }] } });
    await t.addUser('admin', 'adminpass', 'admin');
    token = await t.login('admin', 'adminpass');
    const row = (await t.app.repos.users.byName('admin'))!;
    admin = { id: row.id, name: row.name, role: 'admin' };
    const summary = await t.app.services.scan.run(admin, { kind: 'scan', metadata: false });
    expect(summary.status).toBe('finished');
    for (const [id, md] of Object.entries(METADATA)) await t.app.repos.library.applyMetadata(Number(id), md);
  });
  afterAll(async () => {
    await t?.close();
    rmSync(lib, { recursive: true, force: true });
  });

  it('lists every scanned work with metadata applied and folder titles for the rest', async () => {
    const res = await get('/api/works?order=id&sort=asc');
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual([123456, 999999, 1100001, 1234567, BJ]);
    const unknown = res.body.works.find((w) => w.id === 999999)!;
    expect(unknown).toMatchObject({ circle_id: 0, name: '', tags: [], vas: [], release: '', lyric_status: '' });
    expect(unknown.title).toContain('メタデータなし');
    const rj = res.body.works.find((w) => w.id === 123456)!;
    expect(rj).toMatchObject({
      code: 'RJ123456',
      title: METADATA[123456].title,
      circle: { id: 12345, name: '月下工房' },
      name: '月下工房',
      circle_id: 12345,
      lyric_status: 'local',
      dl_count: 12345,
      nsfw: true,
      tags: [
        { id: 54, name: '陪睡' },
        { id: 497, name: '掏耳朵' },
        { id: 1031, name: '治愈' },
      ],
      vas: [va('藤堂ゆい'), va('小鳥遊みく')],
      relatedWorks: [
        { id: 123456, name: '日语' },
        { id: 1100001, name: '简体中文' },
      ],
    });
    // 3 × 2.16 s mp3 + 1 s wav, as ffprobe measured them
    expect(rj.memo.totalDuration).toBeGreaterThan(7);
    expect(rj.memo.totalDuration).toBeLessThan(8);
  });

  it('sends every list-form field with the kikoeru type', async () => {
    const res = await get('/api/works?pageSize=100');
    expect(Object.keys(res.body).sort()).toEqual(['pagination', 'works']);
    expect(res.body.pagination).toEqual({ currentPage: 1, pageSize: 100, totalCount: 5 });
    const nullableArray = (v: unknown) => v === null || Array.isArray(v);
    const checks: Record<string, (v: unknown) => boolean> = {
      id: Number.isSafeInteger,
      code: (v) => typeof v === 'string' && /^(RJ|BJ|VJ)(\d{6}|\d{8})$/.test(v),
      created_at: (v) => typeof v === 'string' && /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(v),
      updated_at: (v) => typeof v === 'string' && /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(v),
      title: (v) => typeof v === 'string' && v.length > 0,
      circle_id: Number.isSafeInteger,
      name: (v) => typeof v === 'string',
      nsfw: (v) => typeof v === 'boolean',
      release: (v) => typeof v === 'string' && /^(\d{4}-\d\d-\d\d)?$/.test(v),
      dl_count: Number.isInteger,
      price: Number.isInteger,
      review_count: Number.isInteger,
      rate_count: Number.isInteger,
      rate_average_2dp: (v) => typeof v === 'number',
      rate_count_detail: nullableArray,
      rank: nullableArray,
      lyric_status: (v) => v === '' || v === 'local' || v === 'ai' || v === 'ai_local',
      // kikoplay's own: whether the metadata is known, and why not (null when it is)
      metadata_status: (v) => v === 'ok' || v === 'pending' || v === 'failed' || v === 'not_found',
      metadata_error: (v) => v === null || typeof v === 'string',
      userRating: (v) => v === null || Number.isInteger(v),
      circle: (v) => typeof v === 'object' && v !== null && Number.isInteger((v as { id: unknown }).id) && typeof (v as { name: unknown }).name === 'string',
      vas: (v) => Array.isArray(v) && v.every((x: { id: unknown; name: unknown }) => typeof x.id === 'string' && typeof x.name === 'string'),
      tags: (v) => Array.isArray(v) && v.every((x: { id: unknown; name: unknown }) => Number.isInteger(x.id) && typeof x.name === 'string'),
      memo: (v) => typeof v === 'object' && v !== null && typeof (v as { totalDuration: unknown }).totalDuration === 'number',
      relatedWorks: (v) => Array.isArray(v),
    };
    for (const work of res.body.works) {
      expect(Object.keys(work).sort()).toEqual(Object.keys(checks).sort());
      for (const [field, ok] of Object.entries(checks)) expect(ok((work as unknown as Record<string, unknown>)[field]), `${work.id}.${field}`).toBe(true);
      expect(work.name).toBe(work.circle.name);
      expect(work.circle_id).toBe(work.circle.id);
    }
  });

  it('orders by release and pages deterministically', async () => {
    const all = ids((await get('/api/works')).body);
    expect(all.slice(0, 4)).toEqual([1234567, 1100001, 123456, BJ]);
    const paged = [...ids((await get('/api/works?pageSize=2&page=1')).body), ...ids((await get('/api/works?pageSize=2&page=2')).body), ...ids((await get('/api/works?pageSize=2&page=3')).body)];
    expect(paged).toEqual(all);
  });

  it('searches titles (CJK substrings), circles, tags and voice actors', async () => {
    expect(ids((await get(`/api/search?keyword=${encodeURIComponent('耳かき')}`)).body)).toEqual([123456]);
    expect(ids((await get(`/api/search?keyword=${encodeURIComponent('掏耳朵')}`)).body)).toEqual([1100001, 123456]);
    expect(ids((await get(`/api/search?keyword=${encodeURIComponent('小鳥遊')}`)).body)).toEqual([123456]);
    expect(ids((await get(`/api/search?keyword=${encodeURIComponent('プラネタリウム')}`)).body)).toEqual([1234567]);
    expect(ids((await get(`/api/search?keyword=${encodeURIComponent('メタデータ')}`)).body)).toEqual([999999]);
    expect(ids((await get('/api/search?keyword=RJ01100001')).body)).toEqual([1100001]);
    expect(ids((await get('/api/search?keyword=bj234567')).body)).toEqual([BJ]);
  });

  it('lists labels with counts and their works', async () => {
    const circles = await get<LabelItem[]>('/api/circles');
    expect(circles.body[0]).toEqual({ id: 12345, name: '月下工房', count: 2 });
    const tags = await get<LabelItem[]>('/api/tags');
    expect(tags.body[0]).toEqual({ id: 497, name: '掏耳朵', count: 2 });
    const vas = await get<LabelItem[]>('/api/vas');
    expect(vas.body[0]).toEqual({ ...va('藤堂ゆい'), count: 2 });
    expect(ids((await get(`/api/vas/${va('藤堂ゆい').id}/works`)).body)).toEqual([1100001, 123456]);
    expect(ids((await get('/api/circles/12345/works?order=dl_count')).body)).toEqual([123456, 1100001]);
    const adv = JSON.stringify([
      { t: 3, d: 497 },
      { t: 2, d: va('小鳥遊みく').id },
    ]);
    expect(ids((await get(`/api/search?isAdvance=1&keyword=${encodeURIComponent(adv)}`)).body)).toEqual([123456]);
  });

  it('serves the detail form of a scanned work', async () => {
    const res = await get<WorkDetail>('/api/work/123456');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: 123456, userRating: null, progress: null, state: null, user_name: null });
    expect(res.body.relatedWorks.map((r) => r.id)).toEqual([123456, 1100001]);
  });

  it('builds the nested file tree from the scan (natural order, folders first) and streams its files', async () => {
    const res = await get<TrackNode[]>('/api/tracks/123456');
    expect(res.status).toBe(200);
    const shape = (nodes: TrackNode[]): unknown => nodes.map((n) => (n.type === 'folder' ? { [n.title]: shape(n.children) } : `${n.type}:${n.title}`));
    expect(shape(res.body)).toEqual([
      { mp3: [{ SEなし: ['audio:track2.mp3', 'audio:track10.mp3'] }, 'text:track1.lrc', 'audio:track1.mp3'] },
      { wav: ['audio:track1.wav'] },
      'image:cover.jpg',
      'text:readme.txt',
    ]);
    const mp3 = (res.body[0] as { children: TrackNode[] }).children;
    const track1 = mp3.find((n) => n.title === 'track1.mp3') as FileNode;
    expect(track1.duration).toBeCloseTo(2.16, 1);
    expect(track1.hash).toMatch(/^123456\/\d+$/);
    expect(track1.workTitle).toBe(METADATA[123456].title);
    const audio = await t.request('GET', `${track1.mediaStreamUrl}?token=${token}`, { headers: { Range: 'bytes=0-99' } });
    expect(audio.status).toBe(206);
    expect(Buffer.from(await audio.arrayBuffer())).toEqual(readFileSync(path.join(AUDIO, 'tone-2s.mp3')).subarray(0, 100));
    const lrc = mp3.find((n) => n.title === 'track1.lrc') as FileNode;
    const text = await t.request('GET', `${lrc.mediaStreamUrl}?token=${token}`);
    expect(text.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await text.text()).toContain('おやすみなさい');
    const cover = (res.body.find((n) => n.title === 'cover.jpg') as FileNode).hash;
    const thumb = await t.request('GET', `/api/media/small-img/${cover}?token=${token}`);
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toBe('image/jpeg');
  });

  it('drops a work whose folder vanished from lists and counts after a rescan, keeping hashes of the others', async () => {
    const before = await get<TrackNode[]>('/api/tracks/1234567');
    rmSync(path.join(lib, 'RJ01100001 中文版'), { recursive: true, force: true });
    const summary = await t.app.services.scan.run(admin, { kind: 'scan', metadata: false });
    expect(summary.status).toBe('finished');
    const list = await get('/api/works');
    expect(ids(list.body)).not.toContain(1100001);
    expect(list.body.pagination.totalCount).toBe(4);
    expect((await get('/api/work/1100001')).status).toBe(404);
    expect((await get('/api/tracks/1100001')).status).toBe(404);
    expect(ids((await get(`/api/search?keyword=${encodeURIComponent('掏耳朵')}`)).body)).toEqual([123456]);
    const circles = await get<LabelItem[]>('/api/circles');
    expect(circles.body.find((c) => c.id === 12345)).toEqual({ id: 12345, name: '月下工房', count: 1 });
    const detail = await get<WorkDetail>('/api/work/123456');
    expect(detail.body.relatedWorks).toEqual([]);
    expect((await get<TrackNode[]>('/api/tracks/1234567')).body).toEqual(before.body);
  });
});
