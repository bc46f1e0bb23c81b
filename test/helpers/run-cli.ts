import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = path.join(ROOT, 'bin/kikoplay.js');
const BUILT = path.join(ROOT, 'dist/cli/main.js');

/**
 * The CLI under test is the built one (`npm test` builds first): plain JS starts in a fraction of the
 * time a TypeScript loader needs. Set KIKOPLAY_CLI_FROM_SOURCE=1 to run the sources through tsx instead.
 */
function cliArgs(args: string[]): string[] {
  if (process.env.KIKOPLAY_CLI_FROM_SOURCE) return ['--import', 'tsx', path.join(ROOT, 'test/helpers/cli-entry.ts'), ...args];
  if (!existsSync(BUILT)) throw new Error('dist/ is missing: run `npm run build:server` (npm test does it) before the CLI tests');
  return [BIN, ...args];
}

/**
 * The language a CLI test runs in: pinned per call with KIKOPLAY_LANG (English unless a test asks for
 * another), so the environment the suite runs in (LANG=ja_JP.UTF-8…) decides nothing. `null` pins
 * nothing: KIKOPLAY_LANG and the locale variables come from `env` alone (the precedence tests).
 */
export type CliTestLang = 'en' | 'ja' | 'zh-CN' | null;

function cliEnv(lang: CliTestLang, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, KIKOPLAY_DATA_DIR: '' };
  for (const key of ['KIKOPLAY_LANG', 'LC_ALL', 'LC_MESSAGES', 'LANG']) delete env[key];
  if (lang !== null) env.KIKOPLAY_LANG = lang;
  return { ...env, ...extra };
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run `kikoplay <args>` from source in a child process and collect its output. */
export function runCli(args: string[], opts: { env?: NodeJS.ProcessEnv; input?: string; timeoutMs?: number; lang?: CliTestLang } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, cliArgs(args), {
      cwd: ROOT,
      env: cliEnv(opts.lang === undefined ? 'en' : opts.lang, opts.env),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(opts.input ?? '');
  });
}

/** Start a long-running `kikoplay serve` from source; resolves once it prints its URL. */
export function startCliServer(args: string[], opts: { env?: NodeJS.ProcessEnv } = {}) {
  const child = spawn(process.execPath, cliArgs(args), {
    cwd: ROOT,
    // English: the start-up line below is read in its English words
    env: cliEnv('en', { KIKOPLAY_LOG_LEVEL: 'warn', ...opts.env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const ready = new Promise<{ url: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${stdout}\n${stderr}`)), 30_000);
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(stdout);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1].replace('localhost', '127.0.0.1') });
      }
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${stdout}\n${stderr}`));
    });
  });
  return {
    ready,
    output: () => ({ stdout, stderr }),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
