/**
 * Writes works straight into a kikoplay database, exactly as the schema means them (the same rows a
 * scan plus a metadata fetch leave): circles/tags/vas with `work_count` = number of non-missing works
 * linked, works, link rows, stable-numbered files and the FTS row (`searchBody` of normalize.ts).
 * Used by the browse tests (precise data for sorting/filtering cases) and by the 100k-work benchmark.
 */
import type { Database, SqlValue, WriteHandle } from '../../server/db/connection.js';
import { searchBody } from '../../server/domain/normalize.js';
import { formatWorkCode } from '../../server/domain/work-code.js';

export interface SeedLabel<Id extends number | string> {
  id: Id;
  name: string;
}

export interface SeedFile {
  /** Relative to the work folder, '/' separated. */
  path: string;
  kind?: 'audio' | 'text' | 'image' | 'other';
  /** Stable number; defaults to the position in `files`. */
  n?: number;
  size?: number;
  mtimeMs?: number;
  duration?: number | null;
  isLyric?: boolean;
}

export interface SeedWork {
  id: number;
  title?: string;
  circle?: SeedLabel<number> | null;
  tags?: SeedLabel<number>[];
  vas?: SeedLabel<string>[];
  nsfw?: boolean;
  release?: string;
  dl_count?: number;
  price?: number;
  review_count?: number;
  rate_count?: number;
  rate_average_2dp?: number;
  rate_count_detail?: { review_point: number; count: number; ratio: number }[] | null;
  rank?: { term: string; category: string; rank: number; rank_date: string }[] | null;
  related?: { id: number; name: string }[] | null;
  has_local_lyric?: boolean;
  has_ai_lyric?: boolean;
  total_duration?: number;
  root_folder?: string;
  dir?: string;
  missing?: boolean;
  created_at?: string;
  updated_at?: string;
  files?: SeedFile[];
}

const EXT_KIND: Record<string, SeedFile['kind']> = {
  mp3: 'audio',
  ogg: 'audio',
  opus: 'audio',
  wav: 'audio',
  aac: 'audio',
  flac: 'audio',
  webm: 'audio',
  mp4: 'audio',
  m4a: 'audio',
  mka: 'audio',
  lrc: 'text',
  srt: 'text',
  vtt: 'text',
  ass: 'text',
  txt: 'text',
  jpg: 'image',
  jpeg: 'image',
  png: 'image',
  webp: 'image',
  pdf: 'other',
};

export function kindOfPath(p: string): NonNullable<SeedFile['kind']> {
  const ext = p.slice(p.lastIndexOf('.') + 1).toLowerCase();
  return EXT_KIND[ext] ?? 'other';
}

const isLyricPath = (p: string) => /\.(lrc|srt|vtt|ass)$/i.test(p);

const WORK_COLUMNS = [
  'id',
  'code',
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
  'related',
  'has_local_lyric',
  'has_ai_lyric',
  'total_duration',
  'root_folder',
  'dir',
  'next_file_n',
  'missing',
  'metadata_status',
  'created_at',
  'updated_at',
] as const;

/** Rows per multi-row INSERT (kept under SQLite's 32766 bound variables). */
const ROWS_PER_INSERT = 500;

async function insertRows(w: WriteHandle, head: string, cols: number, rows: SqlValue[][], tail = ''): Promise<void> {
  const row = `(${new Array(cols).fill('?').join(',')})`;
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    const chunk = rows.slice(i, i + ROWS_PER_INSERT);
    await w.run(`${head} VALUES ${chunk.map(() => row).join(',')} ${tail}`, chunk.flat());
  }
}

