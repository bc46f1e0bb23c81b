import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestLibrary, startLibraryServer, type LibraryServer } from '../helpers/library.js';
import { runCli } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/app.js';
import { ScanLock } from '../../server/library/scan/scan-lock.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ENTRY = path.join(ROOT, 'test/helpers/cli-entry.ts');
// the acceptance run uses 10: KIKOPLAY_CRASH_KILLS=10 npx vitest run test/integration/scan-crash.test.ts
const KILLS = Number(process.env.KIKOPLAY_CRASH_KILLS ?? 2);

/** Start `kikoplay scan --json --offline` and SIGKILL it a random time after its scan started. */
function scanAndKill(dataDir: string, delayMs: number): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ENTRY, '--data-dir', dataDir, 'scan', '--json', '--offline'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let armed = false;
    child.stdout.on('data', () => {
      if (armed) return;
      armed = true;
      setTimeout(() => child.kill('SIGKILL'), delayMs);
    });
    child.on('close', () => resolve());
  });
}

const snapshot = async (t: LibraryServer) => ({
  works: await t.app.db.all('SELECT id, code, title, root_folder, dir, fingerprint, next_file_n, has_local_lyric, total_duration, missing, cover_source FROM works ORDER BY id'),
  files: await t.app.db.all('SELECT work_id, n, path, kind, is_lyric, size, mtime_ms, duration FROM files ORDER BY work_id, n'),
  fts: await t.app.db.all('SELECT rowid, body FROM works_fts ORDER BY rowid'),
  circles: await t.app.db.all('SELECT id, work_count FROM circles ORDER BY id'),
});

describe('kill -9 during scans', () => {
  let lib: Awaited<ReturnType<typeof makeTestLibrary>>;
  beforeAll(async () => {
    lib = await makeTestLibrary();
  });
  afterAll(() => lib?.cleanup());

  it(`survives ${KILLS} SIGKILLs at random moments: integrity ok, result equals a clean scan`, { timeout: 180_000 }, async () => {
    const roots = JSON.stringify([{ name: 'lib', path: lib.root }]);
    const crashed = tempDir('kikoplay-crash-');
    const clean = tempDir('kikoplay-clean-');
    for (const dir of [crashed, clean]) {
      const r = await runCli(['--data-dir', dir, 'config', 'set', 'rootFolders', roots]);
      expect(r.code).toBe(0);
    }
    for (let i = 0; i < KILLS; i++) await scanAndKill(crashed, Math.floor(Math.random() * 900));
    // the lock of the killed process is stale: a new scan runs, and its JSON lines are events
    const after = await runCli(['--data-dir', crashed, 'scan', '--json', '--offline']);
    expect(after.code, after.stderr).toBe(0);
    const events = after.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string });
    expect(events[0].type).toBe('started');
    expect(events.at(-1)!.type).toBe('finished');

    const a = await startLibraryServer({ dataDir: crashed, flags: { rootFolders: [{ name: 'lib', path: lib.root }] } });
    const b = await startLibraryServer({ dataDir: clean, flags: { rootFolders: [{ name: 'lib', path: lib.root }] } });
    try {
      await a.scan({ kind: 'scan', metadata: false });
      await b.scan({ kind: 'scan', metadata: false });
      expect(await a.app.db.all('PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
      expect(await snapshot(a)).toEqual(await snapshot(b));
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('exits 2 with a message for a bad --work code, and 2 when another scan holds the lock', { timeout: 60_000 }, async () => {
    const dir = tempDir('kikoplay-cli-');
    const bad = await runCli(['--data-dir', dir, 'scan', '--work', 'XX1']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--work/);
    const held = new ScanLock(path.join(dir, 'scan.lock'));
    await held.acquire('scan');
    try {
      const busy = await runCli(['--data-dir', dir, 'scan', '--offline'], { lang: 'zh-CN' });
      expect(busy.code).toBe(2);
      expect(busy.stderr).toMatch(/扫描任务正在进行中/);
    } finally {
      await held.release();
    }
  });
});
