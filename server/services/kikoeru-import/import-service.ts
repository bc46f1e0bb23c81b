/**
 * `kikoplay import kikoeru`: brings a kikoeru 0.6.7 installation's users, works' metadata, root folders,
 * covers, reviews, play history and AI lyric tasks into kikoplay.
 *
 * - The kikoeru files are only read: the database is opened read-only and checked first (source.ts);
 *   anything that is not a kikoeru 0.6.7 database is refused before kikoplay is touched.
 * - It holds the scan lock for its run, so it refuses while a scan runs and no scan starts meanwhile.
 * - Root folders come first (config), then every database row in ONE transaction (a dry run rolls it
 *   back), then the covers are copied. Each step compares before it writes: what kikoplay already has
 *   and is not older is left alone, so a second run changes nothing and a later run brings what is new.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { ConfigStore } from '../../config/config-store.js';
import { folderOnDiskProblem, pathKey, rootFolderProblems, type FolderIssue } from '../../config/folder-rules.js';
import { KikoeruImportRepo, importKey, type ImportWorkRow, type KikoeruImportWrites } from '../../db/repos/kikoeru-import-repo.js';
import type { Database } from '../../db/connection.js';
import { legacyKikoeruHash, LEGACY_KIKOERU_PREFIX, NO_PASSWORD_HASH } from '../../auth/password.js';
import { formatWorkCode } from '../../domain/work-code.js';
import { sqlNow } from '../../domain/time.js';
import { coverPath, removeCovers } from '../../media/covers.js';
import { COVER_TYPES } from '../../domain/work-metadata.js';
import { ScanBusyError, ScanLock } from '../../library/scan/scan-lock.js';
import { badRequest, conflict, forbidden } from '../../domain/errors.js';
import { isAdmin, type Actor } from '../../auth/roles.js';
import { checkKikoeruSchema, KIKOERU_MIGRATION_COUNT, KikoeruImportRefused, openKikoeruDb, readKikoeruConfig, readKikoeruData, type KikoeruConfig, type KikoeruData } from './source.js';
import { mapHistoryState, reviewFields, reviewWorkId, ROLE_OF_GROUP, sqlTime, workMetadata } from './mappers.js';

export const IMPORT_MSG = {
  forbidden: '只有 admin 账号能导入数据.',
  notAbsolute: (field: string) => `参数 ${field} 必须是服务器上的绝对路径`,
  notDatabase: '这不是 kikoeru 的数据库。未做任何修改。',
  schema: (migrations: number, last: string, expected: number) =>
    `这个 kikoeru 数据库有 ${migrations} 个迁移（最后一个是 ${last || '无'}）；只能导入 kikoeru 0.6.7（${expected} 个迁移）。未做任何修改。`,
  scanRunning: '正在扫描媒体库，请在扫描结束后再导入。未做任何修改。',
  badFolder: (field: string) => `参数 ${field} 必须是服务器上一个可读的文件夹。未做任何修改。`,
} as const;

/** The worker_status an import gives a finished kikoeru task whose lyric file it did not find. */
const lyricMissingStatus = (taskId: number) => `kikoeru lyric file ${taskId}.lrc not found`;

/** The folder options of an import, by the name the API and the terminal give them. */
const FOLDER_OPTIONS = ['lyrics', 'covers'] as const;

export type ImportPhase = 'check' | 'roots' | 'users' | 'works' | 'reviews' | 'history' | 'tasks' | 'covers';

export interface ImportProgress {
  phase: ImportPhase;
  done: number;
  total: number;
}

export interface KikoeruImportOptions {
  /** kikoeru's db.sqlite3. */
  db: string;
  /** kikoeru's config.json; default `<db folder>/../config/config.json` when it exists. */
  config?: string;
  /** kikoeru's lyric folder (`<task id>.lrc`); default its config's lyricFolderDir. */
  lyrics?: string;
  /** kikoeru's cover folder: covers are copied only when given. */
  covers?: string;
  dryRun?: boolean;
  onProgress?: (p: ImportProgress) => void;
}

export type SkipReason = 'work-unknown' | 'user-unknown' | 'empty-review' | 'bad-work-id' | 'bad-state' | 'bad-status' | 'location-taken' | 'metadata-edited' | 'metadata-kikoplay';

