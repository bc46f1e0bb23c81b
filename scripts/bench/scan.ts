/**
 * Scan benchmark: a generated library of N works × 10 files (default 10,000), scanned offline.
 * Prints the first scan (time, files/s), the unchanged rescan, and a bare recursive directory walk of
 * the same tree (readdir + stat of every entry, the least any change detection must do) for comparison.
 *
 *   node --import tsx scripts/bench/scan.ts [--works 10000] [--dir /tmp/kikoplay-bench] [--keep]
 */
import { existsSync, mkdtempSync, promises as fsp, rmSync, readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createAppContext } from '../../server/app/create-app.js';
import { createLogger } from '../../server/app/logger.js';
import type { Actor } from '../../server/auth/roles.js';
import { generateBenchLibrary } from '../gen-library.js';

const ADMIN: Actor = { id: 0, name: '(bench)', role: 'admin' };

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
  const works = Number(arg('works', '10000'));
  const base = arg('dir', path.join(os.tmpdir(), `kikoplay-bench-${works}`));
  const libDir = path.join(base, 'library');
  if (!existsSync(path.join(libDir, '.src'))) {
    const t = performance.now();
    await generateBenchLibrary(libDir, works);
    process.stdout.write(`generated ${works} works × 10 files in ${fmt(ms(t))} (${libDir})\n`);
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'kikoplay-bench-data-'));
  const app = await createAppContext({
    dataDir,
    flags: { rootFolders: [{ name: 'bench', path: libDir }], scannerMaxRecursionDepth: 3 },
    env: {},
    logger: createLogger({ level: 'error' }),
  });
  try {
    let t = performance.now();
    const first = await app.services.scan.run(ADMIN, { kind: 'scan', metadata: false });
    const firstMs = ms(t);
    const files = works * 10;
    process.stdout.write(`first scan:     ${fmt(firstMs)}  ${Math.round(files / (firstMs / 1000))} files/s  (${first.message})\n`);

    t = performance.now();
    const again = await app.services.scan.run(ADMIN, { kind: 'scan', metadata: false });
    const rescanMs = ms(t);
    process.stdout.write(`unchanged scan: ${fmt(rescanMs)}  ${Math.round(files / (rescanMs / 1000))} files/s  (${again.message})\n`);

    t = performance.now();
    const walked = bareWalkSync(libDir);
    const walkSyncMs = ms(t);
    t = performance.now();
    await bareWalkAsync(libDir);
    const walkAsyncMs = ms(t);
    process.stdout.write(`bare walk:      ${fmt(walkSyncMs)} sync, ${fmt(walkAsyncMs)} async (readdir + stat, ${walked} files)\n`);
    const ratio = rescanMs / Math.min(walkSyncMs, walkAsyncMs);
    process.stdout.write(`unchanged scan / fastest bare walk = ${ratio.toFixed(2)}× (target ≤ 3×)\n`);
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
    if (!process.argv.includes('--keep') && !process.argv.includes('--dir')) rmSync(base, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`bench: ${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
