/**
 * Backup and restore of a data dir (README.md#backup-and-restore).
 *
 * A backup is one tar.gz (backup-archive.ts), mode 0600 since it holds secrets:
 *   kikoplay-backup.json   what it is: format, format version, kikoplay version, migration level, time
 *   kikoplay.db            a consistent copy of the database taken while the server runs (VACUUM INTO)
 *   config.json            as stored, when there is one
 *   jwt-secret             the key that signs logins and media links, when there is one
 *   subsonic-key           the key the Subsonic passwords are sealed with, when there is one
 *   covers/…               the cover folder, with --covers
 *   manifest.json          the same facts as the first member plus the size and SHA-256 of every member
 *
 * A restore reads the whole file once writing nothing (every check a file can fail), then takes the data
 * dir for itself (refused while any kikoplay process uses it), unpacks into a folder inside it, checks
 * the database (`PRAGMA integrity_check`, its migration level) and only then moves the files into
 * place; what they replace (with --force) is kept in `<data-dir>/replaced-<time>/`.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  cpSync,
  createWriteStream,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  type WriteStream,
} from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import { configPath, resolvePaths } from '../../config/load.js';
import { configSchema, validatePartial, type Config } from '../../config/schema.js';
import { ensureDir, statFolder } from '../../config/ensure-dir.js';
import { databaseFiles, ensurePrivateDir, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../config/private-files.js';
import { DataDirLock, inUseLockFile } from '../../db/data-dir-lock.js';
import { FileLock } from '../../db/file-lock.js';
import { inspectDatabase, knownMigrationLevel, snapshotDatabase } from '../../db/snapshot.js';
import { osLockFile, readLock } from '../../library/scan/scan-lock.js';
import { ArchiveError, ArchiveWriter, readArchive, type MemberSink, type MemberSum } from './backup-archive.js';
import { BackupError } from './backup-errors.js';

export const BACKUP_FORMAT = 'kikoplay-backup';
export const BACKUP_FORMAT_VERSION = 1;
const MARKER = 'kikoplay-backup.json';
const MANIFEST = 'manifest.json';
const DB_MEMBER = 'kikoplay.db';
const SECRET = 'jwt-secret';
/** The key the Subsonic passwords are sealed with (without it they cannot be read back). */
const SUBSONIC_KEY = 'subsonic-key';
const CONFIG = 'config.json';
const COVERS = 'covers/';

/** The first member and the facts of the manifest. */
export interface BackupHead {
  format: typeof BACKUP_FORMAT;
  formatVersion: number;
  kikoplayVersion: string;
  migrationLevel: number;
  createdAt: string;
  covers: boolean;
}

export interface BackupManifest extends BackupHead {
  members: MemberSum[];
}

export interface BackupResult {
  file: string;
  size: number;
  createdAt: string;
  kikoplayVersion: string;
  migrationLevel: number;
  /** Cover files in the backup (0 without --covers). */
  covers: number;
}

export interface RestoreResult {
  dataDir: string;
  dbFile: string;
  /** When the backup was taken, the kikoplay that took it, its migration level. */
  createdAt: string;
  kikoplayVersion: string;
  migrationLevel: number;
  covers: number;
  /** Where the files the restore replaced were kept (--force), else null. */
  replacedDir: string | null;
}

const json = (value: unknown) => Buffer.from(JSON.stringify(value, null, 2) + '\n');

