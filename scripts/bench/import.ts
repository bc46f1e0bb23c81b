/**
 * Import benchmark (issue 24): a generated kikoeru 0.6.7 installation of N works (default 2,000, with
 * 20 users beside the fixed ones: their reviews, play history and AI tasks, and covers) imported by the
 * real command, `kikoplay import kikoeru --json` run from source, into a fresh data dir. Prints the wall
 * time of the command (start to exit, Node start-up included), the import's own time (first progress
 * event to the summary) and the time of a second, no-change run; exits 1 when the first run misses the
 * target (≤ 30 s at 2,000 works).
 *
 *   node --import tsx scripts/bench/import.ts [--works 2000] [--users 20] [--dir /tmp/kikoplay-bench-import] [--keep]
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateKikoeru } from '../gen-kikoeru.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ENTRY = path.join(ROOT, 'test/helpers/cli-entry.ts');
const TARGET_S = 30;

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

interface Run {
  wallMs: number;
  importMs: number;
  summary: Record<string, unknown>;
}

function runImport(args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    let first: number | null = null;
    let summaryAt = 0;
    let summary: Record<string, unknown> | null = null;
    const child = spawn(process.execPath, ['--import', 'tsx', ENTRY, ...args, '--json'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    createInterface({ input: child.stdout }).on('line', (line) => {
      const e = JSON.parse(line) as { type: string };
      first ??= performance.now();
      if (e.type === 'summary') {
        summaryAt = performance.now();
        summary = e as Record<string, unknown>;
      }
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0 || !summary) return reject(new Error(`import exited with ${code}`));
      resolve({ wallMs: performance.now() - start, importMs: summaryAt - (first ?? start), summary });
    });
  });
}

async function main(): Promise<void> {
  const works = Number(arg('works', '2000'));
  const users = Number(arg('users', '20'));
  const base = arg('dir', '') || mkdtempSync(path.join(os.tmpdir(), 'kikoplay-bench-import-'));
  const kikoeruDir = path.join(base, 'kikoeru');
  const dataDir = path.join(base, 'data');
  try {
    const t0 = performance.now();
    const fx = await generateKikoeru(kikoeruDir, { works, users, folders: false });
    process.stdout.write(
      `kikoeru installation: ${fx.works.length} works, ${fx.users.length} users, ${fx.reviews.length} reviews, ${fx.history.length} play histories, ${fx.tasks.length} AI tasks (built in ${((performance.now() - t0) / 1000).toFixed(1)} s)\n`,
    );
    const args = ['--data-dir', dataDir, 'import', 'kikoeru', '--db', fx.dbFile, '--config', fx.configFile, '--lyrics', fx.lyricDir, '--covers', fx.coverDir];
    const first = await runImport(args);
    const again = await runImport(args);
    const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    process.stdout.write(`first import:  ${s(first.wallMs)} wall (import itself ${s(first.importMs)}) — target ≤ ${TARGET_S} s\n`);
    process.stdout.write(`second import: ${s(again.wallMs)} wall (import itself ${s(again.importMs)}), works unchanged: ${(again.summary.works as { unchanged: number }).unchanged}\n`);
    if (first.wallMs / 1000 > TARGET_S) {
      process.stdout.write(`FAIL: the first import took longer than ${TARGET_S} s\n`);
      process.exitCode = 1;
    }
  } finally {
    if (!process.argv.includes('--keep')) rmSync(base, { recursive: true, force: true });
  }
}

main().catch((err: Error) => {
  process.stderr.write(`${err.stack ?? err.message}\n`);
  process.exit(1);
});
