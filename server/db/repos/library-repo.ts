/**
 * SQL of the library as the scanner writes it: works (location, fingerprint, files, lyric flag,
 * durations, missing state, metadata queue, covers), their files with stable numbers, circles, tags
 * and voice actors with their work counts, and the FTS row of each work.
 */
import type { Database, Reader, SqlValue, WriteHandle } from '../connection.js';
import { recountLabels, writeNewWorksFts, writeWorkFts } from './library-writes.js';
import { sqlNow } from '../../domain/time.js';
import type { WorkMetadata } from '../../domain/work-metadata.js';

export type FileKindColumn = 'audio' | 'text' | 'image' | 'other';

export interface WorkIndexRow {
  id: number;
  code: string;
  root_folder: string;
  dir: string;
  fingerprint: string | null;
  missing: number;
  cover_source: string | null;
  metadata_status: 'pending' | 'ok' | 'failed' | 'not_found';
}

export interface WorkLocationRow extends WorkIndexRow {
  title: string;
  has_local_lyric: number;
  total_duration: number;
  next_file_n: number;
  edited_fields: string;
  metadata_attempts: number;
}

export interface FileRow {
  n: number;
  path: string;
  kind: FileKindColumn;
  is_lyric: number;
  size: number;
  mtime_ms: number;
  duration: number | null;
}

/** A file as it is on disk now, with its probed duration when it was (re)probed. */
export interface FileOnDisk {
  path: string;
  kind: FileKindColumn;
  isLyric: boolean;
  isMedia: boolean;
  size: number;
  mtimeMs: number;
  /** undefined = not probed this time (keep the stored duration when the file is unchanged). */
  duration?: number | null;
}

export interface SaveLocalWorkInput {
  id: number;
  code: string;
  /** Title for a new work (from the folder name). Existing works keep theirs. */
  folderTitle: string;
  rootFolder: string;
  dir: string;
  fingerprint: string;
  /** Files on disk in track-list order (new files get numbers in this order). */
  files: FileOnDisk[];
  /** Set the cover source in the same transaction (e.g. 'local': the work's own image). */
  coverSource?: 'local';
}

export interface SaveLocalWorkResult {
  created: boolean;
  wasMissing: boolean;
  moved: boolean;
  hadLocalLyric: boolean;
  hasLocalLyric: boolean;
  totalDuration: number;
  filesAdded: number;
  filesRemoved: number;
  filesChanged: number;
}

const FILE_COLS = 8;

const placeholders = (rows: number, cols: number) => Array.from({ length: rows }, () => `(${Array(cols).fill('?').join(', ')})`).join(', ');

/** Works written in one group-commit transaction at most. */
const SAVE_BATCH_MAX = 64;

interface QueuedSave {
  input: SaveLocalWorkInput;
  resolve: (r: SaveLocalWorkResult) => void;
  reject: (err: Error) => void;
}

export class LibraryRepo {
  private readonly saveQueue: QueuedSave[] = [];
  private saving = false;

  constructor(private readonly db: Database) {}

  /** Every work row's location, fingerprint and queue state (one query at scan start). */
  index(): Promise<WorkIndexRow[]> {
    return this.db.all<WorkIndexRow>('SELECT id, code, root_folder, dir, fingerprint, missing, cover_source, metadata_status FROM works');
  }

  work(id: number, r: Reader = this.db): Promise<WorkLocationRow | undefined> {
    return r.get<WorkLocationRow>(
      `SELECT id, code, title, root_folder, dir, fingerprint, missing, cover_source, metadata_status, has_local_lyric,
              total_duration, next_file_n, edited_fields, metadata_attempts FROM works WHERE id = ?`,
      [id],
    );
  }

  /** Non-missing works in id order (scan work files, refresh). */
  presentWorks(): Promise<WorkLocationRow[]> {
    return this.db.all<WorkLocationRow>(
      `SELECT id, code, title, root_folder, dir, fingerprint, missing, cover_source, metadata_status, has_local_lyric,
              total_duration, next_file_n, edited_fields, metadata_attempts FROM works WHERE missing = 0 ORDER BY id`,
    );
  }