export interface SkippedItem {
  kind: 'user' | 'work' | 'review' | 'history' | 'task';
  key: string;
  reason: SkipReason;
}

/** Notes a kikoeru row left out, and why (counted always, listed up to `MAX_LISTED_SKIPS`). */
type Skip = (kind: SkippedItem['kind'], key: string, reason: SkipReason) => void;

export interface Counts {
  created: number;
  updated: number;
  unchanged: number;
}

export interface ImportSummary {
  dryRun: boolean;
  source: { db: string; config: string | null; version: string | null; migrations: number; lastMigration: string };
  users: Counts & { merged: string[]; needPassword: string[] };
  roots: {
    added: { name: string; path: string }[];
    /** Not reachable now: kept in imported_root_folders, their works marked missing. */
    unreachable: { name: string; path: string; problem: string; code: string }[];
    present: { name: string; as: string }[];
    /** Breaks a rule of root folders (`code`: the API error code of the rule, e.g. FOLDER_NESTED). */
    refused: { name: string; path: string; reason: string; code: string; params?: Record<string, string | number> }[];
    /** Named by works but in no config: their works are kept, marked missing. */
    unknown: { name: string; works: number }[];
  };
  works: Counts & { kept: number; missing: number; hidden: number };
  reviews: Counts;
  history: Counts & { tracksMapped: number; tracksKept: number };
  aiTasks: Counts & { lyrics: number; lyricsMissing: number };
  /** Works given kikoeru's cover; works whose cover kikoeru's folder lacks. */
  covers: { copied: number; absent: number };
  /** Why rows were left out, by reason. */
  skippedCounts: Partial<Record<SkipReason, number>>;
  /** The first skipped rows (at most 200), for the report. */
  skipped: SkippedItem[];
}

const MAX_LISTED_SKIPS = 200;

interface RootPlan {
  /** kikoeru's root name → the alias its works are stored under. */
  alias: Map<string, string>;
  /** kikoplay's root folders after the import. */
  roots: { name: string; path: string }[];
  toAdd: { name: string; path: string }[];
  unreachable: { name: string; path: string; problem: string }[];
}

/** Thrown inside the transaction of a dry run, so it rolls back. */
class DryRunRollback extends Error {}

const counts = (): Counts => ({ created: 0, updated: 0, unchanged: 0 });

/** A kikoeru row kept once per user and work (a review, a play history). */
interface UserWorkRow {
  user_name: string;
  work_id: string | number;
  created_at: string | null;
  updated_at: string | null;
}

/** The skip-list kind of a row of each phase. */
const ROW_KIND = { reviews: 'review', history: 'history' } as const satisfies Record<string, SkippedItem['kind']>;

interface UserWorkMerge<R extends UserWorkRow, V> {
  phase: keyof typeof ROW_KIND;
  users: Map<string, number>;
  works: Map<number, ImportWorkRow>;
  /** What kikoplay has: `importKey(user, work)` → updated_at. */
  stamps: Map<string, string>;
  counts: Counts;
  skip: Skip;
  now: string;
  progress: (p: ImportProgress) => void;
  /** The row's work id, null when it is not one. */
  workId: (row: R) => number | null;
  /** What the row brings, or why it is left out. */
  prepare: (row: R) => { ok: V } | { skip: SkipReason };
  write: (value: V, at: { userId: number; workId: number; createdAt: string; updatedAt: string }) => Promise<void>;
}

/**
 * Reviews and play histories: a row naming an unknown user or work, or one `prepare` refuses, is
 * skipped (in that order); one not newer than what kikoplay has for that user and work is left alone;
 * the rest are written and counted as created or updated.
 */
