/**
 * `kikoplay import kikoeru` with the lyric and cover folders: a `--lyrics` / `--covers` path that does not
 * exist or is not a folder is refused before anything changes (the CLI names it, the HTTP answer does not
 * repeat it), and a later run that finds the lyric files repairs the finished tasks an earlier run stored
 * as failed only because their file was missing — never a task kikoplay changed since.
 */
import { existsSync, readFileSync, renameSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/app.js';
import { OFFLINE_SITES, startLibraryServer, type LibraryServer } from '../helpers/library.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { buildKikoeruFixture, type KikoeruFixture } from '../helpers/kikoeru-fixture.js';
import { KikoeruImportRefused } from '../../server/services/kikoeru-import/source.js';

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

/** Every row of kikoplay's tables and its config file, to compare before and after. */
async function dump(s: LibraryServer): Promise<string> {
  const tables = await s.app.db.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'works_fts%' ORDER BY name");
  const out: Record<string, unknown> = {};
  for (const { name } of tables) out[name] = await s.app.db.all(`SELECT * FROM "${name}" ORDER BY 1, 2`);
  const config = path.join(s.dataDir, 'config.json');
  out.config = existsSync(config) ? readFileSync(config, 'utf8') : null;
  return JSON.stringify(out);
}

interface TaskRow {
  id: number;
  work_id: number;
  audio_path: string;
  status: number;
  lrc: string | null;
  worker_status: string;
}

const taskOf = (s: LibraryServer, workId: number, audioPath: string) =>
  s.app.db.get<TaskRow>('SELECT id, work_id, audio_path, status, lrc, worker_status FROM ai_tasks WHERE work_id = ? AND audio_path = ?', [workId, audioPath]);

describe('kikoeru import: lyric and cover folders', () => {
  it('refuses a --lyrics or --covers path that is missing or not a folder, naming it in the terminal only, with nothing changed', async () => {
    const { t, fx } = await setup(4);
    const missing = path.join(tempDir('kikoeru-gone-'), 'no-such-folder');
    const before = await dump(t);

    const cases = [
      { args: ['--lyrics', missing], says: `--lyrics ${missing} does not exist` },
      { args: ['--lyrics', fx.configFile], says: `--lyrics ${fx.configFile} is not a folder` },
      { args: ['--covers', missing], says: `--covers ${missing} does not exist` },
      { args: ['--covers', fx.configFile], says: `--covers ${fx.configFile} is not a folder` },
    ];
    for (const c of cases) {
      const cli = await cliInProcess(['--data-dir', t.dataDir, '--lang', 'en', 'import', 'kikoeru', '--db', fx.dbFile, ...c.args]);
      expect(cli.code, cli.stderr).toBe(2);
      expect(cli.stderr).toContain(c.says);
      expect(cli.stderr).toContain('nothing was changed');
      expect(cli.stdout).not.toContain('Works:');
    }
    const err = await t.app.services.kikoeruImport.run({ db: fx.dbFile, lyrics: missing }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KikoeruImportRefused);
    expect((err as KikoeruImportRefused).reason).toBe('bad-folder');
    // a dry run is refused the same way: it would report lyrics as missing that are not
    const dry = await cliInProcess(['--data-dir', t.dataDir, 'import', 'kikoeru', '--db', fx.dbFile, '--dry-run', '--lyrics', missing]);
    expect(dry.code).toBe(2);
    expect(await dump(t)).toBe(before);

    // the same through the HTTP route: 400 naming the field, never the path
    await t.addUser('admin1', 'admin-pass', 'admin');
    const admin = await t.login('admin1', 'admin-pass');
    const http = [
      { body: { db: fx.dbFile, lyrics: missing }, code: 'FOLDER_MISSING', field: 'lyrics', path: missing },
      { body: { db: fx.dbFile, covers: fx.configFile }, code: 'FOLDER_NOT_DIRECTORY', field: 'covers', path: fx.configFile },
    ];
    const withAdmin = await dump(t);
    for (const h of http) {
      const res = await t.json<{ code: string; field: string; error: string }>('POST', '/api/admin/import/kikoeru', { token: admin, body: h.body });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: h.code, field: h.field });
      expect(JSON.stringify(res.body)).not.toContain(h.path);
      expect(JSON.stringify(res.body)).not.toContain(path.basename(h.path));
    }
    expect(await dump(t)).toBe(withAdmin);
  });

  it('a later run that finds the lyric files repairs the tasks stored as failed for their missing file, not those changed since', async () => {
    const { t, fx } = await setup(12);
    const finished = fx.tasks.filter((x) => x.status === 3);
    expect(finished.length).toBeGreaterThanOrEqual(3);
    // the lyric folder of kikoeru's config is not there (a disk not mounted): the finished tasks come in as failed
    const away = `${fx.lyricDir}-elsewhere`;
    renameSync(fx.lyricDir, away);
    const first = await cliInProcess(['--data-dir', t.dataDir, '--lang', 'en', 'import', 'kikoeru', '--db', fx.dbFile]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain(`lyric files missing (imported as failed, can be redone): ${finished.length}`);
    for (const x of finished) expect(await taskOf(t, x.workId, x.audioPath)).toMatchObject({ status: 4, lrc: null });

    // kikoplay changes one of them since (an admin redid it): that one is kikoplay's now
    const redone = finished[0];
    await t.app.db.run("UPDATE ai_tasks SET status = 1, worker_status = '', updated_at = ? WHERE work_id = ? AND audio_path = ?", ['2099-01-01 00:00:00', redone.workId, redone.audioPath]);

    // the run with the right folder brings the lyrics of the others back
    const second = await cliInProcess(['--data-dir', t.dataDir, '--lang', 'en', 'import', 'kikoeru', '--db', fx.dbFile, '--lyrics', away]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain(`AI lyric tasks: 0 new, ${finished.length - 1} updated`);
    for (const x of finished.slice(1)) expect(await taskOf(t, x.workId, x.audioPath)).toMatchObject({ status: 3, lrc: x.lrc, worker_status: '' });
    expect(await taskOf(t, redone.workId, redone.audioPath)).toMatchObject({ status: 1, lrc: null });
    const ai = await t.app.db.all<{ id: number }>('SELECT id FROM works WHERE has_ai_lyric = 1 ORDER BY id');
    expect(ai.map((r) => r.id)).toEqual([...new Set(finished.slice(1).map((x) => x.workId))].sort((a, b) => a - b));

    // and a third run changes nothing
    const snapshot = await dump(t);
    const third = await cliInProcess(['--data-dir', t.dataDir, '--lang', 'en', 'import', 'kikoeru', '--db', fx.dbFile, '--lyrics', away]);
    expect(third.code).toBe(0);
    expect(third.stdout).toContain(`AI lyric tasks: 0 new, 0 updated`);
    expect(await dump(t)).toBe(snapshot);
  });
});