  files(workId: number, r: Reader = this.db): Promise<FileRow[]> {
    return r.all<FileRow>('SELECT n, path, kind, is_lyric, size, mtime_ms, duration FROM files WHERE work_id = ? ORDER BY n', [workId]);
  }

  async countPresentInRoot(rootFolder: string): Promise<number> {
    const row = await this.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM works WHERE root_folder = ? AND missing = 0', [rootFolder]);
    return row?.n ?? 0;
  }

  /**
   * Store what the folder tells about a work, in one transaction: the work row (created, moved or
   * back from missing), its files with stable numbers (kept while the path exists, never reused),
   * durations, lyric flag, total duration and fingerprint.
   */
  saveLocalWork(input: SaveLocalWorkInput): Promise<SaveLocalWorkResult> {
    return new Promise((resolve, reject) => {
      this.saveQueue.push({ input, resolve, reject });
      if (!this.saving) void this.flushSaves();
    });
  }

  /**
   * Group commit: the works queued while a transaction is being written go together in the next one
   * (a scan stores hundreds of works a second; each transaction costs several round trips to the
   * database thread). A batch that fails is retried work by work, so one bad work fails alone.
   */
  private async flushSaves(): Promise<void> {
    this.saving = true;
    try {
      while (this.saveQueue.length) {
        const batch = this.saveQueue.splice(0, SAVE_BATCH_MAX);
        try {
          const results = await this.db.tx((w) =>
            this.saveBatch(
              w,
              batch.map((b) => b.input),
            ),
          );
          batch.forEach((b, i) => b.resolve(results[i]));
        } catch (err) {
          if (batch.length === 1) {
            batch[0].reject(err as Error);
            continue;
          }
          for (const b of batch) {
            try {
              b.resolve(await this.db.tx((w) => this.saveOne(w, b.input)));
            } catch (one) {
              b.reject(one as Error);
            }
          }
        }
      }
    } finally {
      this.saving = false;
    }
  }

  /**
   * Several works in one transaction. New works at free locations (a first scan's whole library) are
   * written with a few multi-row statements; any other goes through saveOne, in order.
   */
  private async saveBatch(w: WriteHandle, inputs: SaveLocalWorkInput[]): Promise<SaveLocalWorkResult[]> {
    if (inputs.length === 1) return [await this.saveOne(w, inputs[0])];
    // rows that already hold one of these ids or locations (a batch is at most SAVE_BATCH_MAX works)
    const rows = await w.all<{ id: number; root_folder: string; dir: string }>(
      `SELECT id, root_folder, dir FROM works WHERE id IN (${inputs.map(() => '?').join(', ')})
       OR (root_folder, dir) IN (VALUES ${inputs.map(() => '(?, ?)').join(', ')})`,
      [...inputs.map((x) => x.id), ...inputs.flatMap((x) => [x.rootFolder, x.dir])],
    );
    const ids = new Set(rows.map((r) => r.id));
    const taken = new Set(rows.map((r) => `${r.root_folder}\0${r.dir}`));
    const results: SaveLocalWorkResult[] = new Array(inputs.length);
    let fresh: number[] = [];
    const writeFresh = async () => {
      if (fresh.length)
        await this.insertNewWorks(
          w,
          fresh.map((i) => inputs[i]),
          (i, r) => (results[fresh[i]] = r),
        );
      fresh = [];
    };
    for (const [i, input] of inputs.entries()) {
      if (!ids.has(input.id) && !taken.has(`${input.rootFolder}\0${input.dir}`)) {
        fresh.push(i);
        continue;
      }
      await writeFresh();
      results[i] = await this.saveOne(w, input);
    }
    await writeFresh();
    return results;
  }