async function mergeUserWorkRows<R extends UserWorkRow, V>(rows: readonly R[], m: UserWorkMerge<R, V>): Promise<void> {
  const total = rows.length;
  const kind = ROW_KIND[m.phase];
  for (const [i, row] of rows.entries()) {
    if (i % 500 === 0) m.progress({ phase: m.phase, done: i, total });
    const label = `${row.user_name}/${row.work_id}`;
    const userId = m.users.get(String(row.user_name));
    const workId = m.workId(row);
    if (userId === undefined) m.skip(kind, label, 'user-unknown');
    else if (workId === null) m.skip(kind, label, 'bad-work-id');
    else if (!m.works.has(workId)) m.skip(kind, label, 'work-unknown');
    else {
      const prepared = m.prepare(row);
      if ('skip' in prepared) {
        m.skip(kind, label, prepared.skip);
        continue;
      }
      const updatedAt = sqlTime(row.updated_at, m.now);
      const have = m.stamps.get(importKey(userId, workId));
      if (have !== undefined && have >= updatedAt) {
        m.counts.unchanged++;
        continue;
      }
      await m.write(prepared.ok, { userId, workId, createdAt: sqlTime(row.created_at, updatedAt), updatedAt });
      m.counts[have === undefined ? 'created' : 'updated']++;
    }
  }
  m.progress({ phase: m.phase, done: total, total });
}

export class KikoeruImportService {
  private readonly repo: KikoeruImportRepo;

  constructor(
    db: Database,
    private readonly store: ConfigStore,
  ) {
    this.repo = new KikoeruImportRepo(db);
  }

  /**
   * POST /api/admin/import/kikoeru: the same import from paths on the server, for an admin. A refused
   * source answers 400 (KIKOERU_NOT_DATABASE / KIKOERU_SCHEMA) or 409 (SCAN_RUNNING), nothing changed;
   * the answer never repeats the paths sent.
   */
  async runAs(actor: Actor, input: { db: string; config?: string; lyrics?: string; covers?: string; dryRun?: boolean }): Promise<ImportSummary> {
    if (!isAdmin(actor)) throw forbidden(IMPORT_MSG.forbidden, { code: 'ADMIN_ONLY' });
    for (const field of ['db', 'config', 'lyrics', 'covers'] as const) {
      const value = input[field];
      if (value !== undefined && !path.isAbsolute(value)) throw badRequest(IMPORT_MSG.notAbsolute(field), { code: 'FIELD_INVALID', field });
    }
    try {
      return await this.run(input);
    } catch (err) {
      if (!(err instanceof KikoeruImportRefused)) throw err;
      const d = err.details;
      switch (err.reason) {
        case 'scan-busy':
          throw conflict(IMPORT_MSG.scanRunning, { code: 'SCAN_RUNNING' });
        case 'bad-folder': {
          // the field and the kind of problem, never the path that was sent
          const field = String(d.field);
          throw badRequest(IMPORT_MSG.badFolder(field), { code: d.code as FolderIssue['code'], field });
        }
        case 'old-schema':
        case 'newer-schema':
        case 'missing-columns': {
          const params = { migrations: Number(d.migrations ?? 0), last: String(d.last ?? ''), expected: KIKOERU_MIGRATION_COUNT };
          throw badRequest(IMPORT_MSG.schema(params.migrations, params.last, params.expected), { code: 'KIKOERU_SCHEMA', params });
        }
        default:
          throw badRequest(IMPORT_MSG.notDatabase, { code: 'KIKOERU_NOT_DATABASE' });
      }
    }
  }

  async run(opts: KikoeruImportOptions): Promise<ImportSummary> {
    const progress = opts.onProgress ?? (() => undefined);
    // a folder given that is not one would be read as empty: every finished lyric "missing", every cover absent
    for (const field of FOLDER_OPTIONS) {
      const given = opts[field];
      if (given === undefined) continue;
      const dir = path.resolve(given);
      const problem = folderOnDiskProblem(dir, 'read');
      if (problem) throw new KikoeruImportRefused('bad-folder', problem.message, { field, file: dir, code: problem.code });
    }
    progress({ phase: 'check', done: 0, total: 1 });
    const dbFile = path.resolve(opts.db);
    const source = await openKikoeruDb(dbFile);
    let data: KikoeruData;
    let schema;
    try {
      schema = await checkKikoeruSchema(source, dbFile);
      data = await readKikoeruData(source);
    } finally {
      await source.close();
    }
    const configFile = opts.config ? path.resolve(opts.config) : defaultConfigFile(dbFile);
    const config: KikoeruConfig = configFile ? readKikoeruConfig(configFile) : { md5secret: null, version: null, rootFolders: [], lyricFolderDir: null, coverFolderDir: null };
    progress({ phase: 'check', done: 1, total: 1 });

    const lock = new ScanLock(this.store.paths().lockFile);
    try {
      await lock.acquire('import');
    } catch (err) {
      if (err instanceof ScanBusyError) {
        throw new KikoeruImportRefused('scan-busy', err.message, { pid: err.holder.pid, kind: err.holder.kind });
      }
      throw err;
    }
    try {
      return await this.importLocked(opts, data, config, { db: dbFile, config: configFile, version: config.version, migrations: schema.migrations, lastMigration: schema.lastMigration }, progress);
    } finally {
      await lock.release();
    }
  }

