/**
 * A kikoeru 0.6.7 installation built from the facts of what one holds (tables after its 19 migrations,
 * config/config.json with md5secret, the lyric folder with `<task id>.lrc`, the cover folder), at a given
 * size and with the edge cases a real one has: rating-only / progress-only / text-only reviews, emoji,
 * CRLF, NFD and long texts, nested work folders, root folder names that are unreachable or no longer
 * configured, works without voice actors (kikoeru hides them), a tag name under two ids, the default
 * `admin`/`admin`, 8-digit RJ ids, empty releases and null ranks. Also an installation stuck before
 * the 20221231013326 migration, and a SQLite file that is not kikoeru's.
 *
 * Used by the import tests and by scripts/gen-kikoeru.ts (the benchmark's database).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sqlite3 from 'sqlite3';
import { open } from 'sqlite';
import { v5 as uuidv5 } from 'uuid';
import { compareListPaths } from '../../server/domain/natural-sort.js';

export const KIKOERU_VA_NAMESPACE = '699d9c07-b965-4399-bafd-18a3cacf073c';

/** The 19 migrations of kikoeru 0.6.7 as `knex_migrations` lists them (only the 20221231013326 name is a known fact). */
export const KIKOERU_MIGRATIONS = [
  '20210206141840_initial.js',
  '20210213233544_fill_userrate_updatetime.js',
  '20210223220106_add_t_playlist.js',
  '20210304011310_add_circle_name.js',
  '20210307061415_drop_work_created_at.js',
  '20210502081522_add_rate_count_detail.js',
  '20210525112033_add_work_release_index.js',
  '20210613234014_add_va_id_index.js',
  '20210716151015_add_play_history.js',
  '20210820020711_add_work_memo.js',
  '20211001193818_add_review_progress_index.js',
  '20211125010304_add_tag_index.js',
  '20220106000814_add_lyric_status.js',
  '20220301202201_add_work_rank.js',
  '20220503222012_add_nsfw_index.js',
  '20220725004106_add_translate_task.js',
  '20221015170508_add_translate_task_worker.js',
  '20221231013326_fix_review_work_id.js',
  '20230104205337_add_translate_task_secret.js',
] as const;

const SCHEMA = `
CREATE TABLE knex_migrations (id integer not null primary key autoincrement, name varchar(255), batch integer, migration_time datetime);
CREATE TABLE knex_migrations_lock ("index" integer not null primary key autoincrement, is_locked integer);
CREATE TABLE t_circle (id integer not null, name varchar(255) not null, primary key (id));
CREATE TABLE t_work (
  id integer not null, created_at datetime, updated_at datetime,
  root_folder varchar(255) not null, dir varchar(255) not null, title varchar(255) not null,
  circle_id integer not null, nsfw boolean, release varchar(255),
  dl_count integer, price integer, review_count integer, rate_count integer, rate_average_2dp float,
  rate_count_detail text, rank text, lyric_status varchar(255) default '', memo text,
  foreign key(circle_id) references t_circle(id), primary key (id));
CREATE TABLE t_tag (id integer not null, name varchar(255) not null, primary key (id));
CREATE TABLE t_va (id varchar(255) not null, name varchar(255) not null, primary key (id));
CREATE TABLE r_tag_work (tag_id integer not null, work_id integer not null,
  foreign key(tag_id) references t_tag(id), foreign key(work_id) references t_work(id), primary key (tag_id, work_id));
CREATE TABLE r_va_work (va_id varchar(255) not null, work_id integer not null,
  foreign key(va_id) references t_va(id) on update cascade on delete cascade,
  foreign key(work_id) references t_work(id) on update cascade on delete cascade, primary key (va_id, work_id));
CREATE TABLE t_user (name varchar(255) not null, password varchar(255) not null, "group" varchar(255) not null, primary key (name));
CREATE TABLE t_review (user_name varchar(255) not null, work_id text not null, rating integer, review_text text,
  progress varchar(255), created_at datetime default CURRENT_TIMESTAMP, updated_at datetime default CURRENT_TIMESTAMP,
  foreign key(user_name) references t_user(name) on update cascade on delete cascade,
  primary key (user_name, work_id));
CREATE TABLE t_play_histroy (user_name varchar(255) not null, work_id integer not null, state text,
  created_at datetime default CURRENT_TIMESTAMP, updated_at datetime default CURRENT_TIMESTAMP,
  foreign key(user_name) references t_user(name) on update cascade on delete cascade,
  primary key (user_name, work_id));
CREATE TABLE t_translate_task (id integer not null primary key autoincrement, work_id integer not null,
  audio_path text not null, status integer not null, worker_name varchar(255), worker_status text, secret varchar(255),
  created_at datetime default CURRENT_TIMESTAMP, updated_at datetime default CURRENT_TIMESTAMP);
CREATE VIEW staticMetadata AS
SELECT t_work.*, json_object('id', t_work.circle_id, 'name', t_circle.name) AS circleObj,
  (SELECT json_group_array(json_object('id', t_tag.id, 'name', t_tag.name)) FROM r_tag_work JOIN t_tag ON t_tag.id = r_tag_work.tag_id WHERE r_tag_work.work_id = t_work.id) AS tagObj,
  json_group_array(json_object('id', t_va.id, 'name', t_va.name)) AS vaObj
FROM t_work JOIN t_circle ON t_circle.id = t_work.circle_id
JOIN r_va_work ON r_va_work.work_id = t_work.id JOIN t_va ON t_va.id = r_va_work.va_id
GROUP BY t_work.id;
`;

