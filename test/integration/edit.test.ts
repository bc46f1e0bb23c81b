/**
 * Metadata editing (`POST /api/edit/work/:id`), the editor's candidates and "uncensor tags", against works
 * scanned and enriched from the recorded DLsite pages on loopback — and the edits surviving the scanner's
 * "refresh library info".
 */
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { v5 as uuidv5 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAST_SCRAPE_CONFIG, fixtureWork, startFakeSites, type FakeSites } from '../helpers/fake-sites.js';
import { startLibraryServer, type LibraryServer } from '../helpers/library.js';
import { tempDir } from '../helpers/app.js';
import { VA_NAMESPACE } from '../../server/domain/work-metadata.js';

const AUDIO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/audio');
const RJ6 = fixtureWork('rj6');
const RJ8 = fixtureWork('rj8');
const va = (name: string) => ({ id: uuidv5(name, VA_NAMESPACE), name });

interface Detail {
  id: number;
  title: string;
  circle: { id: number; name: string };
  tags: { id: number; name: string }[];
  vas: { id: string; name: string }[];
  price: number;
  error?: string;
}

describe('metadata editing', () => {
  let sites: FakeSites;
  let t: LibraryServer;
  let root: string;
  let admin: string;
  let user: string;
  let guest: string;

  const edit = (id: number | string, body: unknown, token = admin) => t.json<Record<string, unknown>>('POST', `/api/edit/work/${id}`, { token, body });
  const detail = async (id: number) => (await t.json<Detail>('GET', `/api/work/${id}`, { token: admin })).body;
  const search = async (kw: string) => (await t.json<{ works: { id: number }[] }>('GET', `/api/search?keyword=${encodeURIComponent(kw)}`, { token: admin })).body.works.map((w) => w.id);
  const dbState = async () => ({
    works: await t.app.db.all('SELECT id, title, circle_id, edited_fields FROM works ORDER BY id'),
    workTags: await t.app.db.all('SELECT * FROM work_tags ORDER BY work_id, tag_id'),
    workVas: await t.app.db.all('SELECT * FROM work_vas ORDER BY work_id, position'),
    tags: await t.app.db.all('SELECT * FROM tags ORDER BY id'),
    vas: await t.app.db.all('SELECT * FROM vas ORDER BY id'),
    circles: await t.app.db.all('SELECT * FROM circles ORDER BY id'),
    fts: await t.app.db.all('SELECT rowid, body FROM works_fts ORDER BY rowid'),
  });

  beforeAll(async () => {
    sites = await startFakeSites();
    root = tempDir('kikoplay-edit-lib-');
    for (const w of [RJ6, RJ8]) {
      const dir = path.join(root, `${w.code} folder title`);
      mkdirSync(dir, { recursive: true });
      copyFileSync(path.join(AUDIO, 'tone-2s.mp3'), path.join(dir, '01.mp3'));
    }
    t = await startLibraryServer({ flags: { rootFolders: [{ name: 'lib', path: root }], ...sites.config, ...FAST_SCRAPE_CONFIG } });
    await t.addUser('admin', 'adminpass', 'admin');
    await t.addUser('alice', 'alicepass', 'user');
    await t.addUser('guest1', 'guestpass', 'guest');
    admin = await t.login('admin', 'adminpass');
    user = await t.login('alice', 'alicepass');
    guest = await t.login('guest1', 'guestpass');
    const summary = await t.scan();
    expect(summary.exitCode).toBe(0);
    expect((await detail(RJ6.id)).title).toBe(RJ6.title);
  });
  afterAll(async () => {
    await t?.close();
    await sites?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('replaces title, circle, tags and voice actors; new items get custom ids; search and counts follow', async () => {
    const keepTag = RJ6.tags[0];
    const res = await edit(RJ6.id, {
      title: '編集したタイトル ねむり',
      circle: { id: RJ8.circle!.id, name: 'ignored name', count: 3 },
      tags: [
        { id: keepTag.id, name: keepTag.name, count: 2, t: 3, d: keepTag.id },
        { id: 0, name: '自定义标签' },
      ],
      vas: [va('小鳥遊みく'), { id: 0, name: '新しい声優' }],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ result: true, edited_fields: ['title', 'circle', 'tags', 'vas'] });

    const d = await detail(RJ6.id);
    expect(d.title).toBe('編集したタイトル ねむり');
    expect(d.circle).toEqual(RJ8.circle);
    const custom = d.tags.find((tag) => tag.name === '自定义标签')!;
    expect(custom.id).toBeGreaterThanOrEqual(900_000_000);
    expect(custom.id).toBeLessThan(1_000_000_000);
    expect(d.tags.map((tag) => tag.id).sort((a, b) => a - b)).toEqual([keepTag.id, custom.id].sort((a, b) => a - b));
    expect(d.vas).toEqual([va('小鳥遊みく'), va('新しい声優')]);

    expect(await search('編集したタイトル')).toEqual([RJ6.id]);
    expect(await search('ねむりの森の癒やし屋さん')).toEqual([]);
    expect(await search('自定义标签')).toEqual([RJ6.id]);
    expect(await search('新しい声優')).toEqual([RJ6.id]);

    const circles = (await t.json<{ id: number; count: number }[]>('GET', '/api/circles', { token: admin })).body;
    expect(circles.find((c) => c.id === RJ8.circle!.id)?.count).toBe(2);
    expect(circles.find((c) => c.id === RJ6.circle!.id)).toBeUndefined();
    const vas = (await t.json<{ id: string; count: number }[]>('GET', '/api/vas', { token: admin })).body;
    expect(vas.find((v) => v.id === va('藤堂ゆい').id)).toBeUndefined();
    expect(vas.find((v) => v.id === va('新しい声優').id)?.count).toBe(1);
    expect((await t.json<{ works: { id: number }[] }>('GET', `/api/tags/${custom.id}/works`, { token: admin })).body.works.map((w) => w.id)).toEqual([RJ6.id]);
  });

  it('keeps every edited field through "refresh library info" while the rest follows DLsite', async () => {
    await t.app.db.run('UPDATE works SET price = 1 WHERE id IN (?, ?)', [RJ6.id, RJ8.id]);
    const before = await detail(RJ6.id);
    const summary = await t.scan({ kind: 'refresh' });
    expect(summary.counts.updated).toBe(2);
    const after = await detail(RJ6.id);
    expect({ title: after.title, circle: after.circle, tags: after.tags, vas: after.vas }).toEqual({ title: before.title, circle: before.circle, tags: before.tags, vas: before.vas });
    expect(after.price).toBe(RJ6.price);
    expect((await detail(RJ8.id)).price).toBe(RJ8.price);
    expect(await search('編集したタイトル')).toEqual([RJ6.id]);
  });

  it('marks only the fields that changed, and reuses custom items by name', async () => {
    const d8 = await detail(RJ8.id);
    const res = await edit(RJ8.id, { title: 'プラネタリウム 改', circle: d8.circle, tags: d8.tags, vas: d8.vas });
    expect(res.body).toMatchObject({ result: true, edited_fields: ['title'] });
    const again = await edit(RJ8.id, { title: 'プラネタリウム 改' });
    expect(again.body).toMatchObject({ result: true, edited_fields: ['title'] });

    const customTag = (await detail(RJ6.id)).tags.find((tag) => tag.name === '自定义标签')!;
    await edit(RJ8.id, { tags: [{ id: 0, name: '自定义标签' }], circle: { id: 0, name: '自作サークル' } });
    const d = await detail(RJ8.id);
    expect(d.tags).toEqual([customTag]);
    expect(d.circle.id).toBeGreaterThanOrEqual(900_000_000);
    expect(d.circle.name).toBe('自作サークル');
    await edit(RJ6.id, { circle: { id: 0, name: '自作サークル' } });
    expect((await detail(RJ6.id)).circle).toEqual(d.circle);
    expect((await t.app.db.get<{ edited_fields: string }>('SELECT edited_fields FROM works WHERE id = ?', [RJ8.id]))!.edited_fields).toBe('["title","circle","tags"]');
  });

  it('puts the N/A placeholder when no voice actor is left, and drops it next to real ones', async () => {
    await edit(RJ8.id, { vas: [] });
    expect((await detail(RJ8.id)).vas).toEqual([{ id: '0', name: 'N/A' }]);
    await edit(RJ8.id, { vas: [{ id: 0, name: 'N/A' }] });
    expect((await detail(RJ8.id)).vas).toEqual([{ id: '0', name: 'N/A' }]);
    await edit(RJ8.id, { vas: [{ id: '0', name: 'N/A' }, va('星野あかり')] });
    expect((await detail(RJ8.id)).vas).toEqual([va('星野あかり')]);
  });

  describe('bad inputs change nothing', () => {
    const tag = () => RJ6.tags[0];
    const cases: [string, () => [number | string, unknown], number, string?][] = [
      ['a duplicate tag', () => [RJ6.id, { tags: [tag(), tag()] }], 400, '项目已存在，无需重复添加'],
      ['a new tag named like a chosen one', () => [RJ6.id, { tags: [tag(), { id: 0, name: tag().name }] }], 400, '项目已存在，无需重复添加'],
      [
        'two new tags of one name',
        () => [
          RJ6.id,
          {
            tags: [
              { id: 0, name: 'x' },
              { id: 0, name: 'Ｘ' },
            ],
          },
        ],
        400,
        '项目已存在，无需重复添加',
      ],
      ['a duplicate voice actor', () => [RJ6.id, { vas: [va('A'), { id: 0, name: 'A' }] }], 400, '项目已存在，无需重复添加'],
      ['an unknown tag id', () => [RJ6.id, { tags: [{ id: 123456789, name: 'nope' }] }], 400],
      ['an unknown circle id', () => [RJ6.id, { circle: { id: 424242, name: 'nope' } }], 400],
      ['an unknown voice actor id', () => [RJ6.id, { vas: [{ id: 'not-a-uuid-of-the-name', name: 'someone' }] }], 400],
      ['an empty title', () => [RJ6.id, { title: '   ' }], 400],
      ['a title of the wrong type', () => [RJ6.id, { title: 42 }], 400],
      ['tags that are not an array', () => [RJ6.id, { tags: 'a,b' }], 400],
      ['a tag id of the wrong type', () => [RJ6.id, { tags: [{ id: 'seven', name: 'x' }] }], 400],
      ['a new circle without a name', () => [RJ6.id, { circle: { id: 0, name: '' } }], 400],
      ['nothing to edit', () => [RJ6.id, {}], 400],
      ['an oversized body', () => [RJ6.id, { title: 'x'.repeat(1_100_000) }], 413],
      ['an unknown work', () => [999999, { title: 'x' }], 404],
      ['a work id that is not a number', () => ['RJ123456', { title: 'x' }], 400],
      ['a user', () => [RJ6.id, { title: 'x' }], 403, 'user'],
      ['a guest', () => [RJ6.id, { title: 'x' }], 403, 'guest'],
    ];
    it.each(cases)('%s', async (_name, input, status, extra) => {
      const [id, body] = input();
      const before = await dbState();
      const token = extra === 'user' ? user : extra === 'guest' ? guest : admin;
      const res = await edit(id, body, token);
      expect(res.status).toBe(status);
      expect(typeof res.body.error).toBe('string');
      if (extra && extra !== 'user' && extra !== 'guest') expect(res.body.error).toBe(extra);
      expect(await dbState()).toEqual(before);
    });
  });

  describe('candidates', () => {
    it('lists matching tags, voice actors and circles (custom and unused ones too) for the editor', async () => {
      const tags = await t.json<{ id: number; name: string; count: number; type: string; t: number; d: number }[]>('GET', `/api/edit/candidates?type=tag&q=${encodeURIComponent('自定义')}`, {
        token: admin,
      });
      expect(tags.status).toBe(200);
      expect(tags.body).toHaveLength(1);
      expect(tags.body[0]).toMatchObject({ name: '自定义标签', count: 2, type: 'tag', t: 3 });
      expect(tags.body[0].d).toBe(tags.body[0].id);
      const vas = await t.json<{ id: string; name: string; type: string; t: number }[]>('GET', '/api/edit/candidates?type=vas', { token: admin });
      expect(vas.body.map((v) => v.name)).toEqual(expect.arrayContaining(['藤堂ゆい', '新しい声優', '星野あかり']));
      expect(vas.body.every((v) => v.type === 'va' && v.t === 2)).toBe(true);
      const circles = await t.json<{ id: number; name: string; count: number }[]>('GET', '/api/edit/candidates?type=circle&limit=500', { token: admin });
      expect(circles.body.some((c) => c.id === 0)).toBe(false);
      // a circle no work uses any more is still offered
      expect(circles.body.find((c) => c.id === RJ6.circle!.id)).toMatchObject({ name: RJ6.circle!.name, count: 0 });
    });

    it('answers 400 for a bad type or limit and 403 for users and guests', async () => {
      for (const q of ['type=genre', '', 'type=tag&limit=0', 'type=tag&limit=x']) expect((await t.json('GET', `/api/edit/candidates?${q}`, { token: admin })).status, q).toBe(400);
      expect((await t.json('GET', '/api/edit/candidates?type=tag', { token: user })).status).toBe(403);
      expect((await t.json('GET', '/api/edit/candidates?type=tag', { token: guest })).status).toBe(403);
    });
  });

  describe('uncensor tags', () => {
    it('restores censored names reversibly, keeps the restored name through a refresh, and updates search', async () => {
      await edit(RJ8.id, {
        tags: [
          { id: 0, name: '合意なし' },
          { id: 0, name: '精神支配' },
          { id: 0, name: '屈辱' },
        ],
      });
      const res = await t.json('POST', '/api/uncensor/tags', { token: admin });
      expect(res).toEqual({ status: 200, body: { result: 'finished', changed: 2 } });
      const names = async () => (await detail(RJ8.id)).tags.map((tag) => tag.name).sort();
      expect(await names()).toEqual(['レイプ', '屈辱', '洗脳']);
      expect(await search('洗脳')).toEqual([RJ8.id]);
      expect(await search('精神支配')).toEqual([]);
      // idempotent
      expect((await t.json('POST', '/api/uncensor/tags', { token: admin })).body).toEqual({ result: 'finished', changed: 0 });

      const undo = await t.json('POST', '/api/uncensor/tags?undo=1', { token: admin });
      expect(undo.body).toEqual({ result: 'finished', changed: 2 });
      expect(await names()).toEqual(['合意なし', '屈辱', '精神支配']);
      expect(await search('精神支配')).toEqual([RJ8.id]);
      expect((await t.app.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM tags WHERE original_name IS NOT NULL'))!.n).toBe(0);
    });

    it('applies pairs given in the body, and a refresh keeps the restored DLsite tag name', async () => {
      const dlsiteTag = RJ6.tags[0];
      await edit(RJ8.id, { tags: [{ id: dlsiteTag.id, name: dlsiteTag.name }] });
      // let DLsite own the tags of RJ8 again
      await t.app.db.run(`UPDATE works SET edited_fields = '["title"]' WHERE id = ?`, [RJ8.id]);
      const res = await t.json('POST', '/api/uncensor/tags', { token: admin, body: { mapping: { [dlsiteTag.name]: '元の名前' } } });
      // the body's pair, and the two censored tags of the test before (unused now, still in the library)
      expect(res.body).toEqual({ result: 'finished', changed: 3 });
      await t.scan({ kind: 'refresh' });
      const row = await t.app.db.get<{ name: string; original_name: string }>('SELECT name, original_name FROM tags WHERE id = ?', [dlsiteTag.id]);
      expect(row).toEqual({ name: '元の名前', original_name: dlsiteTag.name });
      await t.json('POST', '/api/uncensor/tags?undo=true', { token: admin });
      expect((await t.app.db.get<{ name: string }>('SELECT name FROM tags WHERE id = ?', [dlsiteTag.id]))!.name).toBe(dlsiteTag.name);
    });

    it('answers 403 for users and guests and 400 for a bad mapping, changing nothing', async () => {
      await edit(RJ8.id, { tags: [{ id: 0, name: '合意なし' }] });
      const before = await dbState();
      for (const [token, body, q, status] of [
        [user, undefined, '', 403],
        [guest, undefined, '', 403],
        [admin, { mapping: ['合意なし', 'レイプ'] }, '', 400],
        [admin, { mapping: { 合意なし: 7 } }, '', 400],
        [admin, { mapping: { 合意なし: '' } }, '', 400],
        [admin, undefined, '?undo=maybe', 400],
      ] as const) {
        const res = await t.json<{ error?: string }>('POST', `/api/uncensor/tags${q}`, { token, body });
        expect(res.status).toBe(status);
        expect(typeof res.body.error).toBe('string');
      }
      expect(await dbState()).toEqual(before);
    });
  });
});