  private async importLocked(opts: KikoeruImportOptions, data: KikoeruData, config: KikoeruConfig, source: ImportSummary['source'], progress: (p: ImportProgress) => void): Promise<ImportSummary> {
    const dryRun = !!opts.dryRun;
    const summary: ImportSummary = {
      dryRun,
      source,
      users: { ...counts(), merged: [], needPassword: [] },
      roots: { added: [], unreachable: [], present: [], refused: [], unknown: [] },
      works: { ...counts(), kept: 0, missing: 0, hidden: 0 },
      reviews: counts(),
      history: { ...counts(), tracksMapped: 0, tracksKept: 0 },
      aiTasks: { ...counts(), lyrics: 0, lyricsMissing: 0 },
      covers: { copied: 0, absent: 0 },
      skippedCounts: {},
      skipped: [],
    };
    const skip: Skip = (kind, key, reason) => {
      summary.skippedCounts[reason] = (summary.skippedCounts[reason] ?? 0) + 1;
      if (summary.skipped.length < MAX_LISTED_SKIPS) summary.skipped.push({ kind, key, reason });
    };

    // 1. root folders (config): kikoeru's name → the kikoplay alias its works are stored under
    progress({ phase: 'roots', done: 0, total: config.rootFolders.length });
    const plan = this.planRoots(config, data, summary);
    if (plan.toAdd.length && !dryRun) this.store.update({ rootFolders: plan.roots });
    progress({ phase: 'roots', done: config.rootFolders.length, total: config.rootFolders.length });
    const rootPaths = new Map(plan.roots.map((r) => [r.name, r.path]));

    const lyricDir = opts.lyrics ? path.resolve(opts.lyrics) : config.lyricFolderDir;
    const now = sqlNow();
    const coverCandidates: number[] = [];

    // 2. every row, in one transaction
    try {
      await this.repo.tx(async (w) => {
        const pending = await w.pendingRoots();
        for (const r of plan.toAdd) if (pending.has(r.name)) await w.dropPendingRoot(r.name);
        for (const r of plan.unreachable) {
          const have = pending.get(r.name);
          if (!have || have.path !== r.path) await w.putPendingRoot(r.name, r.path, r.problem);
        }
        const users = await this.importUsers(w, data, config, summary, skip, progress);
        const works = await this.importWorks(w, data, plan.alias, rootPaths, summary, skip, now, progress);
        for (const row of data.works) {
          const k = works.get(row.id);
          if (k && (k.cover_source === null || k.cover_source === 'local')) coverCandidates.push(row.id);
        }
        const perUserWork = { users, works, skip, now, progress };
        await mergeUserWorkRows<KikoeruData['reviews'][number], NonNullable<ReturnType<typeof reviewFields>>>(data.reviews, {
          ...perUserWork,
          phase: 'reviews',
          stamps: await w.reviewStamps(),
          counts: summary.reviews,
          workId: (r) => reviewWorkId(String(r.work_id)),
          prepare: (r) => {
            const fields = reviewFields(r);
            return fields ? { ok: fields } : { skip: 'empty-review' };
          },
          write: (fields, at) => w.putReview({ ...at, ...fields }),
        });
        const files = await w.fileNumbers();
        await mergeUserWorkRows<KikoeruData['history'][number], string>(data.history, {
          ...perUserWork,
          phase: 'history',
          stamps: await w.historyStamps(),
          counts: summary.history,
          workId: (h) => {
            const id = Number(h.work_id);
            return Number.isInteger(id) ? id : null;
          },
          prepare: (h) => (typeof h.state === 'string' && isJson(h.state) ? { ok: h.state } : { skip: 'bad-state' }),
          write: async (state, at) => {
            const mapped = mapHistoryState(state, (id) => files.get(id));
            summary.history.tracksMapped += mapped.mapped;
            summary.history.tracksKept += mapped.unmapped;
            await w.putHistory(at.userId, at.workId, mapped.state, at.createdAt, at.updatedAt);
          },
        });
        await this.importTasks(w, data, works, lyricDir, summary, skip, now, progress);
        await w.finish();
        if (dryRun) throw new DryRunRollback();
      });
    } catch (err) {
      if (!(err instanceof DryRunRollback)) throw err;
    }

    // 3. covers (files first, then the works say where their cover came from)
    if (opts.covers) await this.importCovers(path.resolve(opts.covers), coverCandidates, summary, dryRun, now, progress);
    return summary;
  }