function nowSql(): string {
  return new Date().toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * Insert works (ids must be new) with their labels, files and search rows in transactions of
 * `batch` works, then recount the labels' `work_count`.
 */
export async function seedWorks(db: Database, works: SeedWork[], opts: { batch?: number; recount?: boolean } = {}): Promise<void> {
  const batch = opts.batch ?? 2000;
  const now = nowSql();
  for (let start = 0; start < works.length; start += batch) {
    const part = works.slice(start, start + batch);
    await db.tx(async (w) => {
      const circles = new Map<number, string>();
      const tags = new Map<number, string>();
      const vas = new Map<string, string>();
      for (const work of part) {
        if (work.circle) circles.set(work.circle.id, work.circle.name);
        for (const t of work.tags ?? []) tags.set(t.id, t.name);
        for (const v of work.vas ?? []) vas.set(v.id, v.name);
      }
      const upsert = 'ON CONFLICT (id) DO UPDATE SET name = excluded.name';
      await insertRows(
        w,
        'INSERT INTO circles (id, name)',
        2,
        [...circles].map(([id, name]) => [id, name]),
        upsert,
      );
      await insertRows(
        w,
        'INSERT INTO tags (id, name)',
        2,
        [...tags].map(([id, name]) => [id, name]),
        upsert,
      );
      await insertRows(
        w,
        'INSERT INTO vas (id, name)',
        2,
        [...vas].map(([id, name]) => [id, name]),
        upsert,
      );

      const workRows: SqlValue[][] = [];
      const tagRows: SqlValue[][] = [];
      const vaRows: SqlValue[][] = [];
      const fileRows: SqlValue[][] = [];
      const ftsRows: SqlValue[][] = [];
      for (const work of part) {
        const code = formatWorkCode(work.id);
        const title = work.title ?? code;
        const files = work.files ?? [];
        const numbered = files.map((f, i) => ({ ...f, n: f.n ?? i }));
        const audioTotal = numbered.reduce((sum, f) => sum + ((f.kind ?? kindOfPath(f.path)) === 'audio' ? (f.duration ?? 0) : 0), 0);
        workRows.push([
          work.id,
          code,
          title,
          work.circle?.id ?? 0,
          work.nsfw ? 1 : 0,
          work.release ?? '',
          work.dl_count ?? 0,
          work.price ?? 0,
          work.review_count ?? 0,
          work.rate_count ?? 0,
          work.rate_average_2dp ?? 0,
          work.rate_count_detail ? JSON.stringify(work.rate_count_detail) : null,
          work.rank ? JSON.stringify(work.rank) : null,
          work.related ? JSON.stringify(work.related) : null,
          (work.has_local_lyric ?? numbered.some((f) => f.isLyric ?? isLyricPath(f.path))) ? 1 : 0,
          work.has_ai_lyric ? 1 : 0,
          work.total_duration ?? Math.round(audioTotal * 1000) / 1000,
          work.root_folder ?? 'lib',
          work.dir ?? code,
          numbered.reduce((m, f) => Math.max(m, f.n + 1), 0),
          work.missing ? 1 : 0,
          'ok',
          work.created_at ?? now,
          work.updated_at ?? work.created_at ?? now,
        ]);
        for (const t of work.tags ?? []) tagRows.push([work.id, t.id]);
        for (const [i, v] of (work.vas ?? []).entries()) vaRows.push([work.id, v.id, i]);
        for (const f of numbered) {
          fileRows.push([work.id, f.n, f.path, f.kind ?? kindOfPath(f.path), (f.isLyric ?? isLyricPath(f.path)) ? 1 : 0, f.size ?? 0, f.mtimeMs ?? 0, f.duration ?? null]);
        }
        ftsRows.push([work.id, searchBody({ code, title, circle: work.circle?.name ?? '', tags: (work.tags ?? []).map((t) => t.name), vas: (work.vas ?? []).map((v) => v.name) })]);
      }
      await insertRows(w, `INSERT INTO works (${WORK_COLUMNS.join(', ')})`, WORK_COLUMNS.length, workRows);
      await insertRows(w, 'INSERT INTO work_tags (work_id, tag_id)', 2, tagRows);
      await insertRows(w, 'INSERT INTO work_vas (work_id, va_id, position)', 3, vaRows);
      await insertRows(w, 'INSERT INTO files (work_id, n, path, kind, is_lyric, size, mtime_ms, duration)', 8, fileRows);
      await insertRows(w, 'INSERT INTO works_fts (rowid, body)', 2, ftsRows);
    });
  }
  if (opts.recount !== false) await recountLabels(db);
}

/**
 * work_count of every label = number of non-missing works linked (what the scanner maintains), by one
 * grouped pass over each link table (a correlated count per label would walk the works once per label).
 */
export async function recountLabels(db: Database): Promise<void> {
  await db.tx(async (w) => {
    for (const table of ['circles', 'tags', 'vas']) await w.run(`UPDATE ${table} SET work_count = 0 WHERE work_count <> 0`);
    await w.run(
      `UPDATE circles SET work_count = c.n
         FROM (SELECT circle_id AS id, count(*) AS n FROM works WHERE missing = 0 GROUP BY circle_id) c WHERE circles.id = c.id`,
    );
    await w.run(
      `UPDATE tags SET work_count = c.n
         FROM (SELECT wt.tag_id AS id, count(*) AS n FROM work_tags wt JOIN works w ON w.id = wt.work_id WHERE w.missing = 0 GROUP BY wt.tag_id) c
        WHERE tags.id = c.id`,
    );
    await w.run(
      `UPDATE vas SET work_count = c.n
         FROM (SELECT wv.va_id AS id, count(*) AS n FROM work_vas wv JOIN works w ON w.id = wv.work_id WHERE w.missing = 0 GROUP BY wv.va_id) c
        WHERE vas.id = c.id`,
    );
  });
}