  /**
   * Works that have no row and whose location no row holds: complete rows, FTS rows and files at once.
   * The rows travel as one JSON parameter per statement, unpacked by SQLite (json_each) on the database
   * thread: binding each value separately costs the main thread more than the inserts themselves.
   */
  private async insertNewWorks(w: WriteHandle, inputs: SaveLocalWorkInput[], done: (i: number, r: SaveLocalWorkResult) => void): Promise<void> {
    const now = sqlNow();
    const works: unknown[][] = [];
    const files: unknown[][] = [];
    for (const [i, input] of inputs.entries()) {
      let total = 0;
      let hasLyric = false;
      input.files.forEach((f, n) => {
        const duration = f.isMedia ? (f.duration ?? null) : null;
        if (f.isLyric) hasLyric = true;
        if (duration) total += duration;
        files.push([input.id, n, f.path, f.kind, f.isLyric ? 1 : 0, f.size, f.mtimeMs, duration]);
      });
      total = Math.round(total * 1000) / 1000;
      const cover = input.coverSource ?? null;
      works.push([input.id, input.code, input.folderTitle, input.rootFolder, input.dir, input.fingerprint, input.files.length, hasLyric ? 1 : 0, total, cover, cover ? now : null, now, now]);
      done(i, {
        created: true,
        wasMissing: false,
        moved: false,
        hadLocalLyric: false,
        hasLocalLyric: hasLyric,
        totalDuration: total,
        filesAdded: input.files.length,
        filesRemoved: 0,
        filesChanged: 0,
      });
    }
    const cols = (n: number) => Array.from({ length: n }, (_, i) => `value ->> ${i}`).join(', ');
    await w.run(
      `INSERT INTO works (id, code, title, root_folder, dir, fingerprint, next_file_n, has_local_lyric, total_duration, cover_source, cover_updated_at, created_at, updated_at)
       SELECT ${cols(13)} FROM json_each(?)`,
      [JSON.stringify(works)],
    );
    await writeNewWorksFts(
      w,
      inputs.map((x) => ({ id: x.id, code: x.code, title: x.folderTitle })),
    );
    if (files.length) await w.run(`INSERT INTO files (work_id, n, path, kind, is_lyric, size, mtime_ms, duration) SELECT ${cols(FILE_COLS)} FROM json_each(?)`, [JSON.stringify(files)]);
  }

