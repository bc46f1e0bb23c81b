/**
 * SQL of `kikoplay import kikoeru`: what the import compares against (users, works, reviews, play
 * history, AI tasks, file numbers) and the rows it writes, all inside one write transaction, so an
 * import is applied whole or not at all (a dry run rolls it back).
 */
import type { Database, WriteHandle } from '../connection.js';
import type { Role } from '../../auth/roles.js';
import { recountLabels, writeWorkFts } from './library-writes.js';

export interface ImportUserRow {
  id: number;
  name: string;
  password_hash: string;
}

export interface ImportWorkRow {
  id: number;
  root_folder: string;
  dir: string;
  missing: number;
  cover_source: string | null;
  metadata_status: string;
  metadata_source: string | null;
  metadata_updated_at: string | null;
  edited_fields: string;
  circle_id: number;
}

/** A work's metadata as the import writes it. */
export interface ImportWorkMetadata {
  title: string;
  circle: { id: number; name: string };
  nsfw: boolean;
  release: string;
  dlCount: number;
  price: number;
  reviewCount: number;
  rateCount: number;
  rateAverage: number;
  rateCountDetail: string | null;
  rank: string | null;
  hasLocalLyric: boolean;
  totalDuration: number;
  tags: { id: number; name: string }[];
  vas: { id: string; name: string }[];
  /** kikoeru's updated_at: stored as metadata_updated_at, so a later import sees what is newer. */
  sourceUpdatedAt: string;
}

export interface ImportNewWork extends ImportWorkMetadata {
  id: number;
  code: string;
  rootFolder: string;
  dir: string;
  missing: boolean;
  createdAt: string;
  now: string;
}

