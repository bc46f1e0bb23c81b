/**
 * `kikoplay worker` while its server is down, as a real process: with --once it gives up after a few tries
 * with a clear message and exit 1 (a cron job must not hang); without it, it keeps trying, says so on each
 * failure, and stops at once on SIGINT / SIGTERM.
 */
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/app.js';
import { runCli } from '../helpers/run-cli.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const retries = (stderr: string) => stderr.split('\n').filter((l) => l.includes('retrying in')).length;

describe('kikoplay worker with its server down', () => {
  it('--once gives up after a few tries, saying why, exit 1', async () => {
    const server = `http://127.0.0.1:${await closedPort()}`;
    const run = await runCli(['worker', '--server', server, '--token', 'x', '--once', '--state-dir', tempDir('kikoplay-wu-')], { timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(1);
    // one line per failed try, then the reason it stopped
    expect(retries(run.stderr)).toBe(3);
    expect(run.stderr).toContain(`warning: connect: server ${server} unreachable: ECONNREFUSED; retrying in`);
    expect(run.stderr.trim().split('\n').at(-1)).toBe(`kikoplay: server ${server} unreachable: ECONNREFUSED (gave up after 4 attempts)`);
  });

  // SIGINT after more failures than --once allows (it is still trying), SIGTERM after the first
  it.each([
    { signal: 'SIGINT' as const, failures: 4 },
    { signal: 'SIGTERM' as const, failures: 1 },
  ])('without --once keeps trying, one line per failure, and stops on $signal', async ({ signal, failures }) => {
    const server = `http://127.0.0.1:${await closedPort()}`;
    const entry = process.env.KIKOPLAY_CLI_FROM_SOURCE ? ['--import', 'tsx', path.join(ROOT, 'test/helpers/cli-entry.ts')] : [path.join(ROOT, 'bin/kikoplay.js')];
    const child = spawn(process.execPath, [...entry, 'worker', '--server', server, '--token', 'x', '--state-dir', tempDir('kikoplay-wu-')], {
      cwd: ROOT,
      env: { ...process.env, KIKOPLAY_DATA_DIR: '', KIKOPLAY_LANG: 'en' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await expect.poll(() => retries(stderr), { timeout: 60_000 }).toBeGreaterThanOrEqual(failures);
    const asked = Date.now();
    child.kill(signal);
    expect(await exited).toBe(0);
    expect(Date.now() - asked).toBeLessThan(5_000);
    expect(stderr).toContain(`${signal}: stopping`);
    expect(stderr).toContain('worker stopped: 0 done, 0 failed, 0 taken back (stopped by signal)');
  });
});
