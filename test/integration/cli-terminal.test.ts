/**
 * What the terminal shows: readable log lines (JSON when asked or not on a terminal), each error once, a
 * quiet end when the reader goes away, a busy port named with the way out, one cancel message, and the
 * addresses `serve` can be reached at. The real CLI is spawned; the terminal case is forced with
 * KIKOPLAY_LOG_FORMAT=pretty (no pty).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/app.js';
import { runCli, startCliServer } from '../helpers/run-cli.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = path.join(ROOT, 'bin/kikoplay.js');

function libraryDataDir(works: number): string {
  const root = tempDir('kikoplay-term-lib-');
  for (let i = 0; i < works; i++) {
    const dir = path.join(root, `RJ${400000 + i} work ${i}`);
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'readme.txt'), `work ${i}`);
  }
  const dataDir = tempDir('kikoplay-term-');
  writeFileSync(path.join(dataDir, 'config.json'), JSON.stringify({ rootFolders: [{ name: 'lib', path: root }] }));
  return dataDir;
}

async function until(check: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

const count = (text: string, part: string) => text.split(part).length - 1;

describe('log lines', () => {
  const serveWith = async (env: NodeJS.ProcessEnv, args: string[] = []) => {
    const server = startCliServer(['--data-dir', tempDir(), ...args, 'serve', '--port', '0', '--host', '127.0.0.1'], { env: { KIKOPLAY_LOG_LEVEL: 'info', ...env } });
    try {
      await server.ready;
      await until(() => server.output().stderr.includes('kikoplay is listening'));
      return server.output().stderr;
    } finally {
      await server.stop();
    }
  };

  it('are one readable line each when the human format is asked for (as on a terminal)', async () => {
    const stderr = await serveWith({ KIKOPLAY_LOG_FORMAT: 'pretty' });
    expect(stderr).toMatch(/^\d\d:\d\d:\d\d INFO {2}kikoplay is listening url=http:\/\/127\.0\.0\.1:\d+ dataDir=\S+ auth=true$/m);
    expect(stderr).not.toContain('{"level"');
  });

  it('are pino JSON when not on a terminal, and with --log-format json', async () => {
    for (const [env, args] of [
      [{}, []],
      [{ KIKOPLAY_LOG_FORMAT: 'pretty' }, ['--log-format', 'json']],
    ] as const) {
      const stderr = await serveWith(env, [...args]);
      const line = stderr.split('\n').find((l) => l.includes('kikoplay is listening'))!;
      expect(JSON.parse(line)).toMatchObject({ level: 30, msg: 'kikoplay is listening', auth: true });
    }
  });

  it('refuses an unknown --log-format', async () => {
    const r = await runCli(['--log-format', 'xml', 'config', 'path']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown log format "xml"');
  });
});

describe('errors and endings', () => {
  it('`scan --work` of an unknown work says so once, on a terminal and with --json', async () => {
    const dataDir = libraryDataDir(1);
    const plain = await runCli(['--data-dir', dataDir, 'scan', '--work', 'RJ999999'], { env: { KIKOPLAY_LOG_FORMAT: 'pretty' } });
    expect(plain.code).toBe(2);
    expect(count(plain.stdout + plain.stderr, 'work RJ999999 is not in the database'), plain.stdout + plain.stderr).toBe(1);
    const json = await runCli(['--data-dir', dataDir, 'scan', '--work', 'RJ999999', '--json']);
    expect(json.code).toBe(2);
    // stdout: the events (the error is in the last one); stderr: one human line
    expect(json.stderr.trim().split('\n')).toEqual(['kikoplay: Cannot scan: work RJ999999 is not in the database (scan its library folder first)']);
  });

  it('a reader that goes away ends a command quietly (EPIPE), without a stack trace', async () => {
    const dataDir = tempDir();
    const child = spawn(process.execPath, [BIN, '--data-dir', dataDir, 'config', 'get'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, KIKOPLAY_DATA_DIR: '', KIKOPLAY_LANG: 'en' },
    });
    child.stdout.destroy(); // the reader is gone before the first line
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });

  it('a busy port is named with the way out, in the run’s language', async () => {
    const busy = net.createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as net.AddressInfo).port;
    try {
      const en = await runCli(['--data-dir', tempDir(), 'serve', '--port', String(port), '--host', '127.0.0.1']);
      expect(en.code).toBe(1);
      expect(en.stderr.trim()).toBe(`kikoplay: port ${port} is already in use on 127.0.0.1; choose another with --port N (or the PORT environment variable)`);
      const zh = await runCli(['--data-dir', tempDir(), 'serve', '--host', '127.0.0.1'], { lang: 'zh-CN', env: { PORT: String(port) } });
      expect(zh.code).toBe(1);
      expect(zh.stderr.trim()).toBe(`kikoplay: 端口 ${port} 在 127.0.0.1 上已被占用，请用 --port N（或环境变量 PORT）换一个端口`);
    } finally {
      busy.close();
    }
  });

  it('a cancelled scan says so once', { timeout: 120_000 }, async () => {
    const dataDir = libraryDataDir(1000);
    const child = spawn(process.execPath, [BIN, '--data-dir', dataDir, 'scan', '--offline'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, KIKOPLAY_DATA_DIR: '', KIKOPLAY_LANG: 'en', KIKOPLAY_LOG_FORMAT: 'pretty' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const closed = new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    await until(() => stdout.includes('scan started'));
    child.kill('SIGINT'); // what `q` and Ctrl-C do: cancel the scan
    expect(await closed).toBe(1);
    const all = stdout + stderr;
    expect(count(all.toLowerCase(), 'cancel'), all).toBe(1);
    expect(stdout).toMatch(/^Scan cancelled\.$/m);
    expect(stderr).toBe('');
  });
});

describe('serve', () => {
  const nonInternal = (v6: boolean) =>
    Object.values(os.networkInterfaces())
      .flat()
      .filter((a) => a && !a.internal && (a.family === 'IPv4' || (v6 && !/^fe80:/i.test(a.address))))
      .map((a) => (a!.family === 'IPv6' ? `[${a!.address}]` : a!.address));

  it('prints every address it can be reached at when bound to all interfaces', async () => {
    const server = startCliServer(['--data-dir', tempDir(), 'serve', '--port', '0']);
    try {
      const { url } = await server.ready;
      const port = new URL(url).port;
      const addresses = nonInternal(true);
      if (addresses.length) await until(() => server.output().stdout.includes(`  http://${addresses.at(-1)}:${port}\n`));
      const { stdout } = server.output();
      if (addresses.length) expect(stdout).toContain('reachable at:');
      for (const a of addresses) expect(stdout).toContain(`  http://${a}:${port}\n`);
    } finally {
      await server.stop();
    }
  });

  it('prints the bound host alone when bound to one address', async () => {
    const server = startCliServer(['--data-dir', tempDir(), 'serve', '--port', '0', '--host', '127.0.0.1']);
    try {
      const { url } = await server.ready;
      await until(() => server.output().stdout.includes(`  http://127.0.0.1:${new URL(url).port}\n`));
      expect(server.output().stdout).toMatch(new RegExp(`reachable at:\\n {2}http://127\\.0\\.0\\.1:${new URL(url).port}\\n$`));
    } finally {
      await server.stop();
    }
  });
});
