/**
 * `kikoplay doctor` on real data dirs: a healthy one while its server runs (exit 0, the port named as this
 * data dir's server), and broken ones (a corrupt database, a missing library folder, a busy port, a bad
 * config, open modes, a data dir that cannot be used, a newer kikoplay's database), each problem reported
 * with what to do, and exit 1.
 */
import { chmodSync, copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sqlite3 from 'sqlite3';
import { open } from 'sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, tempDir, type TestServer } from '../helpers/app.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { withoutWriteAccess } from '../helpers/unprivileged.js';
import { writeServerInfo } from '../../server/app/server-info.js';
import { Database } from '../../server/db/connection.js';
import { checkDisk } from '../../server/services/doctor/disk.js';
import type { Finding } from '../../server/services/doctor/index.js';

const AUDIO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/audio');

interface Report {
  dataDir: string;
  ok: boolean;
  findings: (Finding & { message: string })[];
}

async function doctor(dataDir: string, ...flags: string[]): Promise<{ code: number; report: Report }> {
  const r = await cliInProcess(['--data-dir', dataDir, ...flags, 'doctor', '--json']);
  return { code: r.code, report: JSON.parse(r.stdout) as Report };
}

const keyed = (report: Report) => Object.fromEntries(report.findings.map((f) => [`${f.key}${'name' in f.params ? `:${f.params.name}` : ''}`, f]));
const problems = (report: Report) => report.findings.filter((f) => f.status === 'problem').map((f) => f.key);

/** A port something else listens on (all interfaces, as `serve` would). */
function busyPort(): Promise<net.Server> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, () => resolve(s));
  });
}

