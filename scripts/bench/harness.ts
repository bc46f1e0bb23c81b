/**
 * Shared machinery of the benchmarks that drive the real server (run.ts, attacks.ts): command-line
 * arguments, compiling the server like the package ships it, starting it on loopback in its own
 * process, sampling its resident memory and CPU, and bench users.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Database } from '../../server/db/connection.js';
import { UsersRepo } from '../../server/db/repos/users-repo.js';
import { hashPassword } from '../../server/auth/password.js';
import type { Role } from '../../server/auth/roles.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const MB = 1024 * 1024;

// ---- arguments ------------------------------------------------------------------------------------

export function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? '') : undefined;
}
export const flag = (name: string) => process.argv.includes(`--${name}`);
export function intArg(name: string, fallback: number): number {
  const v = arg(name);
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) {
    process.stderr.write(`--${name} must be a positive integer, got "${v}"\n`);
    process.exit(2);
  }
  return n;
}

// ---- server process -------------------------------------------------------------------------------

/**
 * Compile the server the way the package ships it (tsc with tsconfig.build.json, plus this
 * benchmark's server entry) into `<dataDir>/build`, with the migrations and assets beside it.
 * Running compiled JS keeps the TypeScript loader's memory and startup out of the measurement.
 */
export function compileServer(dataDir: string): string {
  const out = path.join(dataDir, 'build');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const tsconfig = path.join(out, 'tsconfig.bench.json');
  writeFileSync(
    tsconfig,
    JSON.stringify({
      extends: path.join(ROOT, 'tsconfig.build.json'),
      compilerOptions: { rootDir: ROOT, outDir: out, noEmitOnError: false, incremental: false },
      include: [path.join(ROOT, 'server'), path.join(ROOT, 'cli'), path.join(ROOT, 'scripts/bench/server.ts')],
      exclude: [path.join(ROOT, 'node_modules'), path.join(ROOT, 'dist'), path.join(ROOT, 'web'), path.join(ROOT, 'test'), '**/*.test.ts'],
    }),
  );
  const tsc = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', tsconfig], { cwd: ROOT, encoding: 'utf8' });
  const entry = path.join(out, 'scripts/bench/server.js');
  if (!existsSync(entry)) throw new Error(`compiling the server failed:\n${tsc.stdout}${tsc.stderr}`);
  if (tsc.status !== 0) process.stdout.write('  (tsc reported type errors in files under work; the emitted JS is used)\n');
  cpSync(path.join(ROOT, 'server/db/migrations'), path.join(out, 'server/db/migrations'), { recursive: true });
  cpSync(path.join(ROOT, 'server/media'), path.join(out, 'server/media'), { recursive: true, filter: (src) => !/\.(d\.m)?ts$/.test(src) });
  if (existsSync(path.join(ROOT, 'server/assets'))) cpSync(path.join(ROOT, 'server/assets'), path.join(out, 'server/assets'), { recursive: true });
  writeFileSync(path.join(out, 'package.json'), JSON.stringify({ name: 'kikoplay-bench-build', type: 'module', private: true }));
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(out, 'node_modules'), 'dir');
  return entry;
}

/** `stderr: 'pipe'` hands the server's log to the caller (child.stderr) instead of this terminal. */
export async function startServer(dataDir: string, compiled: string | null, opts: { stderr?: 'inherit' | 'pipe' } = {}): Promise<{ child: ChildProcess; port: number }> {
  // BENCH_NODE_FLAGS: extra node flags for the server process (experiments, e.g. heap sizes)
  const nodeFlags = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  return startProcess([...nodeFlags, ...(compiled ? [compiled, dataDir] : ['--import', 'tsx', path.join(ROOT, 'scripts/bench/server.ts'), dataDir])], opts.stderr);
}

