/**
 * Runs the BUILT command-line server (`node bin/kikoplay.js serve --data-dir <tmp> --port 0`) the way a
 * user starts it, for end-to-end tests. Reads the port from the start-up line and the generated admin
 * password from `<data-dir>/initial-admin-password` (lines `user: <name>` and `password: <password>`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = path.join(PACKAGE_ROOT, 'bin', 'kikoplay.js');
const LISTENING = /kikoplay listening on (https?:\/\/\S+?):(\d+)/;

export interface CliServer {
  /** Base URL, e.g. http://127.0.0.1:41234 */
  url: string;
  port: number;
  dataDir: string;
  /** The admin created on first start (absent when the data dir already had one). */
  admin?: { name: string; password: string };
  /** Everything the process printed so far (stdout + stderr), for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

export interface CliServerOptions {
  /** Extra `serve` flags, e.g. ['--no-auth']. */
  args?: string[];
  /** Use this data dir (kept afterwards) instead of a fresh temporary one (removed on stop). */
  dataDir?: string;
  env?: NodeJS.ProcessEnv;
  /** Give up waiting for the start-up line after this long. */
  startTimeoutMs?: number;
  /** The `kikoplay` entry to run (default: this checkout's bin/kikoplay.js), e.g. an installed package's. */
  bin?: string;
  /** The working directory of the process (default: this checkout). */
  cwd?: string;
}

/** Fail early, with the fix, when the package has not been built. */
export function assertBuilt(): void {
  const missing = ['dist/cli/main.js', 'dist/web/index.html'].filter((f) => !existsSync(path.join(PACKAGE_ROOT, f)));
  if (missing.length) throw new Error(`kikoplay is not built (missing ${missing.join(', ')}): run \`npm run build\` first`);
}

/** The environment of the child: ours minus anything that would redirect or reconfigure it. */
export function childEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith('KIKOPLAY_') || key === 'PORT') continue;
    env[key] = value;
  }
  // English: the start-up line is read in its English words, whatever the locale of the machine
  return { ...env, KIKOPLAY_LOG_LEVEL: 'warn', NO_COLOR: '1', KIKOPLAY_LANG: 'en', ...extra };
}

function waitForExit(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

export async function startCliServer(opts: CliServerOptions = {}): Promise<CliServer> {
  if (!opts.bin) assertBuilt();
  const ownDir = !opts.dataDir;
  const dataDir = opts.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'kikoplay-e2e-'));
  const child = spawn(process.execPath, [opts.bin ?? BIN, 'serve', '--data-dir', dataDir, '--port', '0', ...(opts.args ?? [])], {
    cwd: opts.cwd ?? PACKAGE_ROOT,
    env: childEnv(opts.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.setEncoding('utf8');
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => (output += chunk));

  const cleanup = () => {
    if (ownDir) rmSync(dataDir, { recursive: true, force: true });
  };

  let port: number;
  try {
    port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`kikoplay serve did not start within ${opts.startTimeoutMs ?? 20_000} ms:\n${output}`)), opts.startTimeoutMs ?? 20_000);
      child.stdout!.on('data', (chunk: string) => {
        output += chunk;
        const m = LISTENING.exec(output);
        if (m) {
          clearTimeout(timer);
          resolve(Number(m[2]));
        }
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`kikoplay serve exited (${signal ?? code}) before listening:\n${output}`));
      });
      child.once('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
    });
  } catch (err) {
    child.kill('SIGKILL');
    await waitForExit(child);
    cleanup();
    throw err;
  }

  let admin: CliServer['admin'];
  const passwordFile = path.join(dataDir, 'initial-admin-password');
  if (existsSync(passwordFile)) {
    const text = readFileSync(passwordFile, 'utf8');
    const name = /^user: (.+)$/m.exec(text)?.[1];
    const password = /^password: (.+)$/m.exec(text)?.[1];
    if (name && password) admin = { name, password };
  }

  let stopped = false;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    dataDir,
    admin,
    output: () => output,
    async stop() {
      if (stopped) return;
      stopped = true;
      const exited = waitForExit(child);
      child.kill('SIGTERM');
      const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(force);
      cleanup();
    },
  };
}