export interface ImportReview {
  userId: number;
  workId: number;
  rating: number | null;
  text: string | null;
  progress: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ImportTask {
  workId: number;
  audioPath: string;
  status: number;
  workerName: string;
  workerStatus: string;
  lrc: string | null;
  leaseExpiresAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export class KikoeruImportRepo {
  constructor(private readonly db: Database) {}

  /** Run the import's writes in one transaction. */
  tx<T>(fn: (w: KikoeruImportWrites) => Promise<T>): Promise<T> {
    return this.db.tx((w) => fn(new KikoeruImportWrites(w)));
  }
}

const key = (a: number | string, b: number | string) => `${a}\u0000${b}`;

/** The import's reads and writes inside its transaction. */
export class KikoeruImportWrites {
  /** Labels and works whose counts or search rows must be redone at the end. */
  private readonly touched = { circles: new Set<number>(), tags: new Set<number>(), vas: new Set<string>(), fts: new Set<number>(), aiFlag: new Set<number>() };

  constructor(private readonly w: WriteHandle) {}

  /** Root folders kept because they were unreachable (imported_root_folders). */
  async pendingRoots(): Promise<Map<string, { path: string; problem: string }>> {
    const rows = await this.w.all<{ name: string; path: string; problem: string }>('SELECT name, path, problem FROM imported_root_folders');
    return new Map(rows.map((r) => [r.name, { path: r.path, problem: r.problem }]));
  }

  async putPendingRoot(name: string, path: string, problem: string): Promise<void> {
    await this.w.run(
      `INSERT INTO imported_root_folders (name, path, source, problem) VALUES (?, ?, 'kikoeru', ?)
       ON CONFLICT (name) DO UPDATE SET path = excluded.path, problem = excluded.problem`,
      [name, path, problem],
    );
  }

  async dropPendingRoot(name: string): Promise<void> {
    await this.w.run('DELETE FROM imported_root_folders WHERE name = ?', [name]);
  }

  async users(): Promise<Map<string, ImportUserRow>> {
    const rows = await this.w.all<ImportUserRow>('SELECT id, name, password_hash FROM users');
    return new Map(rows.map((r) => [r.name, r]));
  }

  async createUser(name: string, passwordHash: string, role: Role, mustChangePassword: boolean): Promise<number> {
    const r = await this.w.run('INSERT INTO users (name, password_hash, role, must_change_password) VALUES (?, ?, ?, ?)', [name, passwordHash, role, mustChangePassword ? 1 : 0]);
    return r.lastID;
  }

  /** The legacy hash of an imported user who has not logged in yet, replaced by kikoeru's newer one. */
  async replaceLegacyHash(id: number, oldHash: string, newHash: string, mustChangePassword: boolean): Promise<boolean> {
    const r = await this.w.run('UPDATE users SET password_hash = ?, must_change_password = ? WHERE id = ? AND password_hash = ?', [newHash, mustChangePassword ? 1 : 0, id, oldHash]);
    return r.changes > 0;
  }

  async works(): Promise<Map<number, ImportWorkRow>> {
    const rows = await this.w.all<ImportWorkRow>('SELECT id, root_folder, dir, missing, cover_source, metadata_status, metadata_source, metadata_updated_at, edited_fields, circle_id FROM works');
    return new Map(rows.map((r) => [r.id, r]));
  }

  async locationTaken(rootFolder: string, dir: string): Promise<boolean> {
    return (await this.w.get('SELECT 1 AS x FROM works WHERE root_folder = ? AND dir = ?', [rootFolder, dir])) !== undefined;
  }

  /** Every work's file paths by stable number. */
  async fileNumbers(): Promise<Map<number, { n: number; path: string }[]>> {
    const out = new Map<number, { n: number; path: string }[]>();
    for (const r of await this.w.all<{ work_id: number; n: number; path: string }>('SELECT work_id, n, path FROM files')) {
      const list = out.get(r.work_id) ?? [];
      list.push({ n: r.n, path: r.path });
      out.set(r.work_id, list);
    }
    return out;
  }

  private async writeLabels(id: number, md: ImportWorkMetadata, oldCircle: number | null): Promise<void> {
    // kikoplay's own names win: a label already known keeps the name its scans gave it
    const oldTags = (await this.w.all<{ tag_id: number }>('SELECT tag_id FROM work_tags WHERE work_id = ?', [id])).map((r) => r.tag_id);
    const oldVas = (await this.w.all<{ va_id: string }>('SELECT va_id FROM work_vas WHERE work_id = ?', [id])).map((r) => r.va_id);
    for (const t of md.tags) await this.w.run('INSERT INTO tags (id, name) VALUES (?, ?) ON CONFLICT (id) DO NOTHING', [t.id, t.name]);
    for (const v of md.vas) await this.w.run('INSERT INTO vas (id, name) VALUES (?, ?) ON CONFLICT (id) DO NOTHING', [v.id, v.name]);
    await this.w.run('DELETE FROM work_tags WHERE work_id = ?', [id]);
    for (const t of md.tags) await this.w.run('INSERT OR IGNORE INTO work_tags (work_id, tag_id) VALUES (?, ?)', [id, t.id]);
    await this.w.run('DELETE FROM work_vas WHERE work_id = ?', [id]);
    for (const [i, v] of md.vas.entries()) await this.w.run('INSERT OR IGNORE INTO work_vas (work_id, va_id, position) VALUES (?, ?, ?)', [id, v.id, i]);
    this.touched.circles.add(md.circle.id);
    if (oldCircle !== null) this.touched.circles.add(oldCircle);
    for (const t of [...oldTags, ...md.tags.map((x) => x.id)]) this.touched.tags.add(t);
    for (const v of [...oldVas, ...md.vas.map((x) => x.id)]) this.touched.vas.add(v);
    this.touched.fts.add(id);
  }

  /** A work kikoplay does not have yet, with kikoeru's metadata marked as known (a scan does not fetch it). */
  async insertWork(x: ImportNewWork): Promise<void> {
    await this.upsertCircle(x.circle);
    await this.w.run(
      `INSERT INTO works (id, code, title, circle_id, nsfw, release, dl_count, price, review_count, rate_count, rate_average_2dp,
         rate_count_detail, rank, has_local_lyric, total_duration, root_folder, dir, missing, missing_since,
         metadata_status, metadata_source, metadata_updated_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'ok', 'kikoeru', ?, ?, ?)`,
      [
        x.id,
        x.code,
        x.title,
        x.circle.id,
        x.nsfw ? 1 : 0,
        x.release,
        x.dlCount,
        x.price,
        x.reviewCount,
        x.rateCount,
        x.rateAverage,
        x.rateCountDetail,
        x.rank,
        x.hasLocalLyric ? 1 : 0,
        x.totalDuration,
        x.rootFolder,
        x.dir,
        x.missing ? 1 : 0,
        x.missing ? x.now : null,
        x.sourceUpdatedAt,
        x.createdAt,
        x.sourceUpdatedAt,
      ],
    );
    await this.writeLabels(x.id, x, null);
  }

  /** kikoplay's own names win: a circle already known keeps the name its scans gave it (an empty one is filled). */
  private async upsertCircle(c: { id: number; name: string }): Promise<void> {
    await this.w.run("INSERT INTO circles (id, name) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET name = excluded.name WHERE circles.name = ''", [c.id, c.name]);
  }

  /** kikoeru's metadata over a work kikoplay has (location, files and covers stay). */
  async updateWorkMetadata(id: number, md: ImportWorkMetadata, oldCircle: number): Promise<void> {
    await this.upsertCircle(md.circle);
    await this.w.run(
      `UPDATE works SET title = ?, circle_id = ?, nsfw = ?, release = ?, dl_count = ?, price = ?, review_count = ?, rate_count = ?,
         rate_average_2dp = ?, rate_count_detail = ?, rank = ?, metadata_status = 'ok', metadata_source = 'kikoeru', metadata_attempts = 0,
         metadata_error = NULL, metadata_next_at = NULL, metadata_updated_at = ?,
         total_duration = CASE WHEN fingerprint IS NULL THEN ? ELSE total_duration END,
         has_local_lyric = CASE WHEN fingerprint IS NULL THEN ? ELSE has_local_lyric END
       WHERE id = ?`,
      [
        md.title,
        md.circle.id,
        md.nsfw ? 1 : 0,
        md.release,
        md.dlCount,
        md.price,
        md.reviewCount,
        md.rateCount,
        md.rateAverage,
        md.rateCountDetail,
        md.rank,
        md.sourceUpdatedAt,
        md.totalDuration,
        md.hasLocalLyric ? 1 : 0,
        id,
      ],
    );
    await this.writeLabels(id, md, oldCircle);
  }

  async setCoverSource(ids: number[], now: string): Promise<void> {
    for (const id of ids) await this.w.run("UPDATE works SET cover_source = 'dlsite', cover_updated_at = ? WHERE id = ?", [now, id]);
  }

  /** Reviews of the given users: `<userId>\0<workId>` → updated_at. */
  async reviewStamps(): Promise<Map<string, string>> {
    const rows = await this.w.all<{ user_id: number; work_id: number; updated_at: string }>('SELECT user_id, work_id, updated_at FROM reviews');
    return new Map(rows.map((r) => [key(r.user_id, r.work_id), r.updated_at]));
  }

  async putReview(r: ImportReview): Promise<void> {
    await this.w.run(
      `INSERT INTO reviews (user_id, work_id, rating, review_text, progress, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (user_id, work_id) DO UPDATE SET rating = excluded.rating, review_text = excluded.review_text,
         progress = excluded.progress, updated_at = excluded.updated_at`,
      [r.userId, r.workId, r.rating, r.text, r.progress, r.createdAt, r.updatedAt],
    );
  }

  async historyStamps(): Promise<Map<string, string>> {
    const rows = await this.w.all<{ user_id: number; work_id: number; updated_at: string }>('SELECT user_id, work_id, updated_at FROM play_history');
    return new Map(rows.map((r) => [key(r.user_id, r.work_id), r.updated_at]));
  }

  async putHistory(userId: number, workId: number, state: string, createdAt: string, updatedAt: string): Promise<void> {
    await this.w.run(
      `INSERT INTO play_history (user_id, work_id, state, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (user_id, work_id) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at`,
      [userId, workId, state, createdAt, updatedAt],
    );
  }

  /** AI tasks: `<workId>\0<audioPath>` → id and updated_at. */
  /** Each task's row id, time and state (what an earlier import stored, or what kikoplay made of it since). */
  async taskStamps(): Promise<Map<string, { id: number; updated_at: string; status: number; worker_status: string; hasLrc: boolean }>> {
    const rows = await this.w.all<{ id: number; work_id: number; audio_path: string; updated_at: string; status: number; worker_status: string | null; has_lrc: number }>(
      'SELECT id, work_id, audio_path, updated_at, status, worker_status, lrc IS NOT NULL AS has_lrc FROM ai_tasks',
    );
    return new Map(rows.map((r) => [key(r.work_id, r.audio_path), { id: r.id, updated_at: r.updated_at, status: r.status, worker_status: r.worker_status ?? '', hasLrc: r.has_lrc === 1 }]));
  }

  async putTask(t: ImportTask, existingId: number | null): Promise<void> {
    if (existingId === null) {
      await this.w.run(
        `INSERT INTO ai_tasks (work_id, audio_path, status, worker_name, worker_status, secret, lease_expires_at, lrc, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, NULL, ?, ?, ?, ?)`,
        [t.workId, t.audioPath, t.status, t.workerName, t.workerStatus, t.leaseExpiresAt, t.lrc, t.createdAt, t.updatedAt],
      );
    } else {
      await this.w.run('UPDATE ai_tasks SET status = ?, worker_name = ?, worker_status = ?, secret = NULL, lease_expires_at = ?, lrc = ?, updated_at = ? WHERE id = ?', [
        t.status,
        t.workerName,
        t.workerStatus,
        t.leaseExpiresAt,
        t.lrc,
        t.updatedAt,
        existingId,
      ]);
    }
    this.touched.aiFlag.add(t.workId);
  }

  /** Search rows, label counts and AI lyric flags of what was written. */
  async finish(): Promise<void> {
    for (const id of this.touched.fts) await writeWorkFts(this.w, id);
    if (this.touched.fts.size) await this.w.run('UPDATE library_state SET version = version + 1 WHERE id = 1');
    await recountLabels(this.w, { circles: [...this.touched.circles], tags: [...this.touched.tags], vas: [...this.touched.vas] });
    const ids = [...this.touched.aiFlag];
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = ids.slice(i, i + 500);
      const has = 'EXISTS (SELECT 1 FROM ai_tasks a WHERE a.work_id = works.id AND a.status = 3)';
      await this.w.run(`UPDATE works SET has_ai_lyric = ${has} WHERE id IN (${chunk.map(() => '?').join(', ')}) AND has_ai_lyric != ${has}`, chunk);
    }
  }
}

export const importKey = key;
