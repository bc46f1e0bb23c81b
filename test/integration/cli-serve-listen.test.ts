/**
 * `kikoplay serve --port / --host` refusals, as a real process: a port is decimal digits 0–65535 (0 picks a
 * free port) and nothing else; a host it cannot listen on (unknown name, an address of another machine)
 * is said in words with the way out, exit 1, as a busy port is — never a raw getaddrinfo / listen error.
 */
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/app.js';
import { runCli, startCliServer } from '../helpers/run-cli.js';

describe('serve --port', () => {
  it.each(['', ' 80', '80 ', '0x50', '1e3', '8.0', '+80', '-1', '65536', 'eighty'])('refuses %j, exit 1, before opening anything', async (value) => {
    const dataDir = tempDir();
    const run = await runCli(['--data-dir', dataDir, 'serve', '--port', value, '--host', '127.0.0.1'], { timeoutMs: 20_000 });
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.stderr.trim()).toBe(`kikoplay: --port must be a port number (0-65535), got "${value}"`);
    expect(run.stdout).toBe('');
  });

  it('takes a decimal port, and 0 for a free one', async () => {
    const server = startCliServer(['--data-dir', tempDir(), 'serve', '--port', '0', '--host', '127.0.0.1']);
    try {
      const { url } = await server.ready;
      expect(Number(new URL(url).port)).toBeGreaterThan(0);
    } finally {
      await server.stop();
    }
  });
});

describe('serve --host', () => {
  it('a name that does not resolve is said in words, exit 1', async () => {
    for (const host of ['nonexistent.invalid', '999.1.1.1']) {
      const run = await runCli(['--data-dir', tempDir(), 'serve', '--port', '0', '--host', host], { timeoutMs: 60_000 });
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr).not.toMatch(/getaddrinfo|ENOTFOUND|EAI_AGAIN/);
      expect(run.stderr.trim().split('\n').at(-1)).toMatch(new RegExp(`^kikoplay: cannot listen on ${host.replace(/\./g, '\\.')}: .*(no such|could not be looked up).*--host`));
    }
  });

  it('an address of another machine is said in words, exit 1', async () => {
    // TEST-NET-1: never an address of this machine
    const run = await runCli(['--data-dir', tempDir(), 'serve', '--port', '0', '--host', '192.0.2.1'], { timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).not.toContain('EADDRNOTAVAIL');
    expect(run.stderr.trim().split('\n').at(-1)).toBe(
      'kikoplay: cannot listen on 192.0.2.1: it is not an address of this machine; give one of its addresses with --host (127.0.0.1 for this machine only, 0.0.0.0 for all interfaces), or leave --host out',
    );
  });
});