  private async saveOne(w: WriteHandle, input: SaveLocalWorkInput): Promise<SaveLocalWorkResult> {
    const now = sqlNow();
    // the work's row, and any other row holding this location (one query: this runs per work in a scan)
    const rows = await w.all<WorkLocationRow>(
      `SELECT id, code, title, root_folder, dir, fingerprint, missing, cover_source, metadata_status, has_local_lyric,
              total_duration, next_file_n, edited_fields, metadata_attempts FROM works WHERE id = ? OR (root_folder = ? AND dir = ?)`,
      [input.id, input.rootFolder, input.dir],
    );
    const before = rows.find((r) => r.id === input.id);
    // another row holding this location has lost its folder (e.g. renamed to carry another code)
    const squatter = rows.find((r) => r.id !== input.id);
    if (squatter) {
      await w.run("UPDATE works SET dir = dir || '#displaced-' || id, missing = 1, missing_since = COALESCE(missing_since, ?) WHERE id = ?", [now, squatter.id]);
    }
    if (!before) {
      // the row first: files reference it (its totals are set below)
      await w.run(`INSERT INTO works (id, code, title, root_folder, dir, fingerprint, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, [
        input.id,
        input.code,
        input.folderTitle,
        input.rootFolder,
        input.dir,
        input.fingerprint,
        now,
        now,
      ]);
      await writeNewWorksFts(w, [{ id: input.id, code: input.code, title: input.folderTitle }]);
    }
    const existing = before ? await this.files(input.id, w) : [];
    const byPath = new Map(existing.map((f) => [f.path, f]));
    let nextN = before?.next_file_n ?? 0;
    const inserts: SqlValue[] = [];
    let filesAdded = 0;
    let filesChanged = 0;
    let total = 0;
    let hasLyric = false;
    for (const f of input.files) {
      const old = byPath.get(f.path);
      byPath.delete(f.path);
      const unchanged = old && old.size === f.size && old.mtime_ms === f.mtimeMs;
      const duration = !f.isMedia ? null : f.duration !== undefined ? f.duration : unchanged ? old.duration : null;
      if (f.isLyric) hasLyric = true;
      if (duration) total += duration;
      if (!old) {
        inserts.push(input.id, nextN++, f.path, f.kind, f.isLyric ? 1 : 0, f.size, f.mtimeMs, duration);
        filesAdded++;
      } else if (!unchanged || old.duration !== duration || old.kind !== f.kind || old.is_lyric !== (f.isLyric ? 1 : 0)) {
        await w.run('UPDATE files SET kind = ?, is_lyric = ?, size = ?, mtime_ms = ?, duration = ? WHERE work_id = ? AND n = ?', [
          f.kind,
          f.isLyric ? 1 : 0,
          f.size,
          f.mtimeMs,
          duration,
          input.id,
          old.n,
        ]);
        if (!unchanged) filesChanged++;
      }
    }
    const removed = [...byPath.values()];
    for (let i = 0; i < removed.length; i += 500) {
      const chunk = removed.slice(i, i + 500);
      await w.run(`DELETE FROM files WHERE work_id = ? AND n IN (${chunk.map(() => '?').join(', ')})`, [input.id, ...chunk.map((f) => f.n)]);
    }
    const perChunk = 100;
    for (let i = 0; i < inserts.length; i += perChunk * FILE_COLS) {
      const chunk = inserts.slice(i, i + perChunk * FILE_COLS);
      await w.run(`INSERT INTO files (work_id, n, path, kind, is_lyric, size, mtime_ms, duration) VALUES ${placeholders(chunk.length / FILE_COLS, FILE_COLS)}`, chunk);
    }
    total = Math.round(total * 1000) / 1000;
    // updated_at = the last change of the work's files (the `updated_at` list order): a forced rescan
    // or a new cover of an unchanged folder keeps it
    const changed = !before || !!before.missing || before.root_folder !== input.rootFolder || before.dir !== input.dir || filesAdded + filesChanged + removed.length > 0;
    await w.run(
      `UPDATE works SET root_folder = ?, dir = ?, fingerprint = ?, next_file_n = ?, has_local_lyric = ?, total_duration = ?,
              missing = 0, missing_since = NULL${changed ? ', updated_at = ?' : ''}${input.coverSource ? ', cover_source = ?, cover_updated_at = ?' : ''} WHERE id = ?`,
      [input.rootFolder, input.dir, input.fingerprint, nextN, hasLyric ? 1 : 0, total, ...(changed ? [now] : []), ...(input.coverSource ? [input.coverSource, now] : []), input.id],
    );
    if (before?.missing) await this.recountForWorks(w, [input.id]);
    return {
      created: !before,
      wasMissing: !!before?.missing,
      moved: !!before && (before.root_folder !== input.rootFolder || before.dir !== input.dir),
      hadLocalLyric: !!before?.has_local_lyric,
      hasLocalLyric: hasLyric,
      totalDuration: total,
      filesAdded,
      filesRemoved: removed.length,
      filesChanged,
    };
  }

  /** Mark works missing (folder vanished); user data stays. Returns how many changed. */
  async markMissing(ids: number[]): Promise<number> {
    if (!ids.length) return 0;
    return this.db.tx(async (w) => {
      const now = sqlNow();
      let n = 0;
      for (let i = 0; i < ids.length; i += 500) {
        const chunk = ids.slice(i, i + 500);
        n += (await w.run(`UPDATE works SET missing = 1, missing_since = ?, updated_at = ? WHERE missing = 0 AND id IN (${chunk.map(() => '?').join(', ')})`, [now, now, ...chunk])).changes;
      }
      await this.recountAll(w);
      return n;
    });
  }

  async setCoverSource(id: number, source: 'dlsite' | 'local' | null): Promise<void> {
    await this.db.run('UPDATE works SET cover_source = ?, cover_updated_at = ? WHERE id = ?', [source, sqlNow(), id]);
  }

  // ---- metadata queue -------------------------------------------------------------------------

  /** Works whose metadata is due: never fetched, or failed and due again. Pending first. */
  async dueForMetadata(now: string): Promise<number[]> {
    const rows = await this.db.all<{ id: number }>(
      `SELECT id FROM works WHERE missing = 0 AND metadata_status != 'ok' AND (metadata_next_at IS NULL OR metadata_next_at <= ?)
       ORDER BY metadata_status = 'pending' DESC, id`,
      [now],
    );
    return rows.map((r) => r.id);
  }

  async countMetadataNotOk(): Promise<number> {
    const row = await this.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM works WHERE missing = 0 AND metadata_status != 'ok'");
    return row?.n ?? 0;
  }

  async metadataFailed(id: number, opts: { notFound: boolean; error: string; nextAt: string | null }): Promise<void> {
    const res = await this.db.run(
      `UPDATE works SET metadata_status = ?, metadata_attempts = metadata_attempts + 1, metadata_error = ?, metadata_next_at = ?
       WHERE id = ? AND metadata_status != 'ok'`,
      [opts.notFound ? 'not_found' : 'failed', opts.error.slice(0, 1000), opts.nextAt, id],
    );
    // list-form works show the status and are cached per library version (003-browse.sql)
    if (res.changes) await this.db.run('UPDATE library_state SET version = version + 1 WHERE id = 1');
  }

  /** A refresh that failed for a work whose metadata is already known: remember the error only. */
  async refreshFailed(id: number, error: string): Promise<void> {
    await this.db.run('UPDATE works SET metadata_error = ? WHERE id = ?', [error.slice(0, 1000), id]);
  }

  /**
   * Store fetched metadata. Fields listed in the work's edited_fields (title, circle, tags, vas,
   * nsfw, release) keep the user's values; counts, prices, ratings and ranks always follow the source.
   */
  applyMetadata(id: number, md: WorkMetadata): Promise<{ edited: string[] }> {
    return this.db.tx(async (w) => {
      const row = await w.get<{ edited_fields: string; circle_id: number }>('SELECT edited_fields, circle_id FROM works WHERE id = ?', [id]);
      if (!row) return { edited: [] };
      let edited: string[] = [];
      try {
        const parsed: unknown = JSON.parse(row.edited_fields);
        if (Array.isArray(parsed)) edited = parsed.filter((x): x is string => typeof x === 'string');
      } catch {
        edited = [];
      }
      const keep = (field: string) => edited.includes(field);
      const oldTags = (await w.all<{ tag_id: number }>('SELECT tag_id FROM work_tags WHERE work_id = ?', [id])).map((r) => r.tag_id);
      const oldVas = (await w.all<{ va_id: string }>('SELECT va_id FROM work_vas WHERE work_id = ?', [id])).map((r) => r.va_id);
      const sets: string[] = [];
      const params: SqlValue[] = [];
      const set = (col: string, value: SqlValue) => {
        sets.push(`${col} = ?`);
        params.push(value);
      };
      if (!keep('title') && md.title) set('title', md.title);
      let circleId = row.circle_id;
      if (!keep('circle') && md.circle) {
        await w.run('INSERT INTO circles (id, name) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET name = excluded.name', [md.circle.id, md.circle.name]);
        circleId = md.circle.id;
        set('circle_id', circleId);
      }
      if (!keep('nsfw')) set('nsfw', md.nsfw ? 1 : 0);
      if (!keep('release')) set('release', md.release ?? '');
      set('price', Math.round(md.price || 0));
      set('dl_count', Math.round(md.dl_count || 0));
      set('review_count', Math.round(md.review_count || 0));
      set('rate_count', Math.round(md.rate_count || 0));
      set('rate_average_2dp', Number(md.rate_average_2dp || 0));
      set('rate_count_detail', md.rate_count_detail ? JSON.stringify(md.rate_count_detail) : null);
      set('rank', md.rank && md.rank.length ? JSON.stringify(md.rank) : null);
      set('related', md.related && md.related.length ? JSON.stringify(md.related) : null);
      set('metadata_status', 'ok');
      set('metadata_source', md.source);
      set('metadata_attempts', 0);
      set('metadata_error', null);
      set('metadata_next_at', null);
      set('metadata_updated_at', sqlNow());
      set('updated_at', sqlNow());
      await w.run(`UPDATE works SET ${sets.join(', ')} WHERE id = ?`, [...params, id]);
      if (!keep('tags')) {
        for (const t of md.tags) {
          await w.run(
            `INSERT INTO tags (id, name) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET
               name = CASE WHEN tags.original_name IS NULL THEN excluded.name ELSE tags.name END,
               original_name = CASE WHEN tags.original_name IS NULL THEN NULL ELSE excluded.name END`,
            [t.id, t.name],
          );
        }
        await w.run('DELETE FROM work_tags WHERE work_id = ?', [id]);
        for (const t of dedupeBy(md.tags, (t) => t.id)) await w.run('INSERT INTO work_tags (work_id, tag_id) VALUES (?, ?)', [id, t.id]);
      }
      if (!keep('vas')) {
        const vas = dedupeBy(md.vas, (v) => v.id);
        for (const v of vas) await w.run('INSERT INTO vas (id, name) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET name = excluded.name', [v.id, v.name]);
        await w.run('DELETE FROM work_vas WHERE work_id = ?', [id]);
        for (const [i, v] of vas.entries()) await w.run('INSERT INTO work_vas (work_id, va_id, position) VALUES (?, ?, ?)', [id, v.id, i]);
      }
      await writeWorkFts(w, id);
      await recountLabels(w, {
        circles: [row.circle_id, circleId],
        tags: [...oldTags, ...md.tags.map((t) => t.id)],
        vas: [...oldVas, ...md.vas.map((v) => v.id)],
      });
      return { edited };
    });
  }

  // ---- purge ----------------------------------------------------------------------------------

  async missingWorkIds(): Promise<number[]> {
    return (await this.db.all<{ id: number }>('SELECT id FROM works WHERE missing = 1 ORDER BY id')).map((r) => r.id);
  }

  /** Delete missing works with everything attached (reviews, history, AI tasks, files, links). */
  purgeMissing(ids: number[]): Promise<number> {
    return this.db.tx(async (w) => {
      let n = 0;
      for (let i = 0; i < ids.length; i += 500) {
        const chunk = ids.slice(i, i + 500);
        const q = chunk.map(() => '?').join(', ');
        await w.run(`DELETE FROM works_fts WHERE rowid IN (${q})`, chunk);
        n += (await w.run(`DELETE FROM works WHERE missing = 1 AND id IN (${q})`, chunk)).changes;
      }
      await this.recountAll(w);
      return n;
    });
  }

  // ---- counts and search ----------------------------------------------------------------------

  /** Recount every circle, tag and VA (number of non-missing works linked). */
  async recountAll(w?: WriteHandle): Promise<void> {
    const sql = [
      'UPDATE circles SET work_count = (SELECT COUNT(*) FROM works w WHERE w.circle_id = circles.id AND w.missing = 0)',
      'UPDATE tags SET work_count = (SELECT COUNT(*) FROM work_tags wt JOIN works w ON w.id = wt.work_id WHERE wt.tag_id = tags.id AND w.missing = 0)',
      'UPDATE vas SET work_count = (SELECT COUNT(*) FROM work_vas wv JOIN works w ON w.id = wv.work_id WHERE wv.va_id = vas.id AND w.missing = 0)',
    ];
    if (w) {
      for (const s of sql) await w.run(s);
    } else {
      await this.db.tx(async (h) => {
        for (const s of sql) await h.run(s);
      });
    }
  }

  private async recountForWorks(w: WriteHandle, workIds: number[]): Promise<void> {
    const q = workIds.map(() => '?').join(', ');
    const circles = (await w.all<{ id: number }>(`SELECT circle_id AS id FROM works WHERE id IN (${q})`, workIds)).map((r) => r.id);
    const tags = (await w.all<{ id: number }>(`SELECT tag_id AS id FROM work_tags WHERE work_id IN (${q})`, workIds)).map((r) => r.id);
    const vas = (await w.all<{ id: string }>(`SELECT va_id AS id FROM work_vas WHERE work_id IN (${q})`, workIds)).map((r) => r.id);
    await recountLabels(w, { circles, tags, vas });
  }
}

function dedupeBy<T, K>(items: T[], key: (t: T) => K): T[] {
  const seen = new Set<K>();
  return items.filter((t) => {
    const k = key(t);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
