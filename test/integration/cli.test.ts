import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCliServer } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/app.js';

async function post(url: string, body: unknown, token?: string) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function get(url: string, token?: string) {
  const res = await fetch(url, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('kikoplay config', () => {
  it('refuses an invalid value, names the key and leaves config.json untouched', async () => {
    const dir = tempDir();
    const ok = await runCli(['--data-dir', dir, 'config', 'set', 'pageSize', '24']);
    expect(ok.code).toBe(0);
    const before = readFileSync(path.join(dir, 'config.json'), 'utf8');
    const bad = await runCli(['--data-dir', dir, 'config', 'set', 'listenPort', 'banana']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('listenPort');
    expect(readFileSync(path.join(dir, 'config.json'), 'utf8')).toBe(before);
  });

  it('parses JSON values, reads them back and validates the file', async () => {
    const dir = tempDir();
    const voice = tempDir();
    const set = await runCli(['--data-dir', dir, 'config', 'set', 'rootFolders', JSON.stringify([{ name: 'lib', path: voice }])]);
    expect(set.code).toBe(0);
    const got = await runCli(['--data-dir', dir, 'config', 'get', 'rootFolders']);
    expect(JSON.parse(got.stdout)).toEqual([{ name: 'lib', path: voice }]);
    expect((await runCli(['--data-dir', dir, 'config', 'validate'])).code).toBe(0);
    const where = await runCli(['--data-dir', dir, 'config', 'path']);
    expect(where.stdout.trim()).toBe(path.join(dir, 'config.json'));
    expect((await runCli(['--data-dir', dir, 'config', 'unset', 'rootFolders'])).code).toBe(0);
    expect(JSON.parse((await runCli(['--data-dir', dir, 'config', 'get', 'rootFolders'])).stdout)).toEqual([]);
  });

  it('reports a broken config file naming the key', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ pageSize: -3 }));
    const res = await runCli(['--data-dir', dir, 'config', 'validate']);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain('pageSize');
    const unknown = await runCli(['--data-dir', dir, 'config', 'get', 'noSuchKey']);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('noSuchKey');
  });

  it('prints help for every command and fails on unknown ones', async () => {
    for (const args of [['--help'], ['serve', '--help'], ['user', '--help'], ['config', '--help'], ['scan', '--help']]) {
      const res = await runCli(args);
      expect(res.code, args.join(' ')).toBe(0);
      expect(res.stdout).toMatch(/Usage: kikoplay/);
    }
    const bad = await runCli(['frobnicate']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/unknown command/);
  });
});

describe('kikoplay serve + user', () => {
  const dir = tempDir();
  let server: ReturnType<typeof startCliServer>;
  let url: string;

  beforeAll(async () => {
    server = startCliServer(['--data-dir', dir, 'serve', '--port', '0']);
    url = (await server.ready).url;
  });
  afterAll(() => server.stop());

  it('creates the first admin with a random password, shown once and saved with mode 0600', async () => {
    const file = path.join(dir, 'initial-admin-password');
    expect(existsSync(file)).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe('user: admin');
    expect(lines[1]).toMatch(/^password: \S{12,}$/);
    const name = 'admin';
    const password = lines[1].slice('password: '.length);
    expect(server.output().stdout).toContain(password);
    const login = await post(`${url}/api/auth/me`, { name, password });
    expect(login.status).toBe(200);
    expect(typeof login.body.token).toBe('string');
  });

  it('answers the acceptance probes', async () => {
    expect(await (await fetch(`${url}/api/health`)).text()).toBe('OK');
    expect((await get(`${url}/api/auth/me`)).status).toBe(401);
    const nope = await get(`${url}/api/nope`);
    expect(nope.status).toBe(404);
    expect(nope.body).toHaveProperty('error');
  });

  it('user add / passwd from the terminal while the server runs', async () => {
    const add = await runCli(['--data-dir', dir, 'user', 'add', 'alice', '--password', 'secret1', '--role', 'user']);
    expect(add.code, add.stderr).toBe(0);
    const alice = await post(`${url}/api/auth/me`, { name: 'alice', password: 'secret1' });
    expect(alice.status).toBe(200);
    const aliceToken = alice.body.token as string;
    expect((await get(`${url}/api/credentials/users`, aliceToken)).status).toBe(403);

    const adminPassword = /^password: (.+)$/m.exec(readFileSync(path.join(dir, 'initial-admin-password'), 'utf8'))![1];
    const admin = await post(`${url}/api/auth/me`, { name: 'admin', password: adminPassword });
    const users = await get(`${url}/api/credentials/users`, admin.body.token as string);
    expect(users.status).toBe(200);
    expect((users.body.users as { name: string }[]).map((u) => u.name).sort()).toEqual(['admin', 'alice']);

    const passwd = await runCli(['--data-dir', dir, 'user', 'passwd', 'alice', '--password', 'secret2']);
    expect(passwd.code, passwd.stderr).toBe(0);
    expect((await get(`${url}/api/auth/me`, aliceToken)).status).toBe(401);
    expect((await post(`${url}/api/auth/me`, { name: 'alice', password: 'secret2' })).status).toBe(200);

    const list = await runCli(['--data-dir', dir, 'user', 'list', '--json']);
    expect(JSON.parse(list.stdout).map((u: { name: string; role: string }) => `${u.name}:${u.role}`)).toEqual(['admin:admin', 'alice:user']);
    const role = await runCli(['--data-dir', dir, 'user', 'role', 'alice', 'guest']);
    expect(role.code).toBe(0);
    const badRole = await runCli(['--data-dir', dir, 'user', 'role', 'alice', 'emperor']);
    expect(badRole.code).not.toBe(0);
    const short = await runCli(['--data-dir', dir, 'user', 'add', 'bob', '--password', 'secret1'], { lang: 'zh-CN' });
    expect(short.code).not.toBe(0);
    expect(short.stderr).toContain('用户名长度至少为 5');
    const del = await runCli(['--data-dir', dir, 'user', 'delete', 'alice']);
    expect(del.code).toBe(0);
    const delAgain = await runCli(['--data-dir', dir, 'user', 'delete', 'alice']);
    expect(delAgain.code).not.toBe(0);
  });

  it('stops serve with a clear message when config.json is invalid', async () => {
    const bad = tempDir();
    writeFileSync(path.join(bad, 'config.json'), JSON.stringify({ listenPort: 'banana' }));
    const res = await runCli(['--data-dir', bad, 'serve', '--port', '0']);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain('listenPort');
  });
});