/** Every regular file under `dir` as [path relative with '/', absolute path] (symbolic links are left out). */
function filesUnder(dir: string, rel = ''): [string, string][] {
  const out: [string, string][] = [];
  let entries;
  try {
    entries = readdirSync(path.join(dir, rel), { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...filesUnder(dir, r));
    else if (e.isFile()) out.push([r, path.join(dir, r)]);
  }
  return out;
}

/**
 * Take a backup of the data dir into `file` (refused when it exists). The database is copied on a
 * connection of its own, so a running server goes on reading and writing meanwhile.
 */
export async function createBackup(opts: { dataDir: string; config: Config; file: string; covers: boolean; version: string; now?: Date }): Promise<BackupResult> {
  const paths = resolvePaths(opts.dataDir, opts.config);
  if (!statFolder(paths.dbFile)?.isFile()) throw new BackupError({ key: 'noDatabase', file: paths.dbFile });
  const out = path.resolve(opts.file);
  if (existsSync(out)) throw new BackupError({ key: 'targetExists', file: out });
  ensureDir(path.dirname(out), PRIVATE_DIR_MODE);
  const tag = `${process.pid}.${randomBytes(4).toString('hex')}`;
  const tmpDb = path.join(path.dirname(out), `.${path.basename(out)}.${tag}.db`);
  const tmpOut = path.join(path.dirname(out), `.${path.basename(out)}.${tag}.partial`);
  const createdAt = (opts.now ?? new Date()).toISOString();
  let writer: ArchiveWriter | null = null;
  try {
    const migrationLevel = await snapshotDatabase(paths.dbFile, tmpDb, opts.config.dbBusyTimeout);
    const head: BackupHead = { format: BACKUP_FORMAT, formatVersion: BACKUP_FORMAT_VERSION, kikoplayVersion: opts.version, migrationLevel, createdAt, covers: opts.covers };
    writer = new ArchiveWriter(tmpOut, PRIVATE_FILE_MODE);
    const at = new Date(createdAt);
    await writer.addBuffer(MARKER, json(head), at);
    const members: MemberSum[] = [await writer.addFile(DB_MEMBER, tmpDb, statSync(tmpDb).size, at)];
    for (const [name, file] of [
      [CONFIG, configPath(opts.dataDir)],
      [SECRET, path.join(opts.dataDir, SECRET)],
      [SUBSONIC_KEY, path.join(opts.dataDir, SUBSONIC_KEY)],
    ] as const) {
      if (existsSync(file)) members.push(await writer.addBuffer(name, readFileSync(file), at));
    }
    let covers = 0;
    if (opts.covers) {
      for (const [rel, file] of filesUnder(paths.coverDir)) {
        const st = statSync(file, { throwIfNoEntry: false });
        if (!st) continue; // removed meanwhile
        members.push(await writer.addFile(COVERS + rel, file, st.size, st.mtime));
        covers++;
      }
    }
    const manifest: BackupManifest = { ...head, members };
    await writer.addBuffer(MANIFEST, json(manifest), at);
    await writer.finish();
    writer = null;
    // a new name only: never replaces a file made meanwhile
    try {
      linkSync(tmpOut, out);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new BackupError({ key: 'targetExists', file: out });
      throw err;
    }
    return { file: out, size: statSync(out).size, createdAt, kikoplayVersion: opts.version, migrationLevel, covers };
  } finally {
    await writer?.abort();
    rmSync(tmpDb, { force: true });
    rmSync(tmpOut, { force: true });
  }
}

/** Is `name` one a backup may hold (no way out of the folder it is unpacked into)? */
function allowedMember(name: string): boolean {
  if (name === DB_MEMBER || name === CONFIG || name === SECRET || name === SUBSONIC_KEY) return true;
  if (!name.startsWith(COVERS)) return false;
  const rel = name.slice(COVERS.length);
  return rel.length > 0 && !rel.includes('\\') && !rel.includes('\0') && rel.split('/').every((seg) => seg !== '' && seg !== '.' && seg !== '..');
}

function parseHead(file: string, bytes: Buffer): BackupHead {
  let head: Partial<BackupHead>;
  try {
    head = JSON.parse(bytes.toString('utf8')) as Partial<BackupHead>;
  } catch {
    throw new BackupError({ key: 'notBackup', file, detail: `${MARKER} is not JSON` });
  }
  if (head.format !== BACKUP_FORMAT || typeof head.formatVersion !== 'number' || typeof head.migrationLevel !== 'number')
    throw new BackupError({ key: 'notBackup', file, detail: `${MARKER} does not describe a kikoplay backup` });
  if (head.formatVersion > BACKUP_FORMAT_VERSION) throw new BackupError({ key: 'newerFormat', file, version: head.formatVersion });
  const known = knownMigrationLevel();
  if (head.migrationLevel > known) throw new BackupError({ key: 'newerMigration', file, level: head.migrationLevel, known });
  return head as BackupHead;
}

/** Collects a small member in memory. */
class BufferSink implements MemberSink {
  private parts: Buffer[] = [];
  constructor(private readonly limit: number) {}
  write(chunk: Buffer) {
    this.parts.push(Buffer.from(chunk));
    if (this.parts.reduce((n, p) => n + p.length, 0) > this.limit) throw new ArchiveError('damaged', 'a description member is too large');
  }
  end() {}
  bytes() {
    return Buffer.concat(this.parts);
  }
}

/** Hashes a member, and writes it into `file` when one is given. */
class FileSink implements MemberSink {
  private readonly hash = createHash('sha256');
  private size = 0;
  private out: WriteStream | null = null;
  /** The bytes, kept in memory for a small member (config.json) read without unpacking. */
  readonly kept: Buffer[] | null;
  constructor(
    readonly name: string,
    file: string | null,
    keep = false,
  ) {
    this.kept = keep ? [] : null;
    if (file) {
      ensureDir(path.dirname(file), PRIVATE_DIR_MODE);
      this.out = createWriteStream(file, { flags: 'wx', mode: PRIVATE_FILE_MODE });
    }
  }
  async write(chunk: Buffer) {
    this.hash.update(chunk);
    this.size += chunk.length;
    if (this.kept && this.size <= 1024 * 1024) this.kept.push(Buffer.from(chunk));
    if (this.out && !this.out.write(chunk)) await once(this.out, 'drain');
  }
  async end() {
    if (this.out) {
      this.out.end();
      await once(this.out, 'close');
    }
  }
  sum(): MemberSum {
    return { name: this.name, size: this.size, sha256: this.hash.digest('hex') };
  }
}

/**
 * Read a backup through, checking everything the file itself can tell: what it is, that it is complete,
 * every member against the manifest. With `into`, the members are written under that folder.
 */
async function readBackup(file: string, into: string | null): Promise<{ manifest: BackupManifest; config: Buffer | null }> {
  const st = statSync(file, { throwIfNoEntry: false });
  if (!st?.isFile()) throw new BackupError({ key: 'notBackup', file, detail: 'no such file' });
  const magic = Buffer.alloc(2);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, magic, 0, 2, 0);
  } finally {
    closeSync(fd);
  }
  if (magic[0] !== 0x1f || magic[1] !== 0x8b) throw new BackupError({ key: 'notBackup', file, detail: 'not a gzip-compressed archive' });

  let head: BackupHead | null = null;
  let headSink: BufferSink | null = null;
  let manifestSink: BufferSink | null = null;
  const sinks: FileSink[] = [];
  const names = new Set<string>();
  try {
    await readArchive(file, (m) => {
      if (!head && !headSink) {
        if (m.name !== MARKER) throw new BackupError({ key: 'notBackup', file, detail: `it starts with ${m.name}` });
        headSink = new BufferSink(64 * 1024);
        return {
          write: (c) => headSink!.write(c),
          end: () => {
            head = parseHead(file, headSink!.bytes());
          },
        };
      }
      if (manifestSink) throw new BackupError({ key: 'damaged', file, detail: `${m.name} follows the manifest` });
      if (m.name === MANIFEST) return (manifestSink = new BufferSink(64 * 1024 * 1024));
      if (!allowedMember(m.name) || names.has(m.name)) throw new BackupError({ key: 'damaged', file, detail: `unexpected member ${m.name}` });
      names.add(m.name);
      const sink = new FileSink(m.name, into ? path.join(into, ...m.name.split('/')) : null, m.name === CONFIG);
      sinks.push(sink);
      return sink;
    });
  } catch (err) {
    await Promise.all(sinks.map((s) => s.end())).catch(() => undefined);
    if (err instanceof ArchiveError) {
      if (err.kind === 'foreign') throw new BackupError({ key: 'notBackup', file, detail: err.message });
      if (err.kind === 'truncated') throw new BackupError({ key: 'truncated', file });
      throw new BackupError({ key: 'damaged', file, detail: err.message });
    }
    throw err;
  }
  if (!head) throw new BackupError({ key: 'notBackup', file, detail: `it has no ${MARKER}` });
  if (!manifestSink) throw new BackupError({ key: 'truncated', file });
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse((manifestSink as BufferSink).bytes().toString('utf8')) as BackupManifest;
  } catch {
    throw new BackupError({ key: 'damaged', file, detail: `${MANIFEST} is not JSON` });
  }
  const h = head as BackupHead;
  if (!Array.isArray(manifest.members) || manifest.migrationLevel !== h.migrationLevel || manifest.formatVersion !== h.formatVersion)
    throw new BackupError({ key: 'damaged', file, detail: `${MANIFEST} does not match ${MARKER}` });
  const got = new Map(sinks.map((s) => [s.name, s.sum()]));
  if (manifest.members.length !== got.size) throw new BackupError({ key: 'damaged', file, detail: 'the members do not match the manifest' });
  for (const m of manifest.members) {
    const sum = got.get(m.name);
    if (!sum) throw new BackupError({ key: 'damaged', file, detail: `${m.name} is missing` });
    if (sum.size !== m.size || sum.sha256 !== m.sha256) throw new BackupError({ key: 'damaged', file, detail: `checksum of ${m.name} does not match` });
  }
  if (!got.has(DB_MEMBER)) throw new BackupError({ key: 'damaged', file, detail: `${DB_MEMBER} is missing` });
  const configSink = sinks.find((s) => s.name === CONFIG);
  return { manifest, config: configSink?.kept ? Buffer.concat(configSink.kept) : null };
}