  /**
   * kikoeru's root folders: one kikoplay has at the same path is used under its alias; a reachable one
   * kikoplay lacks is added to the configuration (by its rules); an unreachable one cannot be (the
   * configuration takes only folders that exist), so it is kept in imported_root_folders and its works
   * are marked missing under its name, until a later import finds it reachable and adds it.
   */
  private planRoots(config: KikoeruConfig, data: KikoeruData, summary: ImportSummary): RootPlan {
    const alias = new Map<string, string>();
    const roots = [...this.store.get().rootFolders];
    const toAdd: { name: string; path: string }[] = [];
    const unreachable: { name: string; path: string; problem: string }[] = [];
    for (const r of config.rootFolders) {
      const name = r.name.trim();
      const dir = r.path.trim();
      const samePath = roots.find((k) => k.path && dir && pathKey(k.path) === pathKey(dir));
      if (samePath) {
        alias.set(r.name, samePath.name);
        summary.roots.present.push({ name: r.name, as: samePath.name });
        continue;
      }
      const problem = rootFolderProblems([...roots, { name, path: dir }]).find((p) => p.at[0] === roots.length);
      if (problem) {
        summary.roots.refused.push({ name: r.name, path: r.path, reason: problem.message, code: problem.code, params: problem.params });
        continue;
      }
      const entry = { name, path: path.resolve(dir) };
      alias.set(r.name, name);
      const disk = folderOnDiskProblem(entry.path, 'read');
      if (disk) {
        unreachable.push({ ...entry, problem: disk.message });
        summary.roots.unreachable.push({ ...entry, problem: disk.message, code: disk.code });
        continue;
      }
      roots.push(entry);
      toAdd.push(entry);
      summary.roots.added.push(entry);
    }
    const known = new Set(config.rootFolders.map((r) => r.name));
    const unknown = new Map<string, number>();
    for (const w of data.works) if (!known.has(w.root_folder)) unknown.set(w.root_folder, (unknown.get(w.root_folder) ?? 0) + 1);
    for (const [name, works] of unknown) summary.roots.unknown.push({ name, works });
    return { alias, roots, toAdd, unreachable };
  }

  private async importUsers(w: KikoeruImportWrites, data: KikoeruData, config: KikoeruConfig, summary: ImportSummary, skip: Skip, progress: (p: ImportProgress) => void): Promise<Map<string, number>> {
    const existing = await w.users();
    const ids = new Map<string, number>();
    const secret = config.md5secret;
    const defaultHash = secret ? md5(`admin${secret}`) : null;
    for (const [i, u] of data.users.entries()) {
      const name = String(u.name);
      const stored = String(u.password ?? '').toLowerCase();
      // the default admin/admin, an unknown salt or a malformed hash: no usable password until an admin sets one
      const usable = !!secret && /^[0-9a-f]{32}$/.test(stored) && stored !== defaultHash;
      const hash = usable ? legacyKikoeruHash(stored, secret) : NO_PASSWORD_HASH;
      const have = existing.get(name);
      if (have) {
        ids.set(name, have.id);
        // a kikoplay account keeps its password; an imported one that never logged in follows kikoeru's
        const imported = have.password_hash === NO_PASSWORD_HASH || have.password_hash.startsWith(`${LEGACY_KIKOERU_PREFIX}$`);
        if (imported && have.password_hash !== hash) {
          await w.replaceLegacyHash(have.id, have.password_hash, hash, !usable);
          summary.users.updated++;
        } else {
          summary.users.unchanged++;
        }
        if (!imported) summary.users.merged.push(name);
        if (imported && !usable) summary.users.needPassword.push(name);
      } else {
        const role = ROLE_OF_GROUP[String(u.group)];
        if (!role) {
          skip('user', name, 'user-unknown');
          continue;
        }
        ids.set(name, await w.createUser(name, hash, role, !usable));
        summary.users.created++;
        if (!usable) summary.users.needPassword.push(name);
      }
      if (i % 100 === 0) progress({ phase: 'users', done: i, total: data.users.length });
    }
    progress({ phase: 'users', done: data.users.length, total: data.users.length });
    return ids;
  }

