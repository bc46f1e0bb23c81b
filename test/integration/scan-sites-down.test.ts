/**
 * `kikoplay scan` with the metadata sites down (a closed port, host names that resolve to nothing): the
 * scanner gives each site up after a few failures in a row, says so once, counts every work's metadata as
 * failed with the reason, and the CLI exits 1 — within seconds, with the README's default retries.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/app.js';
import { runCli } from '../helpers/run-cli.js';
import { startLibraryServer } from '../helpers/library.js';
import type { ScanEvent } from '../../server/contract/scan-events.js';
import type { WorkListItem } from '../../server/contract/works.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = path.join(ROOT, 'bin/kikoplay.js');
const WORKS = 5;

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A data dir whose library has WORKS work folders and whose sites are `sites`. */
function dataDirFor(sites: Record<string, string>): string {
  const root = tempDir('kikoplay-down-lib-');
  for (let i = 0; i < WORKS; i++) {
    const dir = path.join(root, `RJ30000${i} work ${i}`);
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'readme.txt'), `work ${i}`);
  }
  const dataDir = tempDir('kikoplay-down-');
  // the README's default retries (5, 2 s apart): a site that is down must not cost them per work
  writeFileSync(path.join(dataDir, 'config.json'), JSON.stringify({ rootFolders: [{ name: 'lib', path: root }], ...sites }));
  return dataDir;
}

/** `scan --json` in a child; the time from its first event ("started") to its end. */
function scanJson(dataDir: string): Promise<{ code: number | null; events: ScanEvent[]; stderr: string; seconds: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, '--data-dir', dataDir, 'scan', '--json'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, KIKOPLAY_DATA_DIR: '', KIKOPLAY_LANG: 'en', KIKOPLAY_LOG_FORMAT: '' },
    });
    let stdout = '';
    let stderr = '';
    let startedAt = 0;
    child.stdout.on('data', (d: Buffer) => {
      if (!startedAt) startedAt = performance.now();
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const events = stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as ScanEvent);
      resolve({ code, events, stderr, seconds: (performance.now() - startedAt) / 1000 });
    });
  });
}

const mainLines = (events: ScanEvent[], key: string) => events.filter((e): e is Extract<ScanEvent, { type: 'main-log' }> => e.type === 'main-log' && e.key === key);

describe('a scan with the metadata sites down', () => {
  it('gives up a refusing site at once, says so once, fails every work with the reason and exits 1', { timeout: 180_000 }, async () => {
    const down = `http://127.0.0.1:${await closedPort()}`;
    const dataDir = dataDirFor({ dlsiteBaseUrl: `${down}/dlsite`, dlsiteImageBaseUrl: `${down}/img`, hvdbBaseUrl: `${down}/hvdb`, asmrOneBaseUrl: `${down}/asmr` });
    const run = await scanJson(dataDir);
    expect(run.code, run.stderr).toBe(1);
    expect(run.seconds, 'the scan took too long').toBeLessThan(15);
    // one host for every site: one message, naming the site and the reason
    const gaveUp = mainLines(run.events, 'sourceUnreachable');
    expect(gaveUp.map((e) => e.message)).toEqual([expect.stringMatching(/^DLsite 无法连接 \(ECONNREFUSED 127\.0\.0\.1:\d+\)，本次扫描不再请求$/)]);
    const failed = run.events.filter((e): e is Extract<ScanEvent, { type: 'task-failed' }> => e.type === 'task-failed');
    expect(failed.length).toBe(WORKS);
    for (const f of failed) expect(f.error).toMatch(/^元数据获取失败: DLsite 无法连接 \(ECONNREFUSED/);
    // the reason once per line, not "元数据获取失败: 元数据获取失败: …"
    for (const f of failed) expect(f.error.match(/元数据获取失败/g)?.length).toBe(1);
    const finished = run.events.find((e) => e.type === 'finished') as Extract<ScanEvent, { type: 'finished' }>;
    expect(finished.counts).toMatchObject({ added: WORKS, failed: 0 });
    expect(finished.metadata).toMatchObject({ ok: 0, failed: WORKS });
    expect(finished.exitCode).toBe(1);
    expect(run.stderr).toContain(`metadata could not be fetched for ${WORKS} work(s)`);
    expect(run.stderr).not.toContain('"level"');

    // the plain summary of the next scan (failed works are due again) tells the same, once
    const plain = await runCli(['--data-dir', dataDir, 'scan'], { timeoutMs: 120_000 });
    expect(plain.code, plain.stderr).toBe(1);
    expect(plain.stdout.match(/DLsite cannot be reached \(ECONNREFUSED/g)?.length).toBe(1);
    expect(plain.stdout).toContain(`Metadata: 0 fetched, ${WORKS} failed`);
    expect(plain.stderr.trim().split('\n')).toEqual([`kikoplay: metadata could not be fetched for ${WORKS} work(s)`]);

    // the work cards know: no metadata, and why
    const t = await startLibraryServer({ dataDir });
    try {
      await t.addUser('viewer', 'viewerpass', 'user');
      const token = await t.login('viewer', 'viewerpass');
      const res = await t.json<{ works: WorkListItem[] }>('GET', '/api/works', { token });
      expect(res.body.works.length).toBe(WORKS);
      for (const w of res.body.works) {
        expect(w.metadata_status).toBe('failed');
        expect(w.metadata_error).toMatch(/^DLsite 无法连接 \(ECONNREFUSED 127\.0\.0\.1:\d+\)/);
        expect(w.metadata_error).not.toContain('http://');
        // numbers stay on the wire for the kikoeru clients
        expect(w.price).toBe(0);
      }
    } finally {
      await t.close();
    }
  });

  it('gives up sites whose host names resolve to nothing, each named once', { timeout: 180_000 }, async () => {
    const dataDir = dataDirFor({
      dlsiteBaseUrl: 'http://dlsite.invalid',
      dlsiteImageBaseUrl: 'http://img.dlsite.invalid',
      hvdbBaseUrl: 'http://hvdb.invalid',
      asmrOneBaseUrl: 'http://asmr.invalid',
    });
    const run = await scanJson(dataDir);
    expect(run.code, run.stderr).toBe(1);
    expect(run.seconds, 'the scan took too long').toBeLessThan(15);
    const gaveUp = mainLines(run.events, 'sourceUnreachable').map((e) => e.message);
    expect(gaveUp.sort()).toEqual([
      expect.stringMatching(/^DLsite 无法连接 \((ENOTFOUND|EAI_AGAIN) dlsite\.invalid\)，本次扫描不再请求$/),
      expect.stringMatching(/^asmr\.one 无法连接 \((ENOTFOUND|EAI_AGAIN) asmr\.invalid\)，本次扫描不再请求$/),
    ]);
    const finished = run.events.find((e) => e.type === 'finished') as Extract<ScanEvent, { type: 'finished' }>;
    expect(finished.metadata).toMatchObject({ ok: 0, failed: WORKS });
    const failed = run.events.filter((e): e is Extract<ScanEvent, { type: 'task-failed' }> => e.type === 'task-failed');
    expect(failed.length).toBe(WORKS);
    for (const f of failed) expect(f.error).toMatch(/DLsite 无法连接 .*asmr\.one 无法连接/);
  });
});