/** Check a backup file through without unpacking it (what `restore` does first). */
export async function verifyBackup(file: string): Promise<BackupManifest> {
  return (await readBackup(path.resolve(file), null)).manifest;
}

/** Move a file or folder, across file systems too. */
function move(from: string, to: string): void {
  ensureDir(path.dirname(to), PRIVATE_DIR_MODE);
  try {
    renameSync(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    cpSync(from, to, { recursive: true, errorOnExist: true, force: false });
    rmSync(from, { recursive: true, force: true });
  }
}

const nonEmptyDir = (dir: string) => {
  try {
    return readdirSync(dir).length > 0;
  } catch {
    return false;
  }
};

/** The config a backup carries (defaults when it has none), refused when this kikoplay cannot use it. */
function backupConfig(bytes: Buffer | null): Config {
  if (!bytes) return configSchema.parse({});
  let raw: unknown;
  try {
    raw = JSON.parse(bytes.toString('utf8'));
  } catch (err) {
    throw new BackupError({ key: 'badConfig', detail: (err as Error).message });
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new BackupError({ key: 'badConfig', detail: 'not a JSON object' });
  const partial = validatePartial(raw as Record<string, unknown>);
  if (!partial.ok) throw new BackupError({ key: 'badConfig', detail: partial.message });
  const full = configSchema.safeParse(partial.data);
  if (!full.success) throw new BackupError({ key: 'badConfig', detail: full.error.message });
  return full.data;
}

/**
 * Fill a data dir from a backup. Refused, changing nothing, when the file is not a sound kikoplay backup
 * this version can read, while any kikoplay process uses the data dir, and — without `force` — when the
 * data dir already holds a database, config or key.
 */
export async function restoreBackup(opts: { dataDir: string; file: string; force: boolean; now?: Date }): Promise<RestoreResult> {
  const file = path.resolve(opts.file);
  const dataDir = path.resolve(opts.dataDir);
  // 1. the file, read through once with nothing written
  const { manifest, config: configBytes } = await readBackup(file, null);
  const config = backupConfig(configBytes);
  const paths = resolvePaths(dataDir, config);

  // 2. the data dir: nobody uses it, and (unless forced) nothing would be replaced
  const st = statSync(dataDir, { throwIfNoEntry: false });
  if (st && !st.isDirectory()) throw new BackupError({ key: 'notDirectory', path: dataDir });
  const existed = !!st;
  let lock = existed ? await DataDirLock.exclusive(dataDir, false) : null;
  if (existed && !lock) throw new BackupError({ key: 'inUse', dataDir });
  let stage: string | null = null;
  let created = false;
  let madeLockFile = false;
  try {
    if (existsSync(osLockFile(paths.lockFile)) && (await FileLock.isHeld(osLockFile(paths.lockFile)))) throw new BackupError({ key: 'scanRunning', dataDir, pid: readLock(paths.lockFile)?.pid ?? 0 });
    const covers = manifest.members.filter((m) => m.name.startsWith(COVERS)).length;
    const targets: [string, string][] = [
      [CONFIG, configPath(dataDir)],
      [SECRET, path.join(dataDir, SECRET)],
      [SUBSONIC_KEY, path.join(dataDir, SUBSONIC_KEY)],
      ['initial-admin-password', path.join(dataDir, 'initial-admin-password')],
      ...databaseFiles(paths.dbFile).map((f): [string, string] => [path.basename(f), f]),
    ];
    const found = targets.filter(([, f]) => existsSync(f));
    const coversFound = manifest.covers && nonEmptyDir(paths.coverDir);
    if ((found.length || coversFound) && !opts.force) throw new BackupError({ key: 'notEmpty', dataDir, found: [...found.map(([, f]) => f), ...(coversFound ? [paths.coverDir] : [])] });

    // 3. unpack inside the data dir (its own file system: the moves below are renames), check again
    if (!existed) {
      ensurePrivateDir(dataDir);
      created = true;
    }
    if (!lock?.held) {
      madeLockFile = !existsSync(inUseLockFile(dataDir));
      lock = await DataDirLock.exclusive(dataDir, true);
      if (!lock) throw new BackupError({ key: 'inUse', dataDir });
    }
    stage = mkdtempSync(path.join(dataDir, '.restore-'));
    await readBackup(file, stage);
    const report = await inspectDatabase(path.join(stage, DB_MEMBER));
    if (!report.isKikoplay) throw new BackupError({ key: 'notBackup', file, detail: `its ${DB_MEMBER} is not a kikoplay database` });
    if (report.integrity.length !== 1 || report.integrity[0] !== 'ok') throw new BackupError({ key: 'integrity', detail: report.integrity.slice(0, 5).join('; ') });
    const known = knownMigrationLevel();
    if (report.migrationLevel > known) throw new BackupError({ key: 'newerMigration', file, level: report.migrationLevel, known });

    // 4. every check passed: the old files aside, the new ones in
    let replacedDir: string | null = null;
    if (found.length || (manifest.covers && existsSync(paths.coverDir))) {
      replacedDir = path.join(
        dataDir,
        `replaced-${(opts.now ?? new Date())
          .toISOString()
          .replace(/\.\d{3}Z$/, 'Z')
          .replace(/:/g, '-')}`,
      );
      ensureDir(replacedDir, PRIVATE_DIR_MODE);
      for (const [name, f] of found) move(f, path.join(replacedDir, name));
      if (manifest.covers && existsSync(paths.coverDir)) move(paths.coverDir, path.join(replacedDir, 'covers'));
      // thumbnails of the covers replaced
      if (manifest.covers) rmSync(paths.thumbDir, { recursive: true, force: true });
      if (!found.length && !nonEmptyDir(replacedDir)) {
        rmSync(replacedDir, { recursive: true, force: true });
        replacedDir = null;
      }
    }
    move(path.join(stage, DB_MEMBER), paths.dbFile);
    for (const name of [CONFIG, SECRET, SUBSONIC_KEY]) if (existsSync(path.join(stage, name))) move(path.join(stage, name), path.join(dataDir, name));
    if (manifest.covers) {
      const staged = path.join(stage, 'covers');
      if (existsSync(staged)) move(staged, paths.coverDir);
      else mkdirSync(paths.coverDir, { recursive: true });
    }
    return { dataDir, dbFile: paths.dbFile, createdAt: manifest.createdAt, kikoplayVersion: manifest.kikoplayVersion, migrationLevel: manifest.migrationLevel, covers, replacedDir };
  } catch (err) {
    if (stage) rmSync(stage, { recursive: true, force: true });
    // a refused restore leaves the data dir as it found it
    if (madeLockFile && !created) rmSync(inUseLockFile(dataDir), { force: true });
    await lock?.release();
    lock = null;
    if (created) rmSync(dataDir, { recursive: true, force: true });
    throw err;
  } finally {
    if (stage) rmSync(stage, { recursive: true, force: true });
    await lock?.release();
  }
}