export interface KikoeruUser {
  name: string;
  password: string;
  group: 'administrator' | 'user' | 'guest';
}

export interface KikoeruWorkFact {
  id: number;
  code: string;
  rootFolder: string;
  dir: string;
  title: string;
  circle: { id: number; name: string };
  tags: { id: number; name: string }[];
  vas: { id: string; name: string }[];
  nsfw: boolean;
  release: string;
  dlCount: number;
  price: number;
  reviewCount: number;
  rateCount: number;
  rateAverage: number;
  rateCountDetail: { review_point: number; count: number; ratio: number }[];
  rank: { term: string; category: string; rank: number; rank_date: string }[] | null;
  lyricStatus: '' | 'local' | 'ai' | 'ai_local';
  /** Audio files in kikoeru's listing order, with durations (seconds) and times (ms). */
  files: { path: string; duration: number; mtime: number }[];
  createdAt: string;
  updatedAt: string;
}

export interface KikoeruReviewFact {
  user: string;
  workId: number;
  rating: number | null;
  text: string | null;
  progress: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface KikoeruHistoryFact {
  user: string;
  workId: number;
  state: { queue: { hash: string; title: string; workTitle: string }[]; index: number; seconds: number; volume: number };
  createdAt: string;
  updatedAt: string;
}

export interface KikoeruTaskFact {
  id: number;
  workId: number;
  audioPath: string;
  status: 1 | 2 | 3 | 4;
  workerName: string | null;
  workerStatus: string | null;
  lrc: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface KikoeruFixture {
  /** The installation's folder (config/, db/, lyrics/, covers/). */
  dir: string;
  dbFile: string;
  configFile: string;
  lyricDir: string;
  coverDir: string;
  md5secret: string;
  /** Root folders as config.json lists them; `reachable` ones exist on disk. */
  roots: { name: string; path: string; reachable: boolean }[];
  users: KikoeruUser[];
  works: KikoeruWorkFact[];
  reviews: KikoeruReviewFact[];
  history: KikoeruHistoryFact[];
  tasks: KikoeruTaskFact[];
}

export interface KikoeruFixtureOptions {
  dir: string;
  /** Number of works (default 20). */
  works?: number;
  /** Extra users beyond the fixed ones (default 0). */
  extraUsers?: number;
  /** Write the work folders of the reachable root with small audio and lyric files (default true below 200 works). */
  folders?: boolean;
  /** `old`: stuck before the 20221231013326 migration. */
  schema?: 'current' | 'old';
  seed?: number;
}

/** kikoeru's password hash: lowercase hex md5 of UTF-8(password + md5secret). */
export const kikoeruHash = (password: string, secret: string) =>
  createHash('md5')
    .update(password + secret, 'utf8')
    .digest('hex');

/** The display code of an RJ id: 6 digits, or 8 from 1,000,000 on. */
export const rjCode = (id: number) => 'RJ' + String(id).padStart(id >= 1e6 ? 8 : 6, '0');

function prng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 0x100000000;
  };
}

