/**
 * The kikoeru installation an import reads: its database opened READ-ONLY (SQLite OPEN_READONLY, so not
 * even a journal is written), its config.json and its lyric and cover folders, only ever read. Before
 * anything is read the file is checked: a SQLite file, kikoeru's tables, and the schema of kikoeru 0.6.7
 * (the 19 migrations in `knex_migrations`, the last ones being 20221231013326 and after, and every
 * column the import reads). Anything else is refused with the reason, nothing read further.
 */
import { closeSync, openSync, readSync, readFileSync, statSync } from 'node:fs';
import sqlite3 from 'sqlite3';
import { open, type Database as SqliteDb } from 'sqlite';

/** The migration an older install stops before (its upgrade to 0.6.7 fails there). */
export const KIKOERU_KEY_MIGRATION = '20221231013326';
/** How many migrations kikoeru 0.6.7 has run. */
export const KIKOERU_MIGRATION_COUNT = 19;

/** The columns the import reads, per table. */
const REQUIRED: Record<string, string[]> = {
  t_work: [
    'id',
    'created_at',
    'updated_at',
    'root_folder',
    'dir',
    'title',
    'circle_id',
    'nsfw',
    'release',
    'dl_count',
    'price',
    'review_count',
    'rate_count',
    'rate_average_2dp',
    'rate_count_detail',
    'rank',
    'lyric_status',
    'memo',
  ],
  t_circle: ['id', 'name'],
  t_tag: ['id', 'name'],
  t_va: ['id', 'name'],
  r_tag_work: ['tag_id', 'work_id'],
  r_va_work: ['va_id', 'work_id'],
  t_user: ['name', 'password', 'group'],
  t_review: ['user_name', 'work_id', 'rating', 'review_text', 'progress', 'created_at', 'updated_at'],
  t_play_histroy: ['user_name', 'work_id', 'state', 'created_at', 'updated_at'],
  t_translate_task: ['id', 'work_id', 'audio_path', 'status', 'worker_name', 'worker_status', 'created_at', 'updated_at'],
};

export type RefusalReason = 'unreadable' | 'not-sqlite' | 'not-kikoeru' | 'old-schema' | 'newer-schema' | 'missing-columns' | 'bad-config' | 'bad-folder' | 'scan-busy';

/** The import cannot start: nothing was changed. `details` name what was found. */
export class KikoeruImportRefused extends Error {
  constructor(
    readonly reason: RefusalReason,
    message: string,
    readonly details: Record<string, string | number> = {},
  ) {
    super(message);
  }
}

/** What the schema check found. */
export interface KikoeruSchema {
  migrations: number;
  lastMigration: string;
}

export interface KikoeruConfig {
  md5secret: string | null;
  version: string | null;
  rootFolders: { name: string; path: string }[];
  lyricFolderDir: string | null;
  coverFolderDir: string | null;
}

export interface KikoeruWorkRow {
  id: number;
  created_at: string | null;
  updated_at: string | null;
  root_folder: string;
  dir: string;
  title: string;
  circle_id: number;
  nsfw: number | null;
  release: string | null;
  dl_count: number | null;
  price: number | null;
  review_count: number | null;
  rate_count: number | null;
  rate_average_2dp: number | null;
  rate_count_detail: string | null;
  rank: string | null;
  lyric_status: string | null;
  memo: string | null;
}

export interface KikoeruData {
  circles: Map<number, string>;
  tags: Map<number, string>;
  vas: Map<string, string>;
  works: KikoeruWorkRow[];
  workTags: Map<number, number[]>;
  workVas: Map<number, string[]>;
  users: { name: string; password: string; group: string }[];
  reviews: { user_name: string; work_id: string; rating: number | null; review_text: string | null; progress: string | null; created_at: string | null; updated_at: string | null }[];
  history: { user_name: string; work_id: number; state: string | null; created_at: string | null; updated_at: string | null }[];
  tasks: { id: number; work_id: number; audio_path: string; status: number; worker_name: string | null; worker_status: string | null; created_at: string | null; updated_at: string | null }[];
}

/** `details.code` of an `unreadable` refusal: the system's code (ENOENT, EACCES …), or NOT_A_FILE. */
export const NOT_A_FILE = 'not-a-file';
const errCode = (err: unknown) => (err as NodeJS.ErrnoException).code ?? 'EIO';

