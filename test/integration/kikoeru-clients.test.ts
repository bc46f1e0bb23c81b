/**
 * What the real kikoeru clients send, spelt exactly as their source builds it, against a library made
 * by the real scanner: the list orders of the mobile apps (Kikoeru-android's `create_date` on every
 * list, Kikoeru-Flutter / KikoFlu's `create_date`, `updated_at` and `nsfw`, the old web client's
 * "all ages, newest first" = `order=nsfw&sort=asc`) and Flutter's download URL with the file name
 * appended (`/api/media/download/<hash>/<Uri.encodeComponent(title)>?token=`).
 *
 * The library is scanned in two batches a second apart and one work's folder changes a second later,
 * so "added" and "changed" times differ the way they do in a real library.
 */
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { v5 as uuidv5 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, tempDir, type TestServer } from '../helpers/app.js';
import type { Actor } from '../../server/auth/roles.js';
import { VA_NAMESPACE, type WorkMetadata } from '../../server/domain/work-metadata.js';
import type { WorkListItem, WorksPage } from '../../server/contract/works.js';
import type { FileNode, TrackNode } from '../../server/contract/tracks.js';

const AUDIO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/audio');
const VA = { id: uuidv5('藤堂ゆい', VA_NAMESPACE), name: '藤堂ゆい' };
const TAG = 497;
const CIRCLE = 12345;
const TRACK_NAME = '01 おやすみ・耳かき (ささやき).mp3';

