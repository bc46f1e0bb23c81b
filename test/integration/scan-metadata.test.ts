import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASMR_ONE_TAG_BASE, FAST_SCRAPE_CONFIG, FIXTURE_WORKS, startFakeSites, type FakeSites } from '../helpers/fake-sites.js';
import { startLibraryServer, type LibraryServer } from '../helpers/library.js';
import { tempDir } from '../helpers/app.js';
import { generateTestLibrary } from '../../scripts/gen-library.js';
import { coverPath } from '../../server/media/covers.js';

describe('library scan with the recorded DLsite pages on loopback', () => {
  let sites: FakeSites;
  let t: LibraryServer;
  let root: string;
  let token: string;

  beforeAll(async () => {
    sites = await startFakeSites();
    root = tempDir('kikoplay-meta-lib-');
    // one folder per fixture work, with a little audio
    const lib = await generateTestLibrary(path.join(root, 'base'));
    for (const w of FIXTURE_WORKS) {
      const dir = path.join(root, 'works', `${w.code} folder title`);
      mkdirSync(dir, { recursive: true });
      const src = path.join(lib.root, lib.listed[0].dir, lib.listed[0].files[0].path);
      mkdirSync(dir, { recursive: true });
      (await import('node:fs')).copyFileSync(src, path.join(dir, '01.mp3'));
    }
    rmSync(path.join(root, 'base'), { recursive: true, force: true });
    t = await startLibraryServer({
      flags: { rootFolders: [{ name: 'meta', path: path.join(root, 'works') }], tagLanguage: 'ja-jp', ...sites.config, ...FAST_SCRAPE_CONFIG },
    });
    await t.addUser('admin', 'adminpass', 'admin');
    token = await t.login('admin', 'adminpass');
  });
  afterAll(async () => {
    await t?.close();
    await sites?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('fills titles, circles, tags in the configured language, voice actors, sales, ratings and covers', async () => {
    const summary = await t.scan();
    expect(summary.exitCode).toBe(0);
    expect(summary.counts.added).toBe(FIXTURE_WORKS.length);
    for (const w of FIXTURE_WORKS) {
      const row = await t.app.db.get<Record<string, unknown>>('SELECT * FROM works WHERE id = ?', [w.id]);
      expect(row, w.code).toBeDefined();
      if (w.notFound || !w.source) {
        expect(row!.metadata_status, w.code).toBe('not_found');
        expect(row!.title).toBe('folder title');
        continue;
      }
      expect(row!.metadata_status, w.code).toBe('ok');
      expect(row!.metadata_source, w.code).toBe(w.source);
      expect(row!.title, w.code).toBe(w.title);
      if (w.circle) {
        expect(row!.circle_id, w.code).toBe(w.circle.id);
        expect((await t.app.db.get<{ name: string }>('SELECT name FROM circles WHERE id = ?', [w.circle.id]))!.name).toBe(w.circle.name);
      }
      expect(row!.price, w.code).toBe(w.price);
      const tags = await t.app.db.all<{ id: number; name: string }>('SELECT t.id, t.name FROM work_tags wt JOIN tags t ON t.id = wt.tag_id WHERE wt.work_id = ? ORDER BY t.id', [w.id]);
      if (w.source === 'asmr.one') {
        // asmr.one tags live in their own id range; the names are asmr.one's
        expect(tags.map((x) => x.name).sort(), w.code).toEqual(w.tagsByLanguage['ja-jp'].map((x) => x.name).sort());
        expect(tags.every((x) => x.id >= ASMR_ONE_TAG_BASE)).toBe(true);
      } else {
        expect(tags, w.code).toEqual(w.tagsByLanguage['ja-jp'].slice().sort((a, b) => a.id - b.id));
      }
      const vas = await t.app.db.all<{ id: string; name: string }>('SELECT v.id, v.name FROM work_vas wv JOIN vas v ON v.id = wv.va_id WHERE wv.work_id = ? ORDER BY wv.position', [w.id]);
      expect(vas, w.code).toEqual(w.vas);
      const fts = await t.app.db.get<{ body: string }>('SELECT body FROM works_fts WHERE rowid = ?', [w.id]);
      expect(fts!.body.length).toBeGreaterThan(w.code.length);
      if (w.coverFiles) {
        expect(row!.cover_source, w.code).toBe('dlsite');
        const served = Buffer.from(await (await t.request('GET', `/api/cover/${w.id}?type=main`, { token })).arrayBuffer());
        expect(served.equals(readFileSync(coverPath(path.join(t.dataDir, 'covers'), w.id, 'main'))), w.code).toBe(true);
      }
    }
    const rj6 = FIXTURE_WORKS.find((w) => w.key === 'rj6')!;
    const row = await t.app.db.get<Record<string, number>>('SELECT dl_count, review_count, rate_count, rate_average_2dp FROM works WHERE id = ?', [rj6.id]);
    expect(row!.dl_count).toBeGreaterThan(0);
    expect(row!.rate_count).toBeGreaterThan(0);
    expect(row!.rate_average_2dp).toBeGreaterThan(0);
    const counts = await t.app.db.get<{ work_count: number }>('SELECT work_count FROM circles WHERE id = ?', [rj6.circle!.id]);
    expect(counts!.work_count).toBeGreaterThanOrEqual(1);
  });

  it('keeps fields a user edited on a refresh, and updates the rest', async () => {
    const rj6 = FIXTURE_WORKS.find((w) => w.key === 'rj6')!;
    await t.app.db.run(`UPDATE works SET title = 'my own title', price = 1, edited_fields = '["title"]' WHERE id = ?`, [rj6.id]);
    const summary = await t.scan({ kind: 'refresh' });
    expect(summary.counts.updated).toBeGreaterThan(0);
    const row = await t.app.db.get<{ title: string; price: number }>('SELECT title, price FROM works WHERE id = ?', [rj6.id]);
    expect(row).toEqual({ title: 'my own title', price: rj6.price });
  });

  it('does not ask DLsite again for works already known on a rescan', async () => {
    const before = sites.requests.length;
    const summary = await t.scan();
    expect(summary.counts.skipped).toBe(FIXTURE_WORKS.length);
    // known works are not fetched again, and not-found works wait a week before they are asked again
    expect(sites.requests.length - before).toBe(0);
  });
});
