/**
 * Scan benchmark (issue 3): a generated library of N works × 10 files (default 10,000), scanned offline
 * by the real command, `kikoplay scan --offline --json` from the built package (run `npm run
 * build:server` first; `npm run bench:scan` does). Prints the first scan (time, files/s), the unchanged
 * rescan, and a bare recursive directory walk of the same tree (readdir + stat of every entry, the least
 * any change detection must do) for comparison; exits 1 when a target is missed (first scan ≤ 60 s at
 * 10,000 works, unchanged rescan ≤ 3× the fastest bare walk).
 *
 *   node --import tsx scripts/bench/scan.ts [--works 10000] [--dir /tmp/kikoplay-bench] [--keep]
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { existsSync, mkdtempSync, promises as fsp, rmSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateBenchLibrary } from '../gen-library.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = path.join(ROOT, 'bin/kikoplay.js');
const FIRST_SCAN_TARGET_S = 60;
const RESCAN_RATIO_TARGET = 3;

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

/** Bare recursive walk: readdir every folder, stat every entry (sync, the fastest Node offers). */
function bareWalkSync(dir: string): number {
  let n = 0;
  const stack = [dir];
  while (stack.length) {
    const d = stack.pop()!;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = `${d}/${e.name}`;
      const st = statSync(p);
      if (st.isDirectory()) stack.push(p);
      else n++;
    }
  }
  return n;
}

/** The same walk with the promise API. */
async function bareWalkAsync(dir: string): Promise<number> {
  let n = 0;
  const walk = async (d: string): Promise<void> => {
    const entries = await fsp.readdir(d, { withFileTypes: true });
    await Promise.all(
      entries.map(async (e) => {
        const p = `${d}/${e.name}`;
        const st = await fsp.stat(p);
        if (st.isDirectory()) await walk(p);
        else n++;
      }),
    );
  };
  await walk(dir);
  return n;
}

const ms = (t0: number) => performance.now() - t0;
const fmt = (t: number) => `${(t / 1000).toFixed(2)} s`;

async function main(): Promise<void> {
  const worksArg = arg('works', '10000');
  const works = Number(worksArg);
  if (!Number.isInteger(works) || works <= 0) {
    process.stderr.write(`--works must be a positive integer, got "${worksArg}"\n`);
    process.exit(2);
  }
  const base = arg('dir', path.join(os.tmpdir(), `kikoplay-bench-${works}`));
  const libDir = path.join(base, 'library');
  if (!existsSync(path.join(libDir, '.src'))) {
    const t = performance.now();
    await generateBenchLibrary(libDir, works);
    process.stdout.write(`generated ${works} works × 10 files in ${fmt(ms(t))} (${libDir})\n`);
  }
  if (!existsSync(path.join(ROOT, 'dist/cli/main.js'))) throw new Error('build the package first: npm run build:server');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'kikoplay-bench-data-'));
  writeFileSync(path.join(dataDir, 'config.json'), JSON.stringify({ rootFolders: [{ name: 'bench', path: libDir }], scannerMaxRecursionDepth: 3 }));
  /**
   * One `kikoplay scan --offline --json` run. `ms` is the scan itself: from its first event to its
   * `finished` event as they arrive on the pipe; `processMs` adds starting and stopping the command.
   */
  const scan = async (): Promise<{ ms: number; processMs: number; message: string }> => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [BIN, '--data-dir', dataDir, 'scan', '--offline', '--json'], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, KIKOPLAY_LOG_LEVEL: 'error' } });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    let firstAt: number | null = null;
    let finishedAt: number | null = null;
    let message = '(no finished event)';
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      const now = performance.now();
      firstAt ??= now;
      const e = JSON.parse(line) as { type: string; message?: string };
      if (e.type === 'finished') {
        finishedAt = now;
        message = e.message ?? message;
      }
    });
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    if (code !== 0 || firstAt === null || finishedAt === null) throw new Error(`kikoplay scan exited ${code}:\n${stderr.slice(-2000)}`);
    return { ms: finishedAt - firstAt, processMs: performance.now() - t0, message };
  };
  const failures: string[] = [];
  try {
    const files = works * 10;
    const first = await scan();
    process.stdout.write(`first scan:     ${fmt(first.ms)}  ${Math.round(files / (first.ms / 1000))} files/s  (${first.message}; the whole command ${fmt(first.processMs)})\n`);
    const again = await scan();
    process.stdout.write(`unchanged scan: ${fmt(again.ms)}  ${Math.round(files / (again.ms / 1000))} files/s  (${again.message}; the whole command ${fmt(again.processMs)})\n`);

    let t = performance.now();
    const walked = bareWalkSync(libDir);
    const walkSyncMs = ms(t);
    t = performance.now();
    await bareWalkAsync(libDir);
    const walkAsyncMs = ms(t);
    process.stdout.write(`bare walk:      ${fmt(walkSyncMs)} sync, ${fmt(walkAsyncMs)} async (readdir + stat, ${walked} files)\n`);
    const ratio = again.ms / Math.min(walkSyncMs, walkAsyncMs);
    process.stdout.write(`unchanged scan / fastest bare walk = ${ratio.toFixed(2)}× (target ≤ ${RESCAN_RATIO_TARGET}×)\n`);
    process.stdout.write(
      `machine: ${os.cpus().length} CPUs, load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}\n`,
    );
    if (works >= 10_000 && first.ms / 1000 > (FIRST_SCAN_TARGET_S * works) / 10_000) failures.push(`first scan ${fmt(first.ms)} > ${FIRST_SCAN_TARGET_S} s`);
    if (ratio > RESCAN_RATIO_TARGET) failures.push(`unchanged scan ${ratio.toFixed(2)}× the bare walk > ${RESCAN_RATIO_TARGET}×`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    if (!process.argv.includes('--keep') && !process.argv.includes('--dir')) rmSync(base, { recursive: true, force: true });
  }
  if (failures.length) {
    process.stdout.write(`missed: ${failures.join('; ')}\n`);
    process.exitCode = 1;
  }
}

main().catch((err) => {
  process.stderr.write(`bench: ${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
