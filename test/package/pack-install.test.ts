/**
 * The package as a self-hoster installs it: a copy of this checkout (sources only, as a clean clone has
 * them) runs `npm pack`, whose `prepack` step builds the server and the web app; the tarball is installed
 * with `npm install -g --prefix <tmp>` (its runtime dependencies come from the npm registry, the native
 * ones are built the way a user's machine builds them). Then, from a directory that is not the package's:
 * `kikoplay --version` prints the package's version, `kikoplay demo` writes and scans the demo library
 * (migrations, the demo's assets and ffprobe found inside the installed package), and `kikoplay serve`
 * answers `/api/health`, serves the web app at `/` and lists the demo's works with their durations.
 *
 * The Dockerfile's build and runtime stages run these same commands (see its header).
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, readFileSync, readdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/app.js';
import { childEnv, PACKAGE_ROOT, startCliServer, type CliServer } from '../helpers/cli-server.js';

const VERSION = (JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
/** What a clean clone does not hold: installed, built or written by the tests. */
const NOT_IN_A_CLONE = new Set(['node_modules', 'dist', 'test-results', '.git', '.vite']);
const INSTALL_TIMEOUT = 20 * 60_000;

interface Run {
  code: number | null;
  output: string;
}

/** The environment of a shell outside the test runner (vitest's NODE_ENV=test would make a development build). */
function shellEnv(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...childEnv(), npm_config_fund: 'false', npm_config_audit: 'false', npm_config_update_notifier: 'false', ...extra };
  for (const key of Object.keys(env)) if (key === 'NODE_ENV' || key === 'TEST' || key.startsWith('VITEST')) delete env[key];
  return env;
}

/** Runs a command to its end, keeping what it printed (npm writes progress to both streams). */
function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env: shellEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (output += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (output += s));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

describe('npm pack → npm install -g → kikoplay from anywhere', () => {
  const work = tempDir('kikoplay-pack-');
  const source = path.join(work, 'source');
  const prefix = path.join(work, 'prefix');
  const elsewhere = tempDir('kikoplay-elsewhere-');
  const dataDir = path.join(elsewhere, 'data');
  let bin = '';
  let tarball = '';
  let server: CliServer | undefined;

  beforeAll(async () => {
    cpSync(PACKAGE_ROOT, source, { recursive: true, filter: (src) => !NOT_IN_A_CLONE.has(path.basename(src)) || path.dirname(src) !== PACKAGE_ROOT });
    // the development dependencies `npm ci` gave this checkout (the prepack build needs them)
    symlinkSync(path.join(PACKAGE_ROOT, 'node_modules'), path.join(source, 'node_modules'), 'dir');
    const packed = await run('npm', ['pack', '--pack-destination', work], source);
    if (packed.code !== 0) throw new Error(`npm pack failed (${packed.code}):\n${packed.output}`);
    tarball = path.join(work, readdirSync(work).find((f) => f.endsWith('.tgz')) ?? 'none.tgz');
    const installed = await run('npm', ['install', '-g', '--prefix', prefix, tarball], elsewhere);
    if (installed.code !== 0) throw new Error(`npm install -g failed (${installed.code}):\n${installed.output}`);
    bin = path.join(prefix, 'lib', 'node_modules', 'kikoplay', 'bin', 'kikoplay.js');
  }, INSTALL_TIMEOUT);

  afterAll(async () => {
    await server?.stop();
  });

  it('packs a tarball named for the version, with the built server and web app', () => {
    expect(path.basename(tarball)).toBe(`kikoplay-${VERSION}.tgz`);
    const pkg = path.join(prefix, 'lib', 'node_modules', 'kikoplay');
    for (const file of ['dist/cli/main.js', 'dist/web/index.html', 'dist/server/db/migrations/001-initial.sql']) {
      expect(existsSync(path.join(pkg, file)), file).toBe(true);
    }
    // no sources, tests or development tooling in the package
    for (const absent of ['server', 'web', 'test', 'dist/test', 'node_modules/vitest', 'node_modules/vite']) {
      expect(existsSync(path.join(pkg, absent)), absent).toBe(false);
    }
    expect(existsSync(path.join(prefix, 'bin', 'kikoplay'))).toBe(true);
  });

  it('says its version', async () => {
    const res = await run(process.execPath, [bin, '--version'], elsewhere);
    expect(res).toEqual({ code: 0, output: `${VERSION}\n` });
  });

  it('writes and scans the demo library, then serves it from another directory', async () => {
    const demo = await run(process.execPath, [bin, 'demo', '--data-dir', dataDir], elsewhere, { KIKOPLAY_LANG: 'en' });
    expect(demo.code, demo.output).toBe(0);

    server = await startCliServer({ bin, cwd: elsewhere, dataDir, startTimeoutMs: 60_000 });
    const health = await fetch(`${server.url}/api/health`);
    expect(health.status).toBe(200);
    const home = await fetch(`${server.url}/`);
    expect(home.status).toBe(200);
    expect(home.headers.get('content-type')).toMatch(/text\/html/);
    expect(await home.text()).toMatch(/<div id="root">/);

    const admin = server.admin;
    if (!admin) throw new Error(`no initial admin password in ${dataDir}`);
    const login = await fetch(`${server.url}/api/auth/me`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(admin) });
    expect(login.status).toBe(200);
    const { token } = (await login.json()) as { token: string };
    const works = await fetch(`${server.url}/api/works?order=id&sort=asc`, { headers: { authorization: `Bearer ${token}` } });
    expect(works.status).toBe(200);
    const body = (await works.json()) as { works: { id: number; circle: { name: string } | null }[]; pagination: { totalCount: number } };
    expect(body.pagination.totalCount).toBeGreaterThan(0);
    expect(body.works.every((w) => w.circle?.name)).toBe(true);
    const tracks = await fetch(`${server.url}/api/tracks/${body.works[0].id}`, { headers: { authorization: `Bearer ${token}` } });
    const files = JSON.stringify(await tracks.json());
    // durations come from ffprobe, found inside the installed package
    expect(files).toMatch(/"duration":\s*[1-9]/);
  });
});
