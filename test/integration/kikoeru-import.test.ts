/**
 * `kikoplay import kikoeru` on kikoeru 0.6.7 installations built from the facts (test/helpers/kikoeru-fixture.ts):
 * every field round-trips, old passwords log in through the real HTTP login and are re-hashed, the default
 * admin does not log in, a second run changes nothing, the kikoeru files stay byte for byte, foreign files
 * and other schemas are refused with nothing changed, and a running scan refuses the import.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import sqlite3 from 'sqlite3';
import { open } from 'sqlite';
import { tempDir } from '../helpers/app.js';
import { OFFLINE_SITES, startLibraryServer, type LibraryServer } from '../helpers/library.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { buildForeignSqlite, buildKikoeruFixture, type KikoeruFixture } from '../helpers/kikoeru-fixture.js';
import { KikoeruImportRefused } from '../../server/services/kikoeru-import/source.js';
import { NO_PASSWORD_HASH } from '../../server/auth/password.js';
import { ScanLock } from '../../server/library/scan/scan-lock.js';
import type { ImportSummary } from '../../server/services/kikoeru-import/import-service.js';

let current: LibraryServer | null = null;
afterEach(async () => {
  await current?.close();
  current = null;
});

async function setup(works: number): Promise<{ t: LibraryServer; fx: KikoeruFixture }> {
  const fx = await buildKikoeruFixture({ dir: tempDir('kikoeru-'), works });
  current = await startLibraryServer({ flags: OFFLINE_SITES, dataDir: tempDir() });
  return { t: current, fx };
}

const importInto = (s: LibraryServer, fx: KikoeruFixture, extra: { dryRun?: boolean; covers?: boolean } = {}) =>
  s.app.services.kikoeruImport.run({ db: fx.dbFile, config: fx.configFile, covers: extra.covers === false ? undefined : fx.coverDir, dryRun: extra.dryRun });

/** Every row of every table of kikoplay's database (and the config file), to compare runs. */
async function dump(s: LibraryServer): Promise<string> {
  const tables = await s.app.db.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'works_fts_%' ORDER BY name");
  const out: Record<string, unknown> = {};
  for (const { name } of tables) out[name] = await s.app.db.all(name === 'works_fts' ? 'SELECT rowid, body FROM works_fts ORDER BY rowid' : `SELECT * FROM "${name}" ORDER BY 1, 2`);
  const config = path.join(s.dataDir, 'config.json');
  out.config = existsSync(config) ? readFileSync(config, 'utf8') : null;
  return JSON.stringify(out);
}

/** sha256 of every file under a folder, by relative path (new or removed files show too). */
function hashTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[path.relative(dir, p)] = createHash('sha256').update(readFileSync(p)).digest('hex') + ':' + statSync(p).mtimeMs;
    }
  };
  walk(dir);
  return out;
}

const changed = (s: ImportSummary) =>
  s.users.created +
  s.users.updated +
  s.works.created +
  s.works.updated +
  s.reviews.created +
  s.reviews.updated +
  s.history.created +
  s.history.updated +
  s.aiTasks.created +
  s.aiTasks.updated +
  s.covers.copied;

