/**
 * Scans end, and end cleanly, whatever happens around them: a reader that closes the output, SIGTERM,
 * lock info naming a process that is not a scan, and a database folder the OS refuses.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/app.js';
import { startLibraryServer, TEST_ADMIN } from '../helpers/library.js';
import { ScanLock, lockHolder } from '../../server/library/scan/scan-lock.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = path.join(ROOT, 'bin/kikoplay.js');

/** A library of `n` work folders with one small text file each: quick to make, many scan events. */
function manyWorks(n: number): string {
  const root = tempDir('kikoplay-many-');
  for (let i = 0; i < n; i++) {
    const dir = path.join(root, `RJ${200000 + i} work ${i}`);
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'readme.txt'), `work ${i}`);
  }
  return root;
}

async function dataDirFor(root: string, extra: Record<string, unknown> = {}): Promise<string> {
  const dir = tempDir('kikoplay-stops-');
  writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ rootFolders: [{ name: 'lib', path: root }], ...extra }));
  return dir;
}

function startScan(dataDir: string, args: string[]): ChildProcess & { stderrText: () => string; exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }> } {
  const child = spawn(process.execPath, [BIN, '--data-dir', dataDir, 'scan', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, KIKOPLAY_DATA_DIR: '', KIKOPLAY_LANG: 'zh-CN' },
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  return Object.assign(child, { stderrText: () => stderr, exited });
}

/** Resolves with the first complete stdout line. */
const firstLine = (child: ChildProcess) =>
  new Promise<string>((resolve) => {
    let buf = '';
    const onData = (d: Buffer) => {
      buf += d.toString();
      const nl = buf.indexOf('\n');
      if (nl >= 0) {
        child.stdout!.off('data', onData);
        resolve(buf.slice(0, nl));
      }
    };
    child.stdout!.on('data', onData);
  });

/** Settles within `ms`, or rejects naming what hung. */
const within = <T>(p: Promise<T>, ms: number, what: string) => Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} did not end within ${ms} ms`)), ms))]);

describe('scans that must end', () => {
  let root: string;
  beforeAll(() => {
    root = manyWorks(400);
  });

  it('a reader that closes the output (`scan --json | head -1`) stops the scan quietly and frees the lock', { timeout: 60_000 }, async () => {
    const dataDir = await dataDirFor(root);
    const child = startScan(dataDir, ['--json', '--offline']);
    const line = await firstLine(child);
    expect(JSON.parse(line).type).toBe('started');
    child.stdout!.destroy(); // the reader goes away, as `head -1` does
    const { code } = await within(child.exited, 30_000, 'the scan');
    // nobody is left to read a message: the end is quiet
    expect(child.stderrText()).toBe('');
    expect(code).toBe(1);
    expect(await lockHolder(path.join(dataDir, 'scan.lock'))).toBeNull();
    // the next scan runs, and the stopped run was recorded as ended
    const next = await runCli(['--data-dir', dataDir, 'scan', '--offline'], { timeoutMs: 60_000 });
    expect(next.code, next.stderr).toBe(0);
  });

  it('SIGTERM ends a scan that waits on a silent metadata site within seconds, lock released', { timeout: 60_000 }, async () => {
    // a "DLsite" that accepts connections and never answers
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((s) => sockets.add(s));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
    const base = `http://127.0.0.1:${(silent.address() as net.AddressInfo).port}`;
    try {
      const dataDir = await dataDirFor(manyWorks(3), {
        dlsiteBaseUrl: base,
        hvdbBaseUrl: base,
        asmrOneBaseUrl: base,
        dlsiteImageBaseUrl: base,
        dlsiteTimeout: 600_000,
        hvdbTimeout: 600_000,
        retry: 0,
      });
      const child = startScan(dataDir, ['--json']);
      await firstLine(child);
      await new Promise((r) => setTimeout(r, 500));
      child.kill('SIGTERM');
      const { code, signal } = await within(child.exited, 15_000, 'the scan after SIGTERM');
      expect(signal === 'SIGTERM' || code === 1 || code === 143, `code ${code} signal ${signal}`).toBe(true);
      expect(await lockHolder(path.join(dataDir, 'scan.lock'))).toBeNull();
    } finally {
      for (const s of sockets) s.destroy();
      silent.close();
    }
  });

  it('lock info naming a live process that is not a scan neither blocks scans nor gets it signalled', { timeout: 60_000 }, async () => {
    const dataDir = await dataDirFor(manyWorks(3));
    const bystander = spawn('sleep', ['60'], { stdio: 'ignore' });
    try {
      // what a killed scan leaves when its pid is reused: `{ pid }` of a live, unrelated process
      writeFileSync(path.join(dataDir, 'scan.lock'), JSON.stringify({ pid: bystander.pid, kind: 'scan', startedAt: 'then' }));
      const scan = await runCli(['--data-dir', dataDir, 'scan', '--offline'], { timeoutMs: 60_000 });
      expect(scan.code, scan.stderr).toBe(0);

      writeFileSync(path.join(dataDir, 'scan.lock'), JSON.stringify({ pid: bystander.pid, kind: 'scan', startedAt: 'then' }));
      const t = await startLibraryServer({ dataDir });
      try {
        // nothing holds the lock: the dashboard's kill finds nothing to stop
        expect(await t.app.services.scan.kill(TEST_ADMIN)).toBe(false);
        // something does hold it, but the info names the bystander, which is no verified scan process
        const held = new ScanLock(path.join(dataDir, 'scan.lock'));
        const other = new ScanLock(path.join(dataDir, 'scan.lock'));
        await held.acquire('scan');
        writeFileSync(path.join(dataDir, 'scan.lock'), JSON.stringify({ pid: bystander.pid, kind: 'scan', startedAt: 'then' }));
        try {
          await expect(other.acquire('scan')).rejects.toThrow(/扫描任务正在进行中/);
          expect(await t.app.services.scan.kill(TEST_ADMIN)).toBe(false);
        } finally {
          await held.release();
        }
      } finally {
        await t.close();
      }
      await new Promise((r) => setTimeout(r, 300));
      expect(bystander.exitCode).toBeNull();
      expect(bystander.signalCode).toBeNull();
    } finally {
      bystander.kill('SIGKILL');
    }
  });

  it('a scan holding the lock in another process makes `kikoplay scan` exit 2 naming it', { timeout: 60_000 }, async () => {
    const dataDir = await dataDirFor(manyWorks(2));
    const lock = new ScanLock(path.join(dataDir, 'scan.lock'));
    await lock.acquire('refresh');
    try {
      const busy = await runCli(['--data-dir', dataDir, 'scan', '--offline'], { lang: 'zh-CN' });
      expect(busy.code).toBe(2);
      expect(busy.stderr).toMatch(new RegExp(`扫描任务正在进行中 \\(pid ${process.pid}, refresh`));
    } finally {
      await lock.release();
    }
  });

  it('`serve` refuses a database folder under /proc instead of spinning', { timeout: 60_000 }, async () => {
    const dataDir = tempDir('kikoplay-proc-');
    writeFileSync(path.join(dataDir, 'config.json'), JSON.stringify({ dbUseDefaultPath: false, databaseFolderDir: '/proc/kikoplay-db' }));
    const r = await runCli(['--data-dir', dataDir, 'serve', '--port', '0'], { timeoutMs: 20_000 });
    expect(r.code, r.stderr).not.toBeNull(); // null: killed at the time-out, i.e. it hung
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/cannot use \/proc\/kikoplay-db/);
  });

  afterAll(() => undefined);
});