const pad = (n: number) => String(n).padStart(2, '0');
/** UTC `YYYY-MM-DD HH:MM:SS`. */
const stamp = (ms: number) => {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
};

/** Fixed users: the untouched default admin, a changed admin, users and a guest with non-ASCII passwords. */
const FIXED_USERS: KikoeruUser[] = [
  { name: 'admin', password: 'admin', group: 'administrator' },
  { name: 'alice', password: 'alice-pässwörd', group: 'administrator' },
  { name: 'bobby', password: 'パスワード123', group: 'user' },
  { name: 'guest', password: 'guest', group: 'guest' },
  { name: 'carol', password: 'carol 秘密 🎧', group: 'user' },
];

const REVIEW_TEXTS = [
  'とても癒される 🎧✨ 最高でした',
  'line one\r\nline two\r\n\r\nline four',
  // NFD: か + combining dakuten, e + combining acute
  'か\u3099んは\u3099って cafe\u0301',
  'long '.repeat(80) + '— the end',
  '好き',
];

/** Build a kikoeru installation under `opts.dir`. */
export async function buildKikoeruFixture(opts: KikoeruFixtureOptions): Promise<KikoeruFixture> {
  const n = opts.works ?? 20;
  const rand = prng(opts.seed ?? 24);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
  const dir = opts.dir;
  const folders = opts.folders ?? n < 200;
  const configDir = path.join(dir, 'config');
  const dbDir = path.join(dir, 'sqlite');
  const lyricDir = path.join(dir, 'lyrics');
  const coverDir = path.join(dir, 'covers');
  const libDir = path.join(dir, 'library');
  for (const d of [configDir, dbDir, lyricDir, coverDir, libDir]) mkdirSync(d, { recursive: true });
  const md5secret = createHash('sha256')
    .update(`md5-${opts.seed ?? 24}`)
    .digest('hex');
  const jwtsecret = createHash('sha256')
    .update(`jwt-${opts.seed ?? 24}`)
    .digest('hex');
  const roots = [
    { name: 'main', path: libDir, reachable: true },
    { name: 'offline-disk', path: path.join(dir, 'unplugged-drive'), reachable: false },
  ];
  // works also name a root that is no longer in config ('old-nas')
  const rootNames = ['main', 'main', 'main', 'offline-disk', 'old-nas'];
  const config = {
    version: '0.6.7',
    production: true,
    maxParallelism: 16,
    rootFolders: roots.map((r) => ({ name: r.name, path: r.path })),
    coverFolderDir: coverDir,
    databaseFolderDir: dbDir,
    lyricFolderDir: lyricDir,
    voiceWorkDefaultPath: libDir,
    auth: true,
    md5secret,
    jwtsecret,
    expiresIn: 2592000,
    scannerMaxRecursionDepth: 3,
    pageSize: 12,
    tagLanguage: 'zh-cn',
    retry: 5,
    dynamicMetadataDebounce: 500,
    rewindSeekTime: 5,
    forwardSeekTime: 30,
    httpsEnabled: false,
    httpsPrivateKey: 'kikoeru.key',
    httpsCert: 'kikoeru.crt',
    httpsPort: 8443,
  };
  const configFile = path.join(configDir, 'config.json');
  writeFileSync(configFile, JSON.stringify(config, null, 2));

  const users: KikoeruUser[] = [...FIXED_USERS];
  for (let i = 0; i < (opts.extraUsers ?? 0); i++) users.push({ name: `listener${i}`, password: `pw-${i}-${Math.floor(rand() * 1e9)}`, group: 'user' });

  const circles = Array.from({ length: Math.max(3, Math.ceil(n / 10)) }, (_, i) => ({ id: 10000 + i * 7, name: i === 1 ? 'サークル🌸' : `Circle ${i}` }));
  const tags = Array.from({ length: 30 }, (_, i) => ({ id: 100 + i, name: ['治愈', 'ASMR', '耳舐め', 'バイノーラル', 'Slice of life'][i % 5] + (i >= 5 ? ` ${i}` : '') }));
  // the same name under a second id (another scan's language or a DLsite renumbering)
  tags.push({ id: 9100, name: tags[0].name });
  const vaNames = Array.from({ length: Math.max(4, Math.ceil(n / 5)) }, (_, i) => (i === 0 ? '花澤さくら' : i === 1 ? 'Ｍｉｎａ　Ｍ' : `VA Name ${i}`));
  const vas = vaNames.map((name) => ({ id: uuidv5(name, KIKOERU_VA_NAMESPACE), name }));

  const base = Date.UTC(2022, 0, 1);
  const works: KikoeruWorkFact[] = [];
  for (let i = 0; i < n; i++) {
    // every third id is an 8-digit one
    const id = i % 3 === 2 ? 1_000_000 + i * 13 + 7 : 100_000 + i * 17 + 3;
    const code = rjCode(id);
    const rootFolder = i < 5 ? 'main' : pick(rootNames);
    const nested = i % 4 === 1;
    const dirName = `${code} ${i % 2 ? '作品' : 'Work'} ${i}`;
    // nested below the root (within the scanners' default depth of 2)
    const workDir = nested ? `Circle ${i % 3}/${dirName}` : dirName;
    const fileCount = 2 + (i % 3);
    const files = Array.from({ length: fileCount }, (_, k) => ({
      path: k === fileCount - 1 && i % 2 ? `SE/track${k + 1}.mp3` : `track${k + 1}.mp3`,
      duration: Math.round((60 + rand() * 1800) * 1000) / 1000,
      mtime: base + i * 1000 + k,
    })).sort((a, b) => compareListPaths(a.path, b.path));
    const created = base + i * 3_600_000;
    const rateCount = Math.floor(rand() * 500);
    const detail = [1, 2, 3, 4, 5].map((p) => ({ review_point: p, count: Math.floor(rateCount / 5), ratio: 20 }));
    works.push({
      id,
      code,
      rootFolder,
      dir: workDir,
      title: i === 0 ? '【耳かき】癒やしの時間 🌙 — "quotes" & <tags>' : `Title ${i} タイトル`,
      circle: circles[i % circles.length],
      tags: i % 6 === 0 ? [tags[0], tags[30], tags[1 + (i % 29)]] : [tags[(i * 7) % 30], tags[(i * 11 + 3) % 30]].filter((t, k, a) => a.findIndex((x) => x.id === t.id) === k),
      // every 7th work has no voice actor: kikoeru hides it
      vas: i % 7 === 3 ? [] : [vas[i % vas.length], ...(i % 2 ? [vas[(i + 1) % vas.length]] : [])],
      nsfw: i % 2 === 0,
      release: i % 8 === 5 ? '' : `20${10 + (i % 13)}-${pad(1 + (i % 12))}-${pad(1 + (i % 28))}`,
      dlCount: Math.floor(rand() * 100000),
      price: [0, 110, 770, 1320, 2200][i % 5],
      reviewCount: Math.floor(rand() * 50),
      rateCount,
      rateAverage: Math.round((1 + rand() * 4) * 100) / 100,
      rateCountDetail: detail,
      rank: i % 4 === 0 ? null : [{ term: 'week', category: 'voice', rank: 1 + (i % 100), rank_date: '2023-01-01' }],
      lyricStatus: (['', 'local', 'ai', 'ai_local'] as const)[i % 4],
      files,
      createdAt: stamp(created),
      updatedAt: stamp(created + 86_400_000),
    });
  }

  // user data: every user reviews and plays a share of the works, hidden and unreachable ones included
  const reviews: KikoeruReviewFact[] = [];
  const history: KikoeruHistoryFact[] = [];
  const progressValues = ['marked', 'listening', 'listened', 'replay', 'postponed'];
  users.forEach((u, ui) => {
    works.forEach((w, wi) => {
      if ((wi + ui) % 3 === 0) {
        const kind = (wi + ui) % 4; // 0 all, 1 rating only, 2 progress only, 3 text only
        const t = base + (wi * 5 + ui) * 60_000;
        reviews.push({
          user: u.name,
          workId: w.id,
          rating: kind === 0 || kind === 1 ? 1 + ((wi + ui) % 5) : null,
          text: kind === 0 || kind === 3 ? REVIEW_TEXTS[(wi + ui) % REVIEW_TEXTS.length] : null,
          progress: kind === 0 || kind === 2 ? progressValues[(wi + ui) % 5] : null,
          createdAt: stamp(t),
          updatedAt: stamp(t + 3_600_000),
        });
      }
      if ((wi + ui) % 4 === 1) {
        const t = base + (wi * 3 + ui) * 90_000;
        history.push({
          user: u.name,
          workId: w.id,
          state: {
            queue: w.files.map((f, k) => ({ hash: `${w.id}/${k}`, title: path.posix.basename(f.path), workTitle: w.title })),
            index: (wi + ui) % w.files.length,
            seconds: 12.5 + wi,
            volume: 0.8,
          },
          createdAt: stamp(t),
          updatedAt: stamp(t + 120_000),
        });
      }
    });
  });

  const tasks: KikoeruTaskFact[] = [];
  works.forEach((w, wi) => {
    if (wi % 2 !== 0) return;
    const status = ([3, 1, 2, 4, 3] as const)[(wi / 2) % 5];
    const id = tasks.length + 1;
    const t = base + wi * 600_000;
    tasks.push({
      id,
      workId: w.id,
      audioPath: w.files[0].path,
      status,
      workerName: status === 1 ? null : `gpu-box-${wi % 3}`,
      workerStatus: status === 2 ? 'transcribing 42%' : status === 4 ? 'ffmpeg failed' : null,
      lrc: status === 3 ? `[00:00.00]こんにちは ${w.code}\n[00:03.50]🎧 ${wi}\n` : null,
      createdAt: stamp(t),
      updatedAt: stamp(t + 30_000),
    });
  });

  const dbFile = path.join(dbDir, 'db.sqlite3');
  const db = await open({ filename: dbFile, driver: sqlite3.Database });
  try {
    await db.exec('PRAGMA foreign_keys = ON');
    await db.exec(SCHEMA);
    await db.exec('BEGIN');
    const migrations = opts.schema === 'old' ? KIKOERU_MIGRATIONS.filter((m) => m < '20221231013326') : KIKOERU_MIGRATIONS;
    for (const [i, m] of migrations.entries()) await db.run('INSERT INTO knex_migrations (name, batch, migration_time) VALUES (?, ?, ?)', [m, i < 10 ? 1 : i - 8, base + i * 1000]);
    await db.run('INSERT INTO knex_migrations_lock (is_locked) VALUES (0)');
    for (const c of circles) await db.run('INSERT INTO t_circle (id, name) VALUES (?, ?)', [c.id, c.name]);
    for (const t of tags) await db.run('INSERT INTO t_tag (id, name) VALUES (?, ?)', [t.id, t.name]);
    for (const v of vas) await db.run('INSERT INTO t_va (id, name) VALUES (?, ?)', [v.id, v.name]);
    const insWork = await db.prepare(
      `INSERT INTO t_work (id, created_at, updated_at, root_folder, dir, title, circle_id, nsfw, release, dl_count, price, review_count,
        rate_count, rate_average_2dp, rate_count_detail, rank, lyric_status, memo) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const insTag = await db.prepare('INSERT INTO r_tag_work (tag_id, work_id) VALUES (?, ?)');
    const insVa = await db.prepare('INSERT INTO r_va_work (va_id, work_id) VALUES (?, ?)');
    for (const w of works) {
      const memo = {
        duration: Object.fromEntries(w.files.map((f) => [f.path, f.duration])),
        isContainLyric: w.lyricStatus === 'local' || w.lyricStatus === 'ai_local',
        mtime: Object.fromEntries(w.files.map((f) => [f.path, f.mtime])),
      };
      await insWork.run([
        w.id,
        w.createdAt,
        w.updatedAt,
        w.rootFolder,
        w.dir,
        w.title,
        w.circle.id,
        w.nsfw,
        w.release,
        w.dlCount,
        w.price,
        w.reviewCount,
        w.rateCount,
        w.rateAverage,
        JSON.stringify(w.rateCountDetail),
        w.rank ? JSON.stringify(w.rank) : null,
        w.lyricStatus,
        JSON.stringify(memo),
      ]);
      for (const t of w.tags) await insTag.run([t.id, w.id]);
      for (const v of w.vas) await insVa.run([v.id, w.id]);
    }
    await insWork.finalize();
    await insTag.finalize();
    await insVa.finalize();
    for (const u of users) await db.run('INSERT INTO t_user (name, password, "group") VALUES (?, ?, ?)', [u.name, kikoeruHash(u.password, md5secret), u.group]);
    const insReview = await db.prepare('INSERT INTO t_review (user_name, work_id, rating, review_text, progress, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
    for (const r of reviews) await insReview.run([r.user, String(r.workId), r.rating, r.text, r.progress, r.createdAt, r.updatedAt]);
    await insReview.finalize();
    const insHistory = await db.prepare('INSERT INTO t_play_histroy (user_name, work_id, state, created_at, updated_at) VALUES (?, ?, ?, ?, ?)');
    for (const h of history) await insHistory.run([h.user, h.workId, JSON.stringify(h.state), h.createdAt, h.updatedAt]);
    await insHistory.finalize();
    for (const t of tasks) {
      await db.run('INSERT INTO t_translate_task (id, work_id, audio_path, status, worker_name, worker_status, secret, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)', [
        t.id,
        t.workId,
        t.audioPath,
        t.status,
        t.workerName,
        t.workerStatus,
        t.status === 2 ? `secret-${t.id}` : null,
        t.createdAt,
        t.updatedAt,
      ]);
      if (t.lrc !== null) writeFileSync(path.join(lyricDir, `${t.id}.lrc`), t.lrc);
    }
    await db.exec('COMMIT');
  } finally {
    await db.close();
  }

  // covers for every other work (some works have none)
  const jpeg = tinyJpeg();
  works.forEach((w, i) => {
    if (i % 2) return;
    for (const type of ['main', 'sam', '240x240']) writeFileSync(path.join(coverDir, `${w.code}_img_${type}.jpg`), jpeg);
  });

  // the reachable root's work folders on disk
  if (folders) {
    for (const w of works) {
      if (w.rootFolder !== 'main') continue;
      for (const f of w.files) {
        const file = path.join(libDir, w.dir, f.path);
        mkdirSync(path.dirname(file), { recursive: true });
        writeFileSync(file, Buffer.alloc(64, 0));
      }
    }
  }
  return { dir, dbFile, configFile, lyricDir, coverDir, md5secret, roots, users, works, reviews, history, tasks };
}

/** A SQLite file of some other program (not kikoeru's). */
export async function buildForeignSqlite(file: string): Promise<void> {
  mkdirSync(path.dirname(file), { recursive: true });
  const db = await open({ filename: file, driver: sqlite3.Database });
  try {
    await db.exec("CREATE TABLE notes (id integer primary key, body text); INSERT INTO notes (body) VALUES ('hello');");
    await db.exec("CREATE TABLE t_user (name text primary key, password text); INSERT INTO t_user VALUES ('x', 'y');");
  } finally {
    await db.close();
  }
}

/** The smallest baseline JPEG (1×1 grey), so covers are real image files without an image library. */
function tinyJpeg(): Buffer {
  return Buffer.from(
    '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
    'base64',
  );
}