export async function startProcess(args: string[], stderr: 'inherit' | 'pipe' = 'inherit'): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', stderr],
    env: { ...process.env, KIKOPLAY_LOG_LEVEL: 'warn' },
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error('server did not start within 60 s')), 60_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /LISTENING (\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited early with code ${code}`));
    });
  });
  return { child, port };
}

/** Peak resident set of a process since the last reset (Linux: VmHWM, reset through clear_refs). */
export class RssProbe {
  private max = 0;
  private timer: NodeJS.Timeout | null = null;
  private hwmReset = false;

  constructor(private readonly pid: number) {}

  private read(field: 'VmRSS' | 'VmHWM'): number {
    try {
      const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${this.pid}/status`, 'utf8'));
      return m ? Number(m[1]) * 1024 : 0;
    } catch {
      return 0;
    }
  }

  start(): void {
    this.max = 0;
    try {
      writeFileSync(`/proc/${this.pid}/clear_refs`, '5');
      this.hwmReset = true;
    } catch {
      this.hwmReset = false;
    }
    this.timer = setInterval(() => (this.max = Math.max(this.max, this.read('VmRSS'))), 100);
  }

  /** User + system CPU time of the process so far, in ms. */
  cpuMs(): number {
    try {
      const fields = readFileSync(`/proc/${this.pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
    } catch {
      return 0;
    }
  }

  stop(): number {
    if (this.timer) clearInterval(this.timer);
    const sampled = Math.max(this.max, this.read('VmRSS'));
    return this.hwmReset ? Math.max(sampled, this.read('VmHWM')) : sampled;
  }
}

/**
 * The server entry to run: compiled into `<dataDir>/build` (or the one compiled earlier with
 * `--no-compile`), or null with `--tsx` (run from source).
 */
export function prepareServer(dataDir: string): string | null {
  let compiled: string | null = null;
  if (!flag('tsx')) {
    const existing = path.join(dataDir, 'build/scripts/bench/server.js');
    if (flag('no-compile') && existsSync(existing)) {
      compiled = existing;
      process.stdout.write(`using the server compiled earlier in ${path.dirname(path.dirname(path.dirname(existing)))}\n`);
    } else {
      const t = Date.now();
      compiled = compileServer(dataDir);
      process.stdout.write(`compiled the server in ${((Date.now() - t) / 1000).toFixed(1)} s\n`);
    }
  }
  return compiled;
}

/** SIGTERM, then SIGKILL if the process has not exited within `graceMs`; says which ended it. */
export async function stopProcess(child: ChildProcess, graceMs = 10_000): Promise<'exited' | 'killed'> {
  if (child.exitCode !== null || child.signalCode !== null) return 'exited';
  const exited = new Promise<'exited'>((resolve) => child.once('exit', () => resolve('exited')));
  child.kill('SIGTERM');
  const timer = new Promise<'killed'>((resolve) => setTimeout(() => resolve('killed'), graceMs).unref());
  const how = await Promise.race([exited, timer]);
  if (how === 'killed') {
    child.kill('SIGKILL');
    await exited;
  }
  return how;
}

// ---- users ----------------------------------------------------------------------------------------

export async function login(port: number, name: string, password: string): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/api/auth/me`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name, password }) });
  if (!res.ok) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

export interface BenchUser {
  name: string;
  password: string;
  role: Role;
}

/** The browse bench's user (role user). */
export const BENCH_USER: BenchUser = { name: 'benchuser', password: 'bench-password', role: 'user' };

/** Creates the users that do not exist yet, straight in the database (before the server starts). */
export async function ensureBenchUsers(dataDir: string, list: BenchUser[]): Promise<void> {
  const db = await Database.open(path.join(dataDir, 'kikoplay.db'), { readers: 1 });
  try {
    const users = new UsersRepo(db);
    for (const user of list) if (!(await users.byName(user.name))) await users.create(user.name, await hashPassword(user.password), user.role);
  } finally {
    await db.close();
  }
}

export async function ensureBenchUser(dataDir: string): Promise<BenchUser> {
  await ensureBenchUsers(dataDir, [BENCH_USER]);
  return BENCH_USER;
}