describe.each([{ works: 12 }, { works: 60 }])('kikoeru import, $works works', ({ works }) => {
  it('brings every field over; a later offline scan keeps the metadata and fetches nothing', async () => {
    const { t, fx } = await setup(works);
    const summary = await importInto(t, fx);
    expect(summary.works.created).toBe(works);
    const db = t.app.db;

    // works: metadata, labels, location, durations, lyric flag, known metadata (no fetch due)
    for (const w of fx.works) {
      const row = await db.get<Record<string, unknown>>('SELECT * FROM works WHERE id = ?', [w.id]);
      expect(row, w.code).toBeDefined();
      expect(row).toMatchObject({
        code: w.code,
        title: w.title,
        circle_id: w.circle.id,
        nsfw: w.nsfw ? 1 : 0,
        release: w.release,
        dl_count: w.dlCount,
        price: w.price,
        review_count: w.reviewCount,
        rate_count: w.rateCount,
        rate_average_2dp: w.rateAverage,
        root_folder: w.rootFolder,
        dir: w.dir,
        missing: w.rootFolder === 'main' ? 0 : 1,
        metadata_status: 'ok',
        has_local_lyric: w.lyricStatus === 'local' || w.lyricStatus === 'ai_local' ? 1 : 0,
      });
      expect(JSON.parse(row!.rate_count_detail as string)).toEqual(w.rateCountDetail);
      expect(row!.rank === null ? null : JSON.parse(row!.rank as string)).toEqual(w.rank);
      expect(row!.total_duration).toBeCloseTo(
        w.files.reduce((a, f) => a + f.duration, 0),
        3,
      );
      expect(row!.created_at).toBe(w.createdAt);
      const circle = await db.get<{ name: string }>('SELECT name FROM circles WHERE id = ?', [w.circle.id]);
      expect(circle?.name).toBe(w.circle.name);
      const tags = await db.all<{ id: number; name: string }>('SELECT t.id, t.name FROM work_tags wt JOIN tags t ON t.id = wt.tag_id WHERE wt.work_id = ? ORDER BY t.id', [w.id]);
      expect(tags).toEqual(w.tags.slice().sort((a, b) => a.id - b.id));
      const vas = await db.all<{ id: string; name: string }>('SELECT v.id, v.name FROM work_vas wv JOIN vas v ON v.id = wv.va_id WHERE wv.work_id = ? ORDER BY wv.position', [w.id]);
      expect(vas).toEqual(w.vas);
    }
    // the tag name kikoeru has under two ids keeps both
    expect((await db.all('SELECT id FROM tags WHERE name = ?', [fx.works[0].tags[0].name])).length).toBe(2);

    // users and roles
    const users = await db.all<{ name: string; role: string; must_change_password: number; password_hash: string }>('SELECT name, role, must_change_password, password_hash FROM users');
    for (const u of fx.users) {
      const row = users.find((x) => x.name === u.name)!;
      expect(row.role).toBe({ administrator: 'admin', user: 'user', guest: 'guest' }[u.group]);
      expect(row.must_change_password).toBe(u.password === 'admin' ? 1 : 0);
      expect(row.password_hash.startsWith(u.password === 'admin' ? '!' : 'kikoeru-md5$')).toBe(true);
    }

    // reviews: byte for byte (emoji, CRLF, NFD, long), partial rows as they were, their times
    const ids = new Map(users.map((u, i) => [u.name, i]));
    expect(ids.size).toBe(fx.users.length);
    for (const r of fx.reviews) {
      const row = await db.get<Record<string, unknown>>('SELECT r.* FROM reviews r JOIN users u ON u.id = r.user_id WHERE u.name = ? AND r.work_id = ?', [r.user, r.workId]);
      expect(row, `${r.user}/${r.workId}`).toMatchObject({ rating: r.rating, review_text: r.text, progress: r.progress, created_at: r.createdAt, updated_at: r.updatedAt });
    }
    expect((await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM reviews'))!.n).toBe(fx.reviews.length);
    expect(fx.reviews.some((r) => r.text && r.text.length > 255 && r.text.includes('\r\n') === false)).toBe(true);

    // play history of every work, hidden and unreachable ones included
    for (const h of fx.history) {
      const row = await db.get<{ state: string; updated_at: string }>('SELECT h.state, h.updated_at FROM play_history h JOIN users u ON u.id = h.user_id WHERE u.name = ? AND h.work_id = ?', [
        h.user,
        h.workId,
      ]);
      expect(JSON.parse(row!.state)).toEqual(h.state);
      expect(row!.updated_at).toBe(h.updatedAt);
    }

    // AI tasks: statuses and finished lyrics
    for (const task of fx.tasks) {
      const row = await db.get<{ status: number; lrc: string | null; worker_status: string }>('SELECT status, lrc, worker_status FROM ai_tasks WHERE work_id = ? AND audio_path = ?', [
        task.workId,
        task.audioPath,
      ]);
      expect(row?.status).toBe(task.status);
      expect(row?.lrc).toBe(task.lrc);
    }
    const ai = await db.all<{ id: number }>('SELECT id FROM works WHERE has_ai_lyric = 1 ORDER BY id');
    expect(ai.map((r) => r.id)).toEqual([...new Set(fx.tasks.filter((x) => x.status === 3).map((x) => x.workId))].sort((a, b) => a - b));

    // covers: copied byte for byte, marked as DLsite's
    for (const [i, w] of fx.works.entries()) {
      const row = await db.get<{ cover_source: string | null }>('SELECT cover_source FROM works WHERE id = ?', [w.id]);
      expect(row?.cover_source).toBe(i % 2 ? null : 'dlsite');
      if (i % 2 === 0) expect(readFileSync(path.join(t.app.store.paths().coverDir, `${w.code}_img_main.jpg`))).toEqual(readFileSync(path.join(fx.coverDir, `${w.code}_img_main.jpg`)));
    }

    // root folders: the reachable one configured, the unreachable one kept and marked, none deleted
    expect(t.app.store.get().rootFolders).toEqual([{ name: 'main', path: path.join(fx.dir, 'library') }]);
    expect(await db.all('SELECT name, path FROM imported_root_folders')).toEqual([{ name: 'offline-disk', path: path.join(fx.dir, 'unplugged-drive') }]);

    // a scan with every metadata site unreachable: nothing is fetched, the imported metadata stays
    const before = await db.all('SELECT id, title, circle_id, release, dl_count, metadata_status, metadata_source FROM works ORDER BY id');
    const scan = await t.scan({ kind: 'scan', full: false, metadata: true });
    expect(scan.metadata.failed).toBe(0);
    expect(t.events.some((e) => e.type === 'task-failed')).toBe(false);
    expect(await db.all('SELECT id, title, circle_id, release, dl_count, metadata_status, metadata_source FROM works ORDER BY id')).toEqual(before);
    // the scanned works' files got numbers in kikoeru's listing order: the history hashes name the same files
    for (const w of fx.works.filter((x) => x.rootFolder === 'main')) {
      const files = await db.all<{ n: number; path: string }>('SELECT n, path FROM files WHERE work_id = ? ORDER BY n', [w.id]);
      expect(files.map((f) => f.path)).toEqual(w.files.map((f) => f.path));
    }
    // still missing: the works of the unreachable and unknown roots, with their user data
    expect((await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM works WHERE missing = 1'))!.n).toBe(fx.works.filter((w) => w.rootFolder !== 'main').length);

    // a second run after the scan changes nothing
    const snapshot = await dump(t);
    const again = await importInto(t, fx);
    expect(changed(again)).toBe(0);
    expect(await dump(t)).toBe(snapshot);
  });
});

describe('kikoeru import: passwords', () => {
  it('old passwords log in through the HTTP login and are re-hashed; admin/admin never logs in; a kikoplay account keeps its password', async () => {
    const { t, fx } = await setup(8);
    // a kikoplay account with the name of a kikoeru one
    await t.addUser('carol', 'kikoplay-own-pw', 'user');
    const summary = await importInto(t, fx);
    expect(summary.users.merged).toEqual(['carol']);
    expect(summary.users.needPassword).toEqual(['admin']);

    for (const name of ['alice', 'bobby', 'guest']) {
      const u = fx.users.find((x) => x.name === name)!;
      const res = await t.json('POST', '/api/auth/me', { body: { name, password: u.password } });
      expect(res.status, name).toBe(200);
      const row = await t.app.repos.users.byName(name);
      expect(row!.password_hash.startsWith('scrypt$'), name).toBe(true);
      // the new hash works, the legacy one is gone
      expect((await t.json('POST', '/api/auth/me', { body: { name, password: u.password } })).status).toBe(200);
      expect((await t.json('POST', '/api/auth/me', { body: { name, password: u.password + 'x' } })).status).toBe(401);
    }
    // the default admin/admin: refused, no usable hash, asked to change once an admin sets one
    expect((await t.json('POST', '/api/auth/me', { body: { name: 'admin', password: 'admin' } })).status).toBe(401);
    const admin = await t.app.repos.users.byName('admin');
    expect(admin!.password_hash).toBe(NO_PASSWORD_HASH);
    expect(admin!.must_change_password).toBe(1);
    // the kikoplay account keeps its own password and gets the kikoeru data
    expect((await t.json('POST', '/api/auth/me', { body: { name: 'carol', password: 'kikoplay-own-pw' } })).status).toBe(200);
    expect((await t.json('POST', '/api/auth/me', { body: { name: 'carol', password: fx.users.find((x) => x.name === 'carol')!.password } })).status).toBe(401);
    const carol = await t.app.repos.users.byName('carol');
    const reviews = await t.app.db.all('SELECT work_id FROM reviews WHERE user_id = ?', [carol!.id]);
    expect(reviews.length).toBe(fx.reviews.filter((r) => r.user === 'carol').length);
    // a re-import does not bring the legacy hash back over the re-hashed password
    await importInto(t, fx);
    expect((await t.app.repos.users.byName('alice'))!.password_hash.startsWith('scrypt$')).toBe(true);
  });
});

describe('kikoeru import: safety', () => {
  it('leaves the kikoeru files byte for byte as they were; a dry run changes nothing', async () => {
    const { t, fx } = await setup(10);
    const before = hashTree(fx.dir);
    const empty = await dump(t);
    const dry = await importInto(t, fx, { dryRun: true });
    expect(dry.works.created).toBe(10);
    expect(await dump(t)).toBe(empty);
    await importInto(t, fx);
    await importInto(t, fx);
    expect(hashTree(fx.dir)).toEqual(before);
  });

  it('a later run brings in what is new in kikoeru', async () => {
    const { t, fx } = await setup(6);
    await importInto(t, fx);
    const db = await open({ filename: fx.dbFile, driver: sqlite3.Database });
    await db.run("UPDATE t_review SET rating = 1, updated_at = '2030-01-01 00:00:00' WHERE user_name = ? AND work_id = ?", [fx.reviews[0].user, String(fx.reviews[0].workId)]);
    await db.run("INSERT INTO t_user (name, password, \"group\") VALUES ('newcomer', '0123456789abcdef0123456789abcdef', 'user')");
    await db.close();
    const next = await importInto(t, fx);
    expect(next.users.created).toBe(1);
    expect(next.reviews.updated).toBe(1);
    expect(changed(next)).toBe(2);
    const row = await t.app.db.get<{ rating: number }>('SELECT r.rating FROM reviews r JOIN users u ON u.id = r.user_id WHERE u.name = ? AND r.work_id = ?', [
      fx.reviews[0].user,
      fx.reviews[0].workId,
    ]);
    expect(row?.rating).toBe(1);
  });

  it('leaves out reviews and play histories it cannot place, saying which and why, and brings the rest', async () => {
    const { t, fx } = await setup(4);
    const [work, other] = fx.works;
    const user = fx.users.find((u) => u.group === 'user')!.name;
    const db = await open({ filename: fx.dbFile, driver: sqlite3.Database });
    // pairs the fixture has not used, so each row below is new
    await db.run('DELETE FROM t_review WHERE user_name = ? AND work_id IN (?, ?)', [user, String(work.id), String(other.id)]);
    await db.run('DELETE FROM t_play_histroy WHERE user_name = ? AND work_id IN (?, ?)', [user, work.id, other.id]);
    const review = 'INSERT INTO t_review (user_name, work_id, rating, review_text, progress) VALUES (?, ?, ?, ?, ?)';
    await db.run(review, ['nobody', String(work.id), 5, 'x', null]);
    await db.run(review, [user, 'RJ-what', 5, 'x', null]);
    await db.run(review, [user, '999999', 5, 'x', null]);
    await db.run(review, [user, String(work.id), null, null, null]);
    await db.run(review, [user, String(other.id), 3, null, null]);
    const history = 'INSERT INTO t_play_histroy (user_name, work_id, state) VALUES (?, ?, ?)';
    await db.run(history, ['nobody', work.id, '{}']);
    await db.run(history, [user, 'x', '{}']);
    await db.run(history, [user, 999999, '{}']);
    await db.run(history, [user, work.id, 'not json']);
    await db.run(history, [user, other.id, JSON.stringify({ queue: [], index: 0, seconds: 0, volume: 1 })]);
    await db.close();

    const summary = await importInto(t, fx);
    const byKey = (a: { kind: string; key: string }, b: { kind: string; key: string }) => `${a.kind} ${a.key}`.localeCompare(`${b.kind} ${b.key}`);
    const skipped = summary.skipped.filter((s) => s.kind === 'review' || s.kind === 'history').sort(byKey);
    expect(skipped).toEqual(
      [
        { kind: 'review', key: `nobody/${work.id}`, reason: 'user-unknown' },
        { kind: 'review', key: `${user}/999999`, reason: 'work-unknown' },
        { kind: 'review', key: `${user}/RJ-what`, reason: 'bad-work-id' },
        { kind: 'review', key: `${user}/${work.id}`, reason: 'empty-review' },
        { kind: 'history', key: `nobody/${work.id}`, reason: 'user-unknown' },
        { kind: 'history', key: `${user}/999999`, reason: 'work-unknown' },
        { kind: 'history', key: `${user}/${work.id}`, reason: 'bad-state' },
        { kind: 'history', key: `${user}/x`, reason: 'bad-work-id' },
      ].sort(byKey),
    );
    const ids = (table: string) =>
      t.app.db.all<{ work_id: number }>(`SELECT x.work_id FROM ${table} x JOIN users u ON u.id = x.user_id WHERE u.name = ? AND x.work_id IN (?, ?) ORDER BY 1`, [user, work.id, other.id]);
    expect(await ids('reviews')).toEqual([{ work_id: other.id }]);
    expect(await ids('play_history')).toEqual([{ work_id: other.id }]);
    // a second run leaves the same rows out again and changes nothing
    const again = await importInto(t, fx);
    expect(again.skipped.filter((s) => s.kind === 'review' || s.kind === 'history').sort(byKey)).toEqual(skipped);
    expect(changed(again)).toBe(0);
  });

  it('refuses a foreign SQLite file, a non-database and an old schema, naming what it found, with nothing changed', async () => {
    const { t } = await setup(1);
    const dir = tempDir('kikoeru-bad-');
    const foreign = path.join(dir, 'other.sqlite');
    await buildForeignSqlite(foreign);
    const text = path.join(dir, 'notes.txt');
    writeFileSync(text, 'not a database at all, just text that is long enough');
    const old = await buildKikoeruFixture({ dir: path.join(dir, 'old'), works: 3, schema: 'old' });
    const before = await dump(t);
    const refused = async (db: string) => {
      const err = await t.app.services.kikoeruImport.run({ db }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(KikoeruImportRefused);
      return err as KikoeruImportRefused;
    };
    expect((await refused(foreign)).reason).toBe('not-kikoeru');
    expect((await refused(text)).reason).toBe('not-sqlite');
    const o = await refused(old.dbFile);
    expect(o.reason).toBe('old-schema');
    expect(o.details).toMatchObject({ migrations: 17, last: '20221015170508_add_translate_task_worker.js', key: '20221231013326' });
    expect(await dump(t)).toBe(before);

    // the command says it and exits 2
    const cli = await cliInProcess(['--data-dir', t.dataDir, '--lang', 'en', 'import', 'kikoeru', '--db', old.dbFile]);
    expect(cli.code).toBe(2);
    expect(cli.stderr).toContain('older schema (17 migrations, the last is 20221015170508_add_translate_task_worker.js)');
    expect(cli.stderr).toContain('20221231013326');
    expect(await dump(t)).toBe(before);
  });

  it('refuses while a scan holds the lock', async () => {
    const { t, fx } = await setup(3);
    const lock = new ScanLock(t.app.store.paths().lockFile);
    await lock.acquire('scan');
    const before = await dump(t);
    try {
      const err = await importInto(t, fx).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(KikoeruImportRefused);
      expect((err as KikoeruImportRefused).reason).toBe('scan-busy');
    } finally {
      await lock.release();
    }
    expect(await dump(t)).toBe(before);
    // and the lock is free again for a scan after an import
    await importInto(t, fx);
    await lock.acquire('scan');
    await lock.release();
  });

  it('the command prints a summary in plain lines and JSON', async () => {
    const { t, fx } = await setup(4);
    await t.close();
    current = null;
    const dataDir = t.dataDir;
    const plain = await cliInProcess(['--data-dir', dataDir, '--lang', 'en', 'import', 'kikoeru', '--db', fx.dbFile, '--covers', fx.coverDir]);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain('Works: 4 new, 0 updated, 0 unchanged');
    expect(plain.stdout).toContain('no usable password');
    const json = await cliInProcess(['--data-dir', dataDir, 'import', 'kikoeru', '--db', fx.dbFile, '--json']);
    expect(json.code).toBe(0);
    const lines = json.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string } & Partial<ImportSummary>);
    const last = lines[lines.length - 1];
    expect(last.type).toBe('summary');
    expect(last.works).toMatchObject({ created: 0, updated: 0, unchanged: 4 });
  });
});

describe('kikoeru import from the admin dashboard', () => {
  it('POST /api/admin/import/kikoeru: admins only; a refusal is a 4xx with a code and changes nothing', async () => {
    const { t, fx } = await setup(5);
    await t.addUser('admin1', 'admin-pass', 'admin');
    await t.addUser('user1', 'user-pass', 'user');
    const admin = await t.login('admin1', 'admin-pass');
    const user = await t.login('user1', 'user-pass');
    const body = { db: fx.dbFile, covers: fx.coverDir };
    expect((await t.json('POST', '/api/admin/import/kikoeru', { body })).status).toBe(401);
    const denied = await t.json<{ code: string }>('POST', '/api/admin/import/kikoeru', { token: user, body });
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('ADMIN_ONLY');

    const before = await dump(t);
    const relative = await t.json<{ code: string; field: string }>('POST', '/api/admin/import/kikoeru', { token: admin, body: { db: 'kikoeru/db.sqlite3' } });
    expect(relative.status).toBe(400);
    expect(relative.body).toMatchObject({ code: 'FIELD_INVALID', field: 'db' });
    const dir = tempDir('kikoeru-bad-');
    const foreign = path.join(dir, 'other.sqlite');
    await buildForeignSqlite(foreign);
    const notKikoeru = await t.json<{ code: string; error: string }>('POST', '/api/admin/import/kikoeru', { token: admin, body: { db: foreign } });
    expect(notKikoeru.status).toBe(400);
    expect(notKikoeru.body.code).toBe('KIKOERU_NOT_DATABASE');
    expect(notKikoeru.body.error).not.toContain(foreign);
    const old = await buildKikoeruFixture({ dir: path.join(dir, 'old'), works: 2, schema: 'old' });
    const schema = await t.json<{ code: string; params: Record<string, unknown> }>('POST', '/api/admin/import/kikoeru', { token: admin, body: { db: old.dbFile } });
    expect(schema.status).toBe(400);
    expect(schema.body).toMatchObject({ code: 'KIKOERU_SCHEMA', params: { migrations: 17, expected: 19 } });
    const lock = new ScanLock(t.app.store.paths().lockFile);
    await lock.acquire('scan');
    const busy = await t.json<{ code: string }>('POST', '/api/admin/import/kikoeru', { token: admin, body });
    await lock.release();
    expect(busy.status).toBe(409);
    expect(busy.body.code).toBe('SCAN_RUNNING');
    expect(await dump(t)).toBe(before);

    const dry = await t.json<ImportSummary>('POST', '/api/admin/import/kikoeru', { token: admin, body: { ...body, dryRun: true } });
    expect(dry.status).toBe(200);
    expect(dry.body.works.created).toBe(5);
    expect(await dump(t)).toBe(before);
    const done = await t.json<ImportSummary>('POST', '/api/admin/import/kikoeru', { token: admin, body });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ dryRun: false, works: { created: 5 }, users: { created: fx.users.length } });
    expect((await t.json('POST', '/api/auth/me', { body: { name: 'alice', password: fx.users[1].password } })).status).toBe(200);
  });
});

describe('kikoeru import: play history of works kikoplay has scanned', () => {
  it('maps the track hashes to the stable file numbers kikoplay gave, by kikoeru listing position', async () => {
    const { t, fx } = await setup(8);
    // kikoplay scanned the works while only each work's last file existed, then again with all of them:
    // its numbers are in another order than kikoeru's listing
    const onDisk = fx.works.filter((w) => w.rootFolder === 'main');
    const aside = tempDir('kikoeru-aside-');
    const moved: [string, string][] = [];
    for (const w of onDisk) {
      for (const f of w.files.slice(0, -1)) {
        const from = path.join(fx.dir, 'library', w.dir, f.path);
        const to = path.join(aside, `${w.id}-${f.path.replace(/\//g, '_')}`);
        renameSync(from, to);
        moved.push([to, from]);
      }
    }
    t.app.store.update({ rootFolders: [{ name: 'main', path: path.join(fx.dir, 'library') }] });
    await t.scan({ kind: 'scan', full: false, metadata: false });
    for (const [from, to] of moved) {
      mkdirSync(path.dirname(to), { recursive: true });
      renameSync(from, to);
    }
    await t.scan({ kind: 'scan', full: false, metadata: false });
    const numbers = async (id: number) => new Map((await t.app.db.all<{ n: number; path: string }>('SELECT n, path FROM files WHERE work_id = ?', [id])).map((r) => [r.n, r.path]));
    const w0 = onDisk[0];
    expect((await numbers(w0.id)).get(0)).toBe(w0.files[w0.files.length - 1].path);

    const summary = await importInto(t, fx);
    expect(summary.history.tracksMapped).toBeGreaterThan(0);
    let checked = 0;
    for (const h of fx.history.filter((x) => onDisk.some((w) => w.id === x.workId))) {
      const w = onDisk.find((x) => x.id === h.workId)!;
      const row = await t.app.db.get<{ state: string }>('SELECT h.state FROM play_history h JOIN users u ON u.id = h.user_id WHERE u.name = ? AND h.work_id = ?', [h.user, h.workId]);
      const state = JSON.parse(row!.state) as { queue: { hash: string }[]; index: number; seconds: number };
      const byN = await numbers(w.id);
      state.queue.forEach((item, i) => {
        const [id, n] = item.hash.split('/').map(Number);
        expect(id).toBe(w.id);
        // kikoeru's i-th file is the file kikoplay numbers n
        expect(byN.get(n)).toBe(w.files[i].path);
        checked++;
      });
      expect(state.index).toBe(h.state.index);
      expect(state.seconds).toBe(h.state.seconds);
    }
    expect(checked).toBeGreaterThan(0);
  });
});