/** Whether the file starts with SQLite's header. */
function isSqliteFile(file: string): boolean {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(16);
    const n = readSync(fd, head, 0, 16, 0);
    return n === 16 && head.toString('latin1') === 'SQLite format 3\u0000';
  } finally {
    closeSync(fd);
  }
}

/** Open the database read-only after checking it is a SQLite file; refused otherwise. */
export async function openKikoeruDb(file: string): Promise<SqliteDb> {
  let st;
  try {
    st = statSync(file);
  } catch (err) {
    throw new KikoeruImportRefused('unreadable', `无法读取 ${file}: ${(err as Error).message}`, { file, code: errCode(err) });
  }
  if (!st.isFile()) throw new KikoeruImportRefused('unreadable', `${file} 不是文件`, { file, code: NOT_A_FILE });
  let sqlite: boolean;
  try {
    sqlite = isSqliteFile(file);
  } catch (err) {
    throw new KikoeruImportRefused('unreadable', `无法读取 ${file}: ${(err as Error).message}`, { file, code: errCode(err) });
  }
  if (!sqlite) throw new KikoeruImportRefused('not-sqlite', `${file} 不是 SQLite 数据库，更不是 kikoeru 的数据库`, { file });
  const db = await open({ filename: file, driver: sqlite3.Database, mode: sqlite3.OPEN_READONLY });
  await db.exec('PRAGMA query_only = ON');
  return db;
}

/** Check the schema: kikoeru's, at 0.6.7. Throws KikoeruImportRefused naming what was found. */
export async function checkKikoeruSchema(db: SqliteDb, file: string): Promise<KikoeruSchema> {
  let objects: { name: string; type: string }[];
  try {
    objects = await db.all<{ name: string; type: string }[]>("SELECT name, type FROM sqlite_master WHERE type IN ('table', 'view')");
  } catch (err) {
    throw new KikoeruImportRefused('not-sqlite', `${file} 无法作为 SQLite 数据库读取: ${(err as Error).message}`, { file });
  }
  const names = new Set(objects.map((o) => o.name));
  const kikoeruTables = ['knex_migrations', 't_work', 't_user'];
  const absent = kikoeruTables.filter((t) => !names.has(t));
  if (absent.length) {
    throw new KikoeruImportRefused('not-kikoeru', `${file} 不是 kikoeru 的数据库（缺少表 ${absent.join(', ')}）`, { file, missing: absent.join(', ') });
  }
  const rows = await db.all<{ name: string }[]>('SELECT name FROM knex_migrations ORDER BY name');
  const migrations = rows.map((r) => String(r.name));
  const lastMigration = migrations[migrations.length - 1] ?? '';
  const schema = { migrations: migrations.length, lastMigration };
  if (!migrations.some((m) => m.startsWith(KIKOERU_KEY_MIGRATION))) {
    throw new KikoeruImportRefused(
      'old-schema',
      `这是较旧的 kikoeru 数据库：${migrations.length} 个迁移，最后一个是 ${lastMigration || '(无)'}；只能导入 kikoeru 0.6.7 的数据库（${KIKOERU_MIGRATION_COUNT} 个迁移，包括 ${KIKOERU_KEY_MIGRATION}）。请先让 kikoeru 完成升级到 0.6.7。`,
      { file, migrations: migrations.length, last: lastMigration, expected: KIKOERU_MIGRATION_COUNT, key: KIKOERU_KEY_MIGRATION },
    );
  }
  if (migrations.length > KIKOERU_MIGRATION_COUNT) {
    throw new KikoeruImportRefused(
      'newer-schema',
      `这个 kikoeru 数据库的结构比 0.6.7 更新：${migrations.length} 个迁移，最后一个是 ${lastMigration}；只能导入 kikoeru 0.6.7 的数据库（${KIKOERU_MIGRATION_COUNT} 个迁移）。`,
      { file, migrations: migrations.length, last: lastMigration, expected: KIKOERU_MIGRATION_COUNT, key: KIKOERU_KEY_MIGRATION },
    );
  }
  const missing: string[] = [];
  for (const [table, cols] of Object.entries(REQUIRED)) {
    if (!names.has(table)) {
      missing.push(table);
      continue;
    }
    const have = new Set((await db.all<{ name: string }[]>(`SELECT name FROM pragma_table_info('${table}')`)).map((c) => c.name));
    for (const c of cols) if (!have.has(c)) missing.push(`${table}.${c}`);
  }
  if (missing.length) {
    throw new KikoeruImportRefused('missing-columns', `kikoeru 数据库（${migrations.length} 个迁移，最后一个是 ${lastMigration}）缺少导入需要的表或列: ${missing.join(', ')}`, {
      file,
      migrations: migrations.length,
      last: lastMigration,
      missing: missing.join(', '),
    });
  }
  return schema;
}

