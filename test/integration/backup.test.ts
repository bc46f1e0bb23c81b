/**
 * `kikoplay backup` and `kikoplay restore` on real data dirs: a backup taken while the server writes,
 * restored elsewhere; every refusal of restore leaving the target as it was; the scheduled backups
 * keeping only `backupKeep` files.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAppContext } from '../../server/app/create-app.js';
import { createLogger } from '../../server/app/logger.js';
import type { AppContext } from '../../server/app/services.js';
import { ConfigStore } from '../../server/config/config-store.js';
import { DataDirLock, DataDirRestoringError } from '../../server/db/data-dir-lock.js';
import { inspectDatabase, knownMigrationLevel } from '../../server/db/snapshot.js';
import { ScanLock } from '../../server/library/scan/scan-lock.js';
import { ArchiveWriter, readArchive } from '../../server/services/backup/backup-archive.js';
import { backupFileName } from '../../server/services/backup/backup-names.js';
import { runScheduledBackup, startBackupJob } from '../../server/jobs/backup-job.js';
import { startTestServer, tempDir, type TestServer } from '../helpers/app.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { seedWorks } from '../helpers/seed.js';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  while (open.length) await open.pop()!.close();
});

async function server(dataDir?: string): Promise<TestServer> {
  const t = await startTestServer({ dataDir });
  open.push(t);
  return t;
}

async function appOn(dataDir: string): Promise<AppContext> {
  const app = await createAppContext({ dataDir, env: {}, logger: createLogger({ level: 'silent' }) });
  open.push(app);
  return app;
}

/** Every file under `dir` with its bytes' hash and mode: what "untouched" compares. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!existsSync(dir)) return out;
  const walk = (rel: string) => {
    for (const e of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = path.join(rel, e.name);
      const full = path.join(dir, r);
      const mode = (statSync(full).mode & 0o777).toString(8);
      if (e.isDirectory()) {
        out[r + '/'] = mode;
        walk(r);
      } else out[r] = `${mode} ${createHash('sha256').update(readFileSync(full)).digest('hex')}`;
    }
  };
  walk('');
  return out;
}

const WORKS = 400;

/** A server with a library, a user and a stored config: the data dir a backup is taken of. */
async function populated(): Promise<{ t: TestServer; userId: number }> {
  const t = await server();
  await seedWorks(
    t.app.db,
    Array.from({ length: WORKS }, (_, i) => ({ id: 100000 + i, title: `作品 ${i} ${'説明'.repeat(40)}`, dir: `RJ${100000 + i}`, files: [{ path: 'track.flac', n: 1 }] })),
  );
  await t.addUser('listener', 'listener-pass-1', 'user');
  t.app.store.update({ pageSize: 20 });
  const user = await t.app.repos.users.byName('listener');
  return { t, userId: user!.id };
}