  private async importWorks(
    w: KikoeruImportWrites,
    data: KikoeruData,
    rootAlias: Map<string, string>,
    rootPaths: Map<string, string>,
    summary: ImportSummary,
    skip: Skip,
    now: string,
    progress: (p: ImportProgress) => void,
  ): Promise<Map<number, ImportWorkRow>> {
    const works = await w.works();
    const total = data.works.length;
    for (const [i, row] of data.works.entries()) {
      if (i % 100 === 0) progress({ phase: 'works', done: i, total });
      const id = Number(row.id);
      const md = workMetadata(row, data, now);
      if (!md.vas.length) summary.works.hidden++;
      const have = works.get(id);
      if (have) {
        let edited: unknown[] = [];
        try {
          edited = JSON.parse(have.edited_fields) as unknown[];
        } catch {
          edited = [];
        }
        if (Array.isArray(edited) && edited.length) {
          summary.works.kept++;
          skip('work', formatWorkCode(id), 'metadata-edited');
        } else if (have.metadata_status === 'ok' && have.metadata_source !== 'kikoeru') {
          summary.works.kept++;
          skip('work', formatWorkCode(id), 'metadata-kikoplay');
        } else if (have.metadata_status === 'ok' && (have.metadata_updated_at ?? '') >= md.sourceUpdatedAt) {
          summary.works.unchanged++;
        } else {
          await w.updateWorkMetadata(id, md, have.circle_id);
          summary.works.updated++;
        }
        continue;
      }
      const alias = rootAlias.get(row.root_folder) ?? row.root_folder;
      const dir = String(row.dir ?? '')
        .replace(/\\/g, '/')
        .replace(/^\/+|\/+$/g, '');
      const rootPath = rootPaths.get(alias);
      const missing = !rootPath || !isDirectory(path.join(rootPath, ...dir.split('/')));
      if (await w.locationTaken(alias, dir)) {
        skip('work', formatWorkCode(id), 'location-taken');
        continue;
      }
      await w.insertWork({ ...md, id, code: formatWorkCode(id), rootFolder: alias, dir, missing, createdAt: sqlTime(row.created_at, now), now });
      works.set(id, {
        id,
        root_folder: alias,
        dir,
        missing: missing ? 1 : 0,
        cover_source: null,
        metadata_status: 'ok',
        metadata_source: 'kikoeru',
        metadata_updated_at: md.sourceUpdatedAt,
        edited_fields: '[]',
        circle_id: md.circle.id,
      });
      summary.works.created++;
      if (missing) summary.works.missing++;
    }
    progress({ phase: 'works', done: total, total });
    return works;
  }