function metadata(over: Partial<WorkMetadata> & Pick<WorkMetadata, 'title' | 'nsfw' | 'release'>): WorkMetadata {
  return {
    circle: { id: CIRCLE, name: '月下工房' },
    tags: [{ id: TAG, name: '掏耳朵' }],
    vas: [VA],
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

/** Scanned first. RJ999999 never gets metadata (all ages, no release). */
const FIRST: Record<number, { dir: string; md: WorkMetadata | null }> = {
  123456: { dir: 'RJ123456 ねむりの森', md: metadata({ title: 'ねむりの森', nsfw: true, release: '2021-03-05' }) },
  200001: { dir: 'RJ200001 朝の森', md: metadata({ title: '朝の森', nsfw: false, release: '2019-01-01' }) },
  1234567: { dir: 'RJ01234567 プラネタリウム', md: metadata({ title: 'プラネタリウム', nsfw: false, release: '2023-11-22', circle: { id: 60123, name: 'Studio Hoshizora' } }) },
  999999: { dir: '[サークル] RJ999999 メタデータなし', md: null },
};
/** Added a second later; two share a release day (ties within an age group go by id). */
const SECOND: Record<number, { dir: string; md: WorkMetadata }> = {
  1100001: { dir: 'RJ01100001 中文版', md: metadata({ title: '中文版', nsfw: true, release: '2022-08-01' }) },
  300003: { dir: 'RJ300003 夜の森', md: metadata({ title: '夜の森', nsfw: true, release: '2022-08-01' }) },
  400004: { dir: 'RJ400004 発売日なし', md: metadata({ title: '発売日なし', nsfw: false, release: '', circle: { id: 60123, name: 'Studio Hoshizora' } }) },
};
const ALL_IDS = [...Object.keys(FIRST), ...Object.keys(SECOND)].map(Number);
/** The work whose folder changes last. */
const CHANGED = 200001;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('kikoeru clients: list orders and download URLs as the apps build them', () => {
  let t: TestServer;
  let token: string;
  let lib: string;
  /** Every work's list form, read once the library is complete. */
  let rows: Map<number, WorkListItem>;
  const ids = (page: WorksPage) => page.works.map((w) => w.id);
  /** GET as the clients send it: the bearer token in a lowercase `authorization` header (Android). */
  const get = async (p: string) => {
    const res = await t.request('GET', p, { headers: { authorization: `Bearer ${token}` } });
    const body = (await res.json()) as WorksPage & { error?: string };
    expect(res.status, `${p}: ${JSON.stringify(body)}`).toBe(200);
    return body;
  };

  /** The expected order of some works, from their own list-form fields (what the server stored). */
  function expected(order: 'create_date' | 'updated_at' | 'nsfw', sort: 'asc' | 'desc', only: number[] = ALL_IDS): number[] {
    const s = sort === 'asc' ? 1 : -1;
    const cmp = (a: WorkListItem, b: WorkListItem): number => {
      if (order === 'nsfw') {
        // the direction picks the age group; newest release first within it, then id
        if (a.nsfw !== b.nsfw) return s * (Number(a.nsfw) - Number(b.nsfw));
        if (a.release !== b.release) return a.release < b.release ? 1 : -1;
        return b.id - a.id;
      }
      const ka = order === 'create_date' ? a.created_at : a.updated_at;
      const kb = order === 'create_date' ? b.created_at : b.updated_at;
      if (ka !== kb) return s * (ka < kb ? -1 : 1);
      return s * (a.id - b.id);
    };
    return only
      .map((id) => rows.get(id)!)
      .sort(cmp)
      .map((w) => w.id);
  }

  beforeAll(async () => {
    lib = tempDir('kikoplay-clients-lib-');
    const put = (rel: string, from: string | Buffer) => {
      const dest = path.join(lib, rel);
      mkdirSync(path.dirname(dest), { recursive: true });
      if (typeof from === 'string') copyFileSync(path.join(AUDIO, from), dest);
      else writeFileSync(dest, from);
    };
    // Android has no page size of its own: lists come in the server's pages (3 here, to page them)
    t = await startTestServer({ flags: { rootFolders: [{ name: 'lib', path: lib }], pageSize: 3 } });
    await t.addUser('admin', 'adminpass', 'admin');
    token = await t.login('admin', 'adminpass');
    const row = (await t.app.repos.users.byName('admin'))!;
    const admin: Actor = { id: row.id, name: row.name, role: 'admin' };
    const scan = async () => expect((await t.app.services.scan.run(admin, { kind: 'scan', metadata: false })).status).toBe('finished');

    for (const w of Object.values(FIRST)) put(`${w.dir}/${TRACK_NAME}`, 'tone-2s.mp3');
    await scan();
    for (const [id, w] of Object.entries(FIRST)) if (w.md) await t.app.repos.library.applyMetadata(Number(id), w.md);
    await sleep(1100);
    for (const w of Object.values(SECOND)) put(`${w.dir}/${TRACK_NAME}`, 'tone-2s.mp3');
    await scan();
    for (const [id, w] of Object.entries(SECOND)) await t.app.repos.library.applyMetadata(Number(id), w.md);
    await sleep(1100);
    put(`${FIRST[CHANGED].dir}/${TRACK_NAME.replace('.mp3', '.lrc')}`, Buffer.from('[00:00.50]おはよう\n'));
    await scan();

    rows = new Map((await get('/api/works?order=id&sort=asc&pageSize=100')).works.map((w) => [w.id, w]));
    expect([...rows.keys()].sort((a, b) => a - b)).toEqual([...ALL_IDS].sort((a, b) => a - b));
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    rmSync(lib, { recursive: true, force: true });
  });

  it('keeps when each work was added and last changed', () => {
    const at = (id: number) => rows.get(id)!;
    for (const first of Object.keys(FIRST)) {
      for (const second of Object.keys(SECOND)) expect(at(Number(first)).created_at < at(Number(second)).created_at).toBe(true);
    }
    // the changed folder is the newest change; the scans that skipped unchanged folders kept theirs
    for (const id of ALL_IDS.filter((i) => i !== CHANGED)) expect(at(CHANGED).updated_at > at(id).updated_at, `${id}`).toBe(true);
    expect(at(CHANGED).created_at < at(CHANGED).updated_at).toBe(true);
  });

  it("an admin's rescan of an unchanged work keeps its change time", async () => {
    await sleep(1100);
    const rescan = await t.json('POST', '/api/work/scan/1234567', { token });
    expect(rescan.status).toBe(200);
    const after = (await get('/api/works?order=id&sort=asc&pageSize=100')).works.find((w) => w.id === 1234567)!;
    expect(after.updated_at).toBe(rows.get(1234567)!.updated_at);
    expect(ids(await get('/api/works?order=updated_at&sort=desc&pageSize=100'))).toEqual(expected('updated_at', 'desc'));
  });

  it('Kikoeru-android: order=create_date on the works, circle, tag, voice actor and search lists, paged by the server', async () => {
    const pages = async (base: string) => {
      const out: number[] = [];
      for (let page = 1; page <= 5; page++) {
        // Api.java: "...?order=%s&sort=%s&page=%d&seed=35&subtitle=%d"
        const body = await get(base.replace('{page}', String(page)));
        expect(body.pagination).toMatchObject({ currentPage: page, pageSize: 3 });
        if (!body.works.length) break;
        out.push(...ids(body));
      }
      return out;
    };
    for (const sort of ['desc', 'asc'] as const) {
      expect(await pages(`/api/works?order=create_date&sort=${sort}&page={page}&seed=35&subtitle=0`)).toEqual(expected('create_date', sort));
      const inCircle = ALL_IDS.filter((id) => rows.get(id)!.circle_id === CIRCLE);
      expect(await pages(`/api/circles/${CIRCLE}/works?order=create_date&sort=${sort}&page={page}&seed=21&subtitle=0`)).toEqual(expected('create_date', sort, inCircle));
      const tagged = ALL_IDS.filter((id) => rows.get(id)!.tags.length);
      expect(await pages(`/api/tags/${TAG}/works?order=create_date&sort=${sort}&page={page}&seed=21&subtitle=0`)).toEqual(expected('create_date', sort, tagged));
      expect(await pages(`/api/vas/${VA.id}/works?order=create_date&sort=${sort}&page={page}&seed=21&subtitle=0`)).toEqual(expected('create_date', sort, tagged));
      expect(await pages(`/api/search/${encodeURIComponent('月下工房')}?order=create_date&sort=${sort}&page={page}&seed=18&subtitle=0`)).toEqual(expected('create_date', sort, inCircle));
    }
    // "last in library": the newest batch first, ties by id
    expect(expected('create_date', 'desc').slice(0, 3)).toEqual([1100001, 400004, 300003]);
  });

  it('Kikoeru-Flutter: nsfw and updated_at on /api/works, create_date, nsfw and updated_at on tag and voice-actor lists', async () => {
    const tagged = ALL_IDS.filter((id) => rows.get(id)!.tags.length);
    for (const sort of ['desc', 'asc'] as const) {
      // kikoeru_api_service.dart _getWorksCustom: page, pageSize, order, sort, subtitle, seed
      for (const order of ['nsfw', 'updated_at'] as const) {
        const body = await get(`/api/works?page=1&pageSize=40&order=${order}&sort=${sort}&subtitle=0&seed=21`);
        expect(body.pagination).toEqual({ currentPage: 1, pageSize: 40, totalCount: ALL_IDS.length });
        expect(ids(body)).toEqual(expected(order, sort));
      }
      for (const order of ['create_date', 'nsfw', 'updated_at'] as const) {
        expect(ids(await get(`/api/tags/${TAG}/works?page=1&pageSize=40&order=${order}&sort=${sort}&subtitle=0&seed=21`))).toEqual(expected(order, sort, tagged));
        expect(ids(await get(`/api/vas/${VA.id}/works?page=1&pageSize=40&order=${order}&sort=${sort}&subtitle=0&seed=21`))).toEqual(expected(order, sort, tagged));
      }
      // _searchWorksCustom: an advanced search of one fuzzy condition (create_date is sent as release)
      const keyword = encodeURIComponent(JSON.stringify([{ t: 1, d: '森', name: '森' }]));
      const forest = ALL_IDS.filter((id) => rows.get(id)!.title.includes('森'));
      for (const order of ['nsfw', 'updated_at'] as const) {
        expect(ids(await get(`/api/search?keyword=${keyword}&page=1&pageSize=40&order=${order}&sort=${sort}&subtitle=0&isAdvance=1`))).toEqual(expected(order, sort, forest));
      }
    }
    // "updated_at": the work whose folder changed last comes first
    expect(expected('updated_at', 'desc')[0]).toBe(CHANGED);
  });

  it('KikoFlu: 12-work pages, lyric= and nsfw= as it sends them', async () => {
    const tagged = ALL_IDS.filter((id) => rows.get(id)!.tags.length);
    const body = await get('/api/works?page=1&pageSize=12&order=updated_at&sort=desc&lyric=&seed=21');
    expect(ids(body)).toEqual(expected('updated_at', 'desc'));
    // lyric=local: only the changed work has a lyric file
    expect(ids(await get(`/api/tags/${TAG}/works?page=1&pageSize=12&order=create_date&sort=desc&lyric=local&seed=21`))).toEqual([CHANGED]);
    expect(ids(await get(`/api/vas/${VA.id}/works?page=1&pageSize=12&order=nsfw&sort=asc&lyric=&seed=21`))).toEqual(expected('nsfw', 'asc', tagged));
    const keyword = encodeURIComponent(JSON.stringify([{ t: 3, d: TAG }]));
    expect(ids(await get(`/api/search?keyword=${keyword}&page=1&pageSize=12&order=updated_at&sort=asc&isAdvance=1&nsfw=0&lyric=&seed=0`))).toEqual(expected('updated_at', 'asc', tagged));
  });

  it('the old web client: "all ages, newest first" is order=nsfw&sort=asc', async () => {
    // Works.vue requestWorksQueue: order, sort, page, seed
    const body = await get('/api/works?order=nsfw&sort=asc&page=1&seed=42');
    expect(ids(body)).toEqual([1234567, 200001, 999999]);
    expect(expected('nsfw', 'asc')).toEqual([1234567, 200001, 999999, 400004, 1100001, 300003, 123456]);
    expect(expected('nsfw', 'desc')).toEqual([1100001, 300003, 123456, 1234567, 200001, 999999, 400004]);
  });

  it('pages every new order on every list kind without gaps or repeats, in both directions', async () => {
    const lists: [string, number[]][] = [
      ['/api/works?', ALL_IDS],
      [`/api/circles/${CIRCLE}/works?`, ALL_IDS.filter((id) => rows.get(id)!.circle_id === CIRCLE)],
      [`/api/tags/${TAG}/works?`, ALL_IDS.filter((id) => rows.get(id)!.tags.length)],
      [`/api/vas/${VA.id}/works?`, ALL_IDS.filter((id) => rows.get(id)!.vas.length)],
      [`/api/search?keyword=${encodeURIComponent('森')}&`, ALL_IDS.filter((id) => rows.get(id)!.title.includes('森'))],
    ];
    for (const [base, members] of lists) {
      for (const order of ['create_date', 'updated_at', 'nsfw'] as const) {
        for (const sort of ['asc', 'desc'] as const) {
          const paged: number[] = [];
          for (let page = 1; page <= Math.ceil(members.length / 2); page++) {
            const body = await get(`${base}order=${order}&sort=${sort}&page=${page}&pageSize=2`);
            expect(body.pagination.totalCount).toBe(members.length);
            paged.push(...ids(body));
          }
          expect(paged, `${base} ${order} ${sort}`).toEqual(expected(order, sort, members));
        }
      }
    }
  });

  it('still refuses an order nobody sends, naming the accepted ones', async () => {
    const res = await t.request('GET', '/api/works?order=create_time', { token });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string };
    expect(body.error).toContain('create_date');
    expect(body.error).toContain('updated_at');
  });

  describe("Flutter's download URL with the file name appended", () => {
    let hash: string;
    let plain: { bytes: Buffer; disposition: string | null; type: string | null };

    beforeAll(async () => {
      const tree = (await t.json<TrackNode[]>('GET', '/api/tracks/123456', { token })).body;
      const file = tree.find((n): n is FileNode => n.type !== 'folder' && n.title === TRACK_NAME)!;
      hash = file.hash;
      const res = await t.request('GET', `/api/media/download/${hash}?token=${token}`);
      expect(res.status).toBe(200);
      plain = { bytes: Buffer.from(await res.arrayBuffer()), disposition: res.headers.get('content-disposition'), type: res.headers.get('content-type') };
    });

    it('serves the same file as /api/media/download/<hash> (file_selection_dialog.dart: Uri.encodeComponent(file.title))', async () => {
      const res = await t.request('GET', `/api/media/download/${hash}/${encodeURIComponent(TRACK_NAME)}?token=${token}`);
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(plain.bytes)).toBe(true);
      expect(res.headers.get('content-disposition')).toBe(plain.disposition);
      expect(plain.disposition).toMatch(/^attachment/);
      expect(plain.disposition).toContain(encodeURIComponent('おやすみ'));
      expect(res.headers.get('content-type')).toBe(plain.type);
      // ranges work the same (resumed downloads)
      const part = await t.request('GET', `/api/media/download/${hash}/${encodeURIComponent(TRACK_NAME)}?token=${token}`, { headers: { Range: 'bytes=0-99' } });
      expect(part.status).toBe(206);
      expect(Buffer.from(await part.arrayBuffer()).equals(plain.bytes.subarray(0, 100))).toBe(true);
    });

    it('takes the name as informational: another name (or a broken escape) still gets the file, under its real name', async () => {
      for (const name of [
        encodeURIComponent('別の名前.mp3'),
        'track1.mp3',
        '%E3%81%8',
        TRACK_NAME.normalize('NFD')
          .split('')
          .map((c) => encodeURIComponent(c))
          .join(''),
      ]) {
        const res = await t.request('GET', `/api/media/download/${hash}/${name}?token=${token}`);
        expect(res.status, name).toBe(200);
        expect(Buffer.from(await res.arrayBuffer()).equals(plain.bytes)).toBe(true);
        expect(res.headers.get('content-disposition')).toBe(plain.disposition);
      }
      // the stream URL of the same shape (kikoeru_api_service.dart getStreamUrl) plays inline
      const stream = await t.request('GET', `/api/media/stream/${hash}/${encodeURIComponent(TRACK_NAME)}?token=${token}`);
      expect(stream.status).toBe(200);
      expect(stream.headers.get('content-disposition')).toBeNull();
      expect(Buffer.from(await stream.arrayBuffer()).equals(plain.bytes)).toBe(true);
    });

    it('answers like the plain URL for unknown files, bad hashes and missing tokens', async () => {
      const [workId] = hash.split('/');
      const unknown = await t.json('GET', `/api/media/download/${workId}/999/${encodeURIComponent(TRACK_NAME)}?token=${token}`);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toHaveProperty('error');
      const bad = await t.json('GET', `/api/media/download/${workId}/x/${encodeURIComponent(TRACK_NAME)}?token=${token}`);
      expect(bad.status).toBe(400);
      expect(bad.body).toHaveProperty('error');
      const anonymous = await t.request('GET', `/api/media/download/${hash}/${encodeURIComponent(TRACK_NAME)}`);
      expect(anonymous.status).toBe(401);
    });
  });
});