async function backupOf(dataDir: string, file: string, extra: string[] = []): Promise<{ file: string; size: number; migrationLevel: number }> {
  const r = await cliInProcess(['--lang', 'en', '--data-dir', dataDir, 'backup', file, '--json', ...extra]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as { file: string; size: number; migrationLevel: number };
}

const restore = (dataDir: string, file: string, ...extra: string[]) => cliInProcess(['--lang', 'en', '--data-dir', dataDir, 'restore', file, ...extra]);

describe('kikoplay backup while the server writes', () => {
  it('holds every write acknowledged before it began; the restored database passes the integrity check', async () => {
    const { t, userId } = await populated();
    const actor = { id: userId, name: 'listener', role: 'user' as const };
    const token = await t.login('listener', 'listener-pass-1');

    // the write loop: reviews of ever new works (inserts) and the rating of one work rewritten (updates)
    const acked = new Map<number, number>(); // work → the last sequence number acknowledged
    let seq = 0;
    let stop = false;
    let startedAt = -1;
    let endedAt = -1;
    const loop = (async () => {
      while (!stop) {
        const n = seq++;
        const work = 100000 + (n % WORKS);
        await t.app.services.userData.putReview(actor, 'full', { work_id: work, rating: (n % 5) + 1, review_text: `seq ${n}` });
        await t.app.services.userData.putHistory(actor, { work_id: work, state: { queue: [], index: 0, seconds: n } });
        acked.set(work, n);
      }
    })();
    while (seq < 50) await new Promise((r) => setTimeout(r, 5));

    const file = path.join(tempDir(), 'during-writes.tar.gz');
    const before = new Map(acked);
    startedAt = seq;
    const made = await backupOf(t.dataDir, file);
    endedAt = seq;
    stop = true;
    await loop;
    // the loop went on writing while the backup ran
    expect(endedAt).toBeGreaterThan(startedAt);
    expect(made.file).toBe(file);
    expect(made.size).toBe(statSync(file).size);
    expect(made.migrationLevel).toBe(knownMigrationLevel());
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const target = path.join(tempDir(), 'restored');
    const r = await restore(target, file);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`restored ${file} into ${target}`);

    expect((await inspectDatabase(path.join(target, 'kikoplay.db'))).integrity).toEqual(['ok']);
    for (const name of ['config.json', 'jwt-secret']) {
      expect(readFileSync(path.join(target, name))).toEqual(readFileSync(path.join(t.dataDir, name)));
      expect(statSync(path.join(target, name)).mode & 0o777).toBe(0o600);
    }
    const restored = await appOn(target);
    expect(restored.store.get().pageSize).toBe(20);
    for (const [work, n] of before) {
      const review = await restored.services.userData.review(actor, work);
      expect(review, `review of ${work}`).toBeDefined();
      // the acknowledged write, or one acknowledged after it
      expect(Number(/^seq (\d+)$/.exec(review!.review_text ?? '')?.[1])).toBeGreaterThanOrEqual(n);
    }
    await restored.close();
    open.pop();

    // a login signed by the original server is good on the restored one: the signing key came along
    const copy = await server(target);
    const me = await copy.json('GET', '/api/auth/me', { token });
    expect(me.status).toBe(200);
  });

  it('takes the covers with --covers and names the file by the time in the current folder by default', async () => {
    const t = await server();
    const covers = path.join(t.dataDir, 'covers');
    mkdirSync(path.join(covers, 'sub'), { recursive: true });
    writeFileSync(path.join(covers, 'RJ100001_img_main.jpg'), 'jpeg bytes');
    writeFileSync(path.join(covers, 'sub', 'deeper.jpg'), 'more bytes');
    const cwd = tempDir();
    const was = process.cwd();
    process.chdir(cwd);
    try {
      const r = await cliInProcess(['--lang', 'en', '--data-dir', t.dataDir, 'backup', '--covers']);
      expect(r.code).toBe(0);
      const [name] = readdirSync(cwd);
      expect(name).toMatch(/^kikoplay-backup-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z\.tar\.gz$/);
      expect(r.stdout).toContain(`backup written: ${path.join(cwd, name!)}`);
      expect(r.stdout).toContain('0600');
      const target = path.join(tempDir(), 'with-covers');
      expect((await restore(target, path.join(cwd, name!), '--json')).code).toBe(0);
      expect(readFileSync(path.join(target, 'covers', 'sub', 'deeper.jpg'), 'utf8')).toBe('more bytes');
      expect(readFileSync(path.join(target, 'covers', 'RJ100001_img_main.jpg'), 'utf8')).toBe('jpeg bytes');
    } finally {
      process.chdir(was);
    }
  });
});

/** Rewrite a backup member by member; `edit` may change a member's bytes (name → bytes). */
async function rewrite(src: string, dest: string, edit: (name: string, bytes: Buffer) => Buffer): Promise<void> {
  const members: [string, Buffer][] = [];
  await readArchive(src, (m) => {
    const parts: Buffer[] = [];
    return { write: (c) => void parts.push(Buffer.from(c)), end: () => void members.push([m.name, edit(m.name, Buffer.concat(parts))]) };
  });
  const w = new ArchiveWriter(dest, 0o600);
  for (const [name, bytes] of members) await w.addBuffer(name, bytes);
  await w.finish();
}