  private async importTasks(
    w: KikoeruImportWrites,
    data: KikoeruData,
    works: Map<number, ImportWorkRow>,
    lyricDir: string | null,
    summary: ImportSummary,
    skip: Skip,
    now: string,
    progress: (p: ImportProgress) => void,
  ): Promise<void> {
    const stamps = await w.taskStamps();
    const total = data.tasks.length;
    for (const [i, t] of data.tasks.entries()) {
      if (i % 500 === 0) progress({ phase: 'tasks', done: i, total });
      const workId = Number(t.work_id);
      const audioPath = String(t.audio_path ?? '').replace(/\\/g, '/');
      const label = `${t.id}`;
      const status = Number(t.status);
      if (!works.has(workId)) {
        skip('task', label, 'work-unknown');
        continue;
      }
      if (![1, 2, 3, 4].includes(status) || !audioPath) {
        skip('task', label, 'bad-status');
        continue;
      }
      const updatedAt = sqlTime(t.updated_at, now);
      const have = stamps.get(importKey(workId, audioPath));
      let lrc: string | null = null;
      if (have && have.updated_at >= updatedAt) {
        // an earlier import stored this finished task as failed because its lyric file was missing, and
        // kikoplay has not touched the row since (same status, text and time): repair it when the file is found now
        const storedAsMissing = status === 3 && have.status === 4 && !have.hasLrc && have.updated_at === updatedAt && have.worker_status === lyricMissingStatus(t.id);
        lrc = storedAsMissing ? readLyric(lyricDir, t.id) : null;
        if (lrc === null) {
          summary.aiTasks.unchanged++;
          continue;
        }
      }
      let finalStatus = status;
      let workerStatus = t.worker_status ?? '';
      if (status === 3) {
        lrc ??= readLyric(lyricDir, t.id);
        if (lrc === null) {
          // the result is gone: an error the admin can redo, not a success without lyrics
          finalStatus = 4;
          workerStatus = lyricMissingStatus(t.id);
          summary.aiTasks.lyricsMissing++;
        } else summary.aiTasks.lyrics++;
      }
      await w.putTask(
        {
          workId,
          audioPath,
          status: finalStatus,
          workerName: t.worker_name ?? '',
          workerStatus,
          lrc,
          // a task kikoeru's worker held has no lease here: expired at once, so the queue hands it out again
          leaseExpiresAt: finalStatus === 2 ? updatedAt : null,
          createdAt: sqlTime(t.created_at, updatedAt),
          updatedAt,
        },
        have ? have.id : null,
      );
      summary.aiTasks[have ? 'updated' : 'created']++;
    }
    progress({ phase: 'tasks', done: total, total });
  }

  private async importCovers(fromDir: string, ids: number[], summary: ImportSummary, dryRun: boolean, now: string, progress: (p: ImportProgress) => void): Promise<void> {
    const coverDir = this.store.paths().coverDir;
    const copied: number[] = [];
    for (const [i, id] of ids.entries()) {
      if (i % 100 === 0) progress({ phase: 'covers', done: i, total: ids.length });
      const code = formatWorkCode(id);
      const sources = COVER_TYPES.map((type) => ({ type, file: path.join(fromDir, `${code}_img_${type}.jpg`) })).filter((s) => existsSync(s.file));
      if (!sources.some((s) => s.type === 'main')) {
        summary.covers.absent++;
        continue;
      }
      if (!dryRun) {
        await removeCovers(coverDir, id);
        for (const s of sources) copyCover(s.file, coverPath(coverDir, id, s.type));
      }
      copied.push(id);
    }
    summary.covers.copied = copied.length;
    if (copied.length && !dryRun) await this.repo.tx((w) => w.setCoverSource(copied, now));
    progress({ phase: 'covers', done: ids.length, total: ids.length });
  }
}

/** Copy through a temporary file and a rename: a reader never sees half a cover. */
function copyCover(from: string, to: string): void {
  mkdirSync(path.dirname(to), { recursive: true });
  const tmp = `${to}.${process.pid}.tmp`;
  copyFileSync(from, tmp);
  renameSync(tmp, to);
}

const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The finished lyric of a kikoeru task, read as UTF-8 (a BOM dropped); null when absent. */
function readLyric(dir: string | null, id: number): string | null {
  if (!dir) return null;
  try {
    return readFileSync(path.join(dir, `${id}.lrc`), 'utf8').replace(/^\uFEFF/, '');
  } catch {
    return null;
  }
}

/** kikoeru keeps config/ beside the database's folder (sqlite/): `<db dir>/../config/config.json` when it exists. */
function defaultConfigFile(dbFile: string): string | null {
  const candidate = path.join(path.dirname(dbFile), '..', 'config', 'config.json');
  return existsSync(candidate) ? path.resolve(candidate) : null;
}