/** Read every row the import maps (one query per table; a 0.6.7 database of thousands of works is small). */
export async function readKikoeruData(db: SqliteDb): Promise<KikoeruData> {
  const circles = new Map((await db.all<{ id: number; name: string }[]>('SELECT id, name FROM t_circle')).map((r) => [Number(r.id), String(r.name ?? '')]));
  const tags = new Map((await db.all<{ id: number; name: string }[]>('SELECT id, name FROM t_tag')).map((r) => [Number(r.id), String(r.name ?? '')]));
  const vas = new Map((await db.all<{ id: string; name: string }[]>('SELECT id, name FROM t_va')).map((r) => [String(r.id), String(r.name ?? '')]));
  const works = await db.all<KikoeruWorkRow[]>(
    `SELECT id, created_at, updated_at, root_folder, dir, title, circle_id, nsfw, release, dl_count, price, review_count, rate_count,
            rate_average_2dp, rate_count_detail, rank, lyric_status, memo FROM t_work ORDER BY id`,
  );
  const workTags = new Map<number, number[]>();
  for (const r of await db.all<{ tag_id: number; work_id: number }[]>('SELECT tag_id, work_id FROM r_tag_work ORDER BY work_id, rowid')) {
    const list = workTags.get(Number(r.work_id)) ?? [];
    list.push(Number(r.tag_id));
    workTags.set(Number(r.work_id), list);
  }
  const workVas = new Map<number, string[]>();
  for (const r of await db.all<{ va_id: string; work_id: number }[]>('SELECT va_id, work_id FROM r_va_work ORDER BY work_id, rowid')) {
    const list = workVas.get(Number(r.work_id)) ?? [];
    list.push(String(r.va_id));
    workVas.set(Number(r.work_id), list);
  }
  const users = await db.all<KikoeruData['users']>('SELECT name, password, "group" AS "group" FROM t_user ORDER BY name');
  const reviews = await db.all<KikoeruData['reviews']>('SELECT user_name, work_id, rating, review_text, progress, created_at, updated_at FROM t_review ORDER BY user_name, work_id');
  const history = await db.all<KikoeruData['history']>('SELECT user_name, work_id, state, created_at, updated_at FROM t_play_histroy ORDER BY user_name, work_id');
  const tasks = await db.all<KikoeruData['tasks']>('SELECT id, work_id, audio_path, status, worker_name, worker_status, created_at, updated_at FROM t_translate_task ORDER BY id');
  return { circles, tags, vas, works, workTags, workVas, users, reviews, history, tasks };
}

/** kikoeru's config.json (only read). Refused when it is not JSON. */
export function readKikoeruConfig(file: string): KikoeruConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new KikoeruImportRefused('bad-config', `无法读取 kikoeru 配置 ${file}: ${(err as Error).message}`, { file });
  }
  if (!raw || typeof raw !== 'object') throw new KikoeruImportRefused('bad-config', `kikoeru 配置 ${file} 不是 JSON 对象`, { file });
  const c = raw as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' && v ? v : null);
  const roots = Array.isArray(c.rootFolders)
    ? c.rootFolders.filter(
        (r): r is { name: string; path: string } => !!r && typeof r === 'object' && typeof (r as { name?: unknown }).name === 'string' && typeof (r as { path?: unknown }).path === 'string',
      )
    : [];
  return {
    md5secret: str(c.md5secret),
    version: str(c.version),
    rootFolders: roots.map((r) => ({ name: r.name, path: r.path })),
    lyricFolderDir: str(c.lyricFolderDir),
    coverFolderDir: str(c.coverFolderDir),
  };
}