describe('kikoplay restore refuses, changing nothing', () => {
  let good = '';
  let stopped = '';

  async function fixtures(): Promise<void> {
    if (good) return;
    stopped = tempDir();
    const t = await server(stopped);
    good = path.join(tempDir(), 'good.tar.gz');
    await backupOf(t.dataDir, good);
    await t.close();
    open.pop();
  }

  async function refused(target: string, file: string, expected: RegExp, ...extra: string[]): Promise<void> {
    const before = tree(target);
    const r = await restore(target, file, ...extra);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(expected);
    expect(tree(target)).toEqual(before);
  }

  it('while a server uses the data dir', async () => {
    await fixtures();
    const t = await server();
    await refused(t.dataDir, good, /is in use by a running kikoplay/, '--force');
  });

  it('while a scan holds the scan lock', async () => {
    await fixtures();
    const lock = new ScanLock(path.join(stopped, 'scan.lock'));
    await lock.acquire('scan');
    try {
      await refused(stopped, good, new RegExp(`a scan is running on the data dir .* \\(pid ${process.pid}\\)`), '--force');
    } finally {
      await lock.release();
    }
  });

  it('into a data dir that holds a database, unless --force (which keeps the old files aside)', async () => {
    await fixtures();
    await refused(stopped, good, /already holds .*kikoplay\.db.*--force/);
    const oldDb = readFileSync(path.join(stopped, 'kikoplay.db'));
    const r = await restore(stopped, good, '--force', '--json');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { replacedDir: string };
    expect(readFileSync(path.join(out.replacedDir, 'kikoplay.db'))).toEqual(oldDb);
    expect((await inspectDatabase(path.join(stopped, 'kikoplay.db'))).integrity).toEqual(['ok']);
  });

  it('a truncated file, a damaged member, a foreign file, a newer migration level', async () => {
    await fixtures();
    const dir = tempDir();
    const targets = [path.join(tempDir(), 'absent'), tempDir()];
    writeFileSync(path.join(targets[1]!, 'notes.txt'), 'mine');

    const truncated = path.join(dir, 'truncated.tar.gz');
    writeFileSync(truncated, readFileSync(good));
    truncateSync(truncated, Math.floor(statSync(good).size / 2));

    // one byte of the database changed: the tar and gzip are sound, the member's checksum is not
    const damaged = path.join(dir, 'damaged.tar.gz');
    const tar = gunzipSync(readFileSync(good));
    const at = tar.indexOf(Buffer.from('SQLite format 3')) + 2000;
    tar[at] = tar[at]! ^ 0xff;
    writeFileSync(damaged, gzipSync(tar));

    const text = path.join(dir, 'notes.tar.gz');
    writeFileSync(text, 'just some text\n');
    const otherTar = path.join(dir, 'other.tar.gz');
    const w = new ArchiveWriter(otherTar, 0o600);
    await w.addBuffer('README', Buffer.from('another program'));
    await w.finish();

    const newer = path.join(dir, 'newer.tar.gz');
    const level = knownMigrationLevel() + 1;
    await rewrite(good, newer, (name, bytes) => {
      if (name !== 'kikoplay-backup.json' && name !== 'manifest.json') return bytes;
      return Buffer.from(JSON.stringify({ ...JSON.parse(bytes.toString('utf8')), migrationLevel: level }));
    });

    for (const target of targets) {
      await refused(target, truncated, /is incomplete \(truncated\); nothing was changed/);
      await refused(target, damaged, /is damaged \(checksum of kikoplay\.db does not match\)/);
      await refused(target, text, /is not a kikoplay backup \(not a gzip-compressed archive\)/);
      await refused(target, otherTar, /is not a kikoplay backup \(it starts with README\)/);
      await refused(target, newer, new RegExp(`migration level ${level}, newer than this kikoplay knows`));
    }
    expect(existsSync(targets[0]!)).toBe(false);
  });

  it('a restore in progress keeps a server from opening the data dir', async () => {
    const dataDir = tempDir();
    const lock = await DataDirLock.exclusive(dataDir, true);
    try {
      await expect(createAppContext({ dataDir, env: {}, logger: createLogger({ level: 'silent' }) })).rejects.toBeInstanceOf(DataDirRestoringError);
    } finally {
      await lock!.release();
    }
  });
});

describe('scheduled backups (backupCron)', () => {
  it('write into backupDir and keep only the newest backupKeep, leaving other files alone', async () => {
    const dataDir = tempDir();
    const app = await appOn(dataDir);
    const dir = path.join(tempDir(), 'backups');
    app.store.update({ backupKeep: 3, backupDir: dir, backupCron: '0 3 * * *' });
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'notes.txt'), 'mine');
    writeFileSync(path.join(dir, 'kikoplay-backup-manual.tar.gz'), 'mine too');

    const store = new ConfigStore(dataDir, {}, {});
    const day = (d: number) => new Date(Date.UTC(2026, 0, d, 3, 0, 0));
    for (let d = 1; d <= 5; d++) {
      const { backup, removed } = await runScheduledBackup(store, day(d));
      expect(backup.file).toBe(path.join(dir, backupFileName(day(d))));
      if (d > 3) expect(removed).toEqual([backupFileName(day(d - 3))]);
    }
    expect(readdirSync(dir).sort()).toEqual([backupFileName(day(3)), backupFileName(day(4)), backupFileName(day(5)), 'kikoplay-backup-manual.tar.gz', 'notes.txt'].sort());
    expect(backupFileName(day(5))).toBe('kikoplay-backup-2026-01-05T03-00-00Z.tar.gz');
  });

  it('are scheduled while backupCron is set, and off when it is emptied', async () => {
    const app = await appOn(tempDir());
    app.store.update({ backupCron: '30 3 * * *' });
    const job = startBackupJob({ store: app.store, logger: createLogger({ level: 'silent' }) });
    try {
      const next = job.nextBackup();
      expect(next).toBeInstanceOf(Date);
      expect([next!.getHours(), next!.getMinutes()]).toEqual([3, 30]);
      app.store.update({ backupCron: '' });
      expect(job.nextBackup()).toBeNull();
      // an expression the scheduler cannot run is refused when written (config schema), nothing scheduled
      expect(() => app.store.update({ backupCron: 'not a cron' })).toThrow(/backupCron: /);
      expect(job.nextBackup()).toBeNull();
    } finally {
      job.stop();
    }
  });

  it('default to <data-dir>/backups, 7 kept', async () => {
    const dataDir = tempDir();
    const app = await appOn(dataDir);
    expect(app.store.get().backupKeep).toBe(7);
    expect(app.store.paths().backupDir).toBe(path.join(dataDir, 'backups'));
    const { backup } = await runScheduledBackup(app.store, new Date(Date.UTC(2026, 1, 1)));
    expect(path.dirname(backup.file)).toBe(path.join(dataDir, 'backups'));
  });
});