describe('kikoplay doctor', () => {
  let t: TestServer;
  let lib: string;

  beforeAll(async () => {
    lib = tempDir('kikoplay-doctor-lib-');
    mkdirSync(path.join(lib, 'RJ320001 診断'), { recursive: true });
    copyFileSync(path.join(AUDIO, 'tone-2s.mp3'), path.join(lib, 'RJ320001 診断/01.mp3'));
    t = await startTestServer({ flags: { rootFolders: [{ name: 'lib', path: lib }] } });
    await t.addUser('admin', 'adminpass', 'admin');
    const row = (await t.app.repos.users.byName('admin'))!;
    expect((await t.app.services.scan.run({ id: row.id, name: row.name, role: 'admin' }, { kind: 'scan', metadata: false })).status).toBe('finished');
    writeFileSync(path.join(t.dataDir, 'config.json'), JSON.stringify({ rootFolders: [{ name: 'lib', path: lib }], listenPort: t.server.port }), { mode: 0o600 });
    writeServerInfo(t.dataDir, { pid: process.pid, port: t.server.port, host: '127.0.0.1', url: t.url, version: 'test', startedAt: '2026-01-01T00:00:00.000Z' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a healthy data dir while its server runs: every check ok, the port named as this data dir’s server, exit 0', async () => {
    const { code, report } = await doctor(t.dataDir);
    expect(code).toBe(0);
    expect(report.ok).toBe(true);
    const f = keyed(report);
    for (const key of ['configOk', 'dataDirOk', 'dbOk', 'migrationsOk', 'sqliteOk', 'ffprobeOk', 'rootOk:lib', 'portOurs']) expect(f[key]?.status, key).toBe('ok');
    expect(f['rootOk:lib'].params).toEqual({ name: 'lib', path: lib, works: 1 });
    expect(f.portOurs.message).toBe(`port ${t.server.port} is used by the kikoplay server of this data dir (pid ${process.pid}, running since 2026-01-01T00:00:00.000Z)`);
    expect(f.dataDirOk.message).toBe(`${t.dataDir} is readable, writable and private (0700)`);
    expect(f.ffprobeOk.message).toMatch(/^ffprobe version /);
    expect(report.findings.some((x) => x.check === 'disk')).toBe(true);
  });

  it('human output in the language of the run: one line per finding with its status', async () => {
    const en = await cliInProcess(['--data-dir', t.dataDir, 'doctor']);
    expect(en.code).toBe(0);
    expect(en.stdout).toContain(`kikoplay doctor: data dir ${t.dataDir}\n`);
    expect(en.stdout).toMatch(/^ {2}ok {7}database {2}\S+kikoplay\.db passed the integrity check$/m);
    const ja = await cliInProcess(['--lang', 'ja', '--data-dir', t.dataDir, 'doctor']);
    expect(ja.stdout).toContain(`kikoplay doctor: データディレクトリ ${t.dataDir}\n`);
    expect(ja.stdout).toMatch(/OK\s+ライブラリ\s+「lib」.*データベースに 1 作品/);
    const zh = await cliInProcess(['--lang', 'zh-CN', '--data-dir', t.dataDir, 'doctor']);
    expect(zh.stdout).toMatch(/正常\s+数据库\s+\S+ 通过了完整性检查/);
  });

  it('a broken set-up: corrupt database, missing library folder, busy port, open modes: each reported, exit 1', async () => {
    const dataDir = tempDir('kikoplay-doctor-broken-');
    const empty = tempDir('kikoplay-doctor-empty-');
    const missing = path.join(tempDir('kikoplay-doctor-mnt-'), 'not-mounted');
    const busy = await busyPort();
    const port = (busy.address() as net.AddressInfo).port;
    try {
      chmodSync(dataDir, 0o755);
      writeFileSync(
        path.join(dataDir, 'config.json'),
        JSON.stringify({
          rootFolders: [
            { name: 'gone', path: missing },
            { name: 'empty', path: empty },
          ],
          listenPort: port,
        }),
        { mode: 0o644 },
      );
      writeFileSync(path.join(dataDir, 'kikoplay.db'), Buffer.alloc(8192, 'this is not a database '), { mode: 0o600 });
      const { code, report } = await doctor(dataDir);
      expect(code).toBe(1);
      expect(report.ok).toBe(false);
      expect(problems(report).sort()).toEqual(['dbDamaged', 'portOther', 'rootMissing']);
      const f = keyed(report);
      expect(f.dbDamaged.message).toMatch(new RegExp(`^${path.join(dataDir, 'kikoplay.db')} is damaged \\(.*\\): stop the server and restore a backup$`));
      expect(f['rootMissing:gone'].message).toBe(`"gone" ${missing} does not exist (0 work(s) in the database): mount it, or fix its path in the settings`);
      expect(f['rootOk:empty'].status).toBe('ok');
      expect(f.portOther.message).toBe(`port ${port} on 0.0.0.0 / :: is in use by another program: stop it, or choose another port (kikoplay config set listenPort N, or serve --port N)`);
      expect(f.dataDirOpen).toMatchObject({ status: 'warning', params: { path: dataDir, mode: '0755' } });
      expect(f.secretFileOpen).toMatchObject({ status: 'warning', params: { file: path.join(dataDir, 'config.json'), mode: '0644' } });
      // the human form ends with the count and exits 1 too
      const human = await cliInProcess(['--data-dir', dataDir, 'doctor']);
      expect(human.code).toBe(1);
      expect(human.stdout).toMatch(/^ {2}problem {2}database {2}/m);
      expect(human.stdout.trimEnd().split('\n').at(-1)).toBe('3 problem(s), 2 warning(s)');
      expect(human.stderr).toBe('');
    } finally {
      busy.close();
    }
  });

  it('a bad config: invalid value and unknown key reported, exit 1', async () => {
    const dataDir = tempDir('kikoplay-doctor-config-');
    writeFileSync(path.join(dataDir, 'config.json'), JSON.stringify({ pageSize: 'lots', colour: 'blue' }), { mode: 0o600 });
    const { code, report } = await doctor(dataDir);
    expect(code).toBe(1);
    const f = keyed(report);
    expect(f.configInvalid.status).toBe('problem');
    expect(f.configInvalid.message).toContain('unknown config key(s): colour');
    expect(f.configInvalid.message).toContain('pageSize');
    expect(f.configInvalid.message).toMatch(/The server will not start/);
  });

  it('a database of a newer kikoplay: a problem, and the database is only read', async () => {
    const dataDir = tempDir('kikoplay-doctor-newer-');
    const file = path.join(dataDir, 'kikoplay.db');
    await (await Database.open(file)).close();
    const raw = await open({ filename: file, driver: sqlite3.Database });
    await raw.run("INSERT INTO migrations (id, name, up, down) VALUES (999, 'future', '', 'DROP TABLE users;')");
    await raw.close();
    const { code, report } = await doctor(dataDir);
    expect(code).toBe(1);
    expect(keyed(report).migrationsNewer).toMatchObject({ status: 'problem', params: { migrations: '999-future' } });
    const check = await open({ filename: file, driver: sqlite3.Database, mode: sqlite3.OPEN_READONLY });
    expect(await check.get("SELECT name FROM sqlite_master WHERE name = 'users'")).toBeDefined();
    await check.close();
  });

  it('free disk space: a warning below the threshold, a problem when nearly full', () => {
    const dir = tempDir();
    expect(checkDisk(dir, { warnBytes: Infinity, problemBytes: 0 })[0]).toMatchObject({ status: 'warning', key: 'diskLow' });
    expect(checkDisk(dir, { warnBytes: Infinity, problemBytes: Infinity })[0]).toMatchObject({ status: 'problem', key: 'diskFull' });
    expect(checkDisk(dir, { warnBytes: 0, problemBytes: 0 })[0]).toMatchObject({ status: 'ok', key: 'diskOk' });
  });
});

// no server of this file runs here: the unprivileged user could not reach its data dir
describe('kikoplay doctor on a data dir it cannot use', () => {
  it('a data dir this user cannot write, or that is a file: a problem naming it', async () => {
    const dataDir = tempDir('kikoplay-doctor-ro-');
    const { code, report } = await withoutWriteAccess([dataDir], () => doctor(dataDir));
    expect(code).toBe(1);
    expect(keyed(report).dataDirNoAccess).toMatchObject({ status: 'problem', params: { path: dataDir, code: 'EACCES' } });
    expect(keyed(report).dataDirNoAccess.message).toContain('(permission denied)');

    const file = path.join(tempDir('kikoplay-doctor-file-'), 'data');
    writeFileSync(file, 'x');
    const asFile = await doctor(file);
    expect(asFile.code).toBe(1);
    expect(keyed(asFile.report).dataDirNotFolder.status).toBe('problem');
  });
});
