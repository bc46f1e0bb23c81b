/**
 * The hidden password prompt of `kikoplay user add NAME` on a real terminal (a pseudo-terminal from
 * python3's pty module): it is written to stderr, so it shows when stdout is redirected; Ctrl-D on an
 * empty answer cancels (exit 1) and is never part of a password; Ctrl-C cancels with exit 130. Keys are
 * sent only once the prompt they answer has been shown (the terminal is in raw mode by then).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/app.js';
import { runCli } from '../helpers/run-cli.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Runs argv on a new pseudo-terminal, relaying our stdin to it and its output to our stdout; exits with its code. */
const PTY_RUN = `
import os, pty, sys
status = pty.spawn(sys.argv[1:])
sys.exit(os.waitstatus_to_exitcode(status))
`;

interface PtyRun {
  /** Wait until the terminal has shown `text` (`count` times), then send `keys`. */
  answer(text: string, keys: string, count?: number): Promise<void>;
  /** The exit code and everything the terminal showed. */
  done: Promise<{ code: number | null; screen: string }>;
}

/** `kikoplay <args>` on a terminal; stdout to `stdoutFile` when given (stderr stays on the terminal). */
function onTerminal(args: string[], stdoutFile?: string): PtyRun {
  const cli = process.env.KIKOPLAY_CLI_FROM_SOURCE ? [process.execPath, '--import', 'tsx', path.join(ROOT, 'test/helpers/cli-entry.ts')] : [process.execPath, path.join(ROOT, 'bin/kikoplay.js')];
  const argv = stdoutFile ? ['sh', '-c', 'out="$1"; shift; exec "$@" > "$out"', 'sh', stdoutFile, ...cli, ...args] : [...cli, ...args];
  const child = spawn('python3', ['-c', PTY_RUN, ...argv], {
    cwd: ROOT,
    env: { ...process.env, KIKOPLAY_DATA_DIR: '', KIKOPLAY_LANG: 'en', NO_COLOR: '1' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let screen = '';
  child.stdout.on('data', (d: Buffer) => (screen += d.toString()));
  child.stderr.on('data', (d: Buffer) => (screen += d.toString()));
  const done = new Promise<{ code: number | null; screen: string }>((resolve) => {
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, screen });
    });
  });
  // a prompt that never ends is a failure, not a hung suite
  const timer = setTimeout(() => child.kill('SIGKILL'), 45_000);
  return {
    async answer(text, keys, count = 1) {
      await expect.poll(() => screen.split(text).length - 1, { timeout: 40_000 }).toBeGreaterThanOrEqual(count);
      child.stdin.write(keys);
    },
    done: done.finally(() => child.stdin.end()),
  };
}

async function userNames(dataDir: string): Promise<string[]> {
  const list = await runCli(['--data-dir', dataDir, 'user', 'list', '--json']);
  expect(list.code, list.stderr).toBe(0);
  return (JSON.parse(list.stdout) as { name: string }[]).map((u) => u.name);
}

describe('the password prompt on a terminal', () => {
  it('shows the prompt on stderr when stdout is redirected, and takes the password typed', async () => {
    const dataDir = tempDir();
    const out = path.join(tempDir('kikoplay-pty-out-'), 'stdout.txt');
    const run = onTerminal(['--data-dir', dataDir, 'user', 'add', 'alice'], out);
    // Ctrl-D inside a typed password is not part of it: the repeat without it matches
    await run.answer('password: ', 'secret12\u0004\r');
    await run.answer('repeat: ', 'secret12\r');
    const { code, screen } = await run.done;
    expect(code, screen).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe('created user alice\n');
    expect(screen).not.toContain('secret12');
    expect(await userNames(dataDir)).toContain('alice');
  });

  it('Ctrl-D on an empty answer cancels, exit 1, nothing created', async () => {
    const dataDir = tempDir();
    const run = onTerminal(['--data-dir', dataDir, 'user', 'add', 'alice']);
    await run.answer('password: ', '\u0004');
    const { code, screen } = await run.done;
    expect(code, screen).toBe(1);
    expect(screen).toContain('kikoplay: cancelled');
    expect(await userNames(dataDir)).not.toContain('alice');
  });

  it('Ctrl-C cancels with exit 130, at the first prompt or the repeat', async () => {
    const dataDir = tempDir();
    const first = onTerminal(['--data-dir', dataDir, 'user', 'add', 'alice']);
    await first.answer('password: ', 'sec\u0003');
    const a = await first.done;
    expect(a.code, a.screen).toBe(130);
    expect(a.screen).toContain('kikoplay: cancelled');

    const repeat = onTerminal(['--data-dir', dataDir, 'user', 'add', 'alice']);
    await repeat.answer('password: ', 'secret12\r');
    await repeat.answer('repeat: ', '\u0003');
    const b = await repeat.done;
    expect(b.code, b.screen).toBe(130);
    expect(await userNames(dataDir)).not.toContain('alice');
  });
});
