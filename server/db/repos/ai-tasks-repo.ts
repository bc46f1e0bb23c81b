import type { Database, Reader, SqlValue, WriteHandle } from '../connection.js';
import { AiStatus as AI_STATUS, type AiStatusCode } from '../../domain/ai-status.js';

/** An account that acted on a task: a login user or a worker token, by name (as it was then). */
export interface TaskAccount {
  kind: 'user' | 'token';
  name: string;
}

export interface AiTaskRow {
  id: number;
  work_id: number;
  audio_path: string;
  status: AiStatusCode;
  worker_name: string;
  worker_status: string;
  acquired_by_kind: string | null;
  acquired_by_name: string | null;
  finished_by_kind: string | null;
  finished_by_name: string | null;
  title: string | null;
  created_at: string;
  updated_at: string;
}

/** Where a track lives: the work's root alias and folder plus the file's relative path and kind. */
export interface TrackLocation {
  work_id: number;
  title: string;
  root_folder: string;
  dir: string;
  path: string;
  kind: string;
}

/** An acquired task as the worker endpoints see it. */
export interface LeasedTask {
  id: number;
  work_id: number;
  audio_path: string;
  worker_status: string;
  root_folder: string | null;
  dir: string | null;
}

export interface TaskFilter {
  statuses: number[];
  workId?: number;
  fileName?: string;
}

const TASK_COLUMNS = `t.id, t.work_id, t.audio_path, t.status, t.worker_name, t.worker_status,
  t.acquired_by_kind, t.acquired_by_name, t.finished_by_kind, t.finished_by_name, w.title, t.created_at, t.updated_at`;

/** Clears who acquired and finished a task (it goes back to the queue). */
const CLEAR_ACCOUNTS = 'acquired_by_kind = NULL, acquired_by_name = NULL, finished_by_kind = NULL, finished_by_name = NULL';

const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => '\\' + c);

function whereOf(filter: TaskFilter): { sql: string; params: SqlValue[] } {
  const parts: string[] = [];
  const params: SqlValue[] = [];
  if (filter.statuses.length) {
    parts.push(`t.status IN (${filter.statuses.map(() => '?').join(', ')})`);
    params.push(...filter.statuses);
  }
  if (filter.workId) {
    parts.push('t.work_id = ?');
    params.push(filter.workId);
  }
  if (filter.fileName) {
    parts.push("t.audio_path LIKE ? ESCAPE '\\'");
    params.push(`%${likeEscape(filter.fileName)}%`);
  }
  return { sql: parts.length ? `WHERE ${parts.join(' AND ')}` : '', params };
}

/** Recompute works.has_ai_lyric ("at least one successful task") for some works; writes only on change. */
async function refreshAiLyricFlag(w: WriteHandle, workIds: number[]): Promise<void> {
  const ids = [...new Set(workIds)];
  if (!ids.length) return;
  const has = `EXISTS (SELECT 1 FROM ai_tasks a WHERE a.work_id = works.id AND a.status = ${AI_STATUS.SUCCESS})`;
  await w.run(`UPDATE works SET has_ai_lyric = ${has} WHERE id IN (${ids.map(() => '?').join(', ')}) AND has_ai_lyric != ${has}`, ids);
}

/** The AI transcription queue (ai_tasks) and the works.has_ai_lyric flag it drives. */
export class AiTasksRepo {
  constructor(private readonly db: Database) {}

  /** A work file by its stable number, with the work's location. */
  track(workId: number, n: number): Promise<TrackLocation | undefined> {
    return this.db.get<TrackLocation>(
      `SELECT w.id AS work_id, w.title, w.root_folder, w.dir, f.path, f.kind
       FROM works w JOIN files f ON f.work_id = w.id WHERE w.id = ? AND f.n = ?`,
      [workId, n],
    );
  }

  async workExists(workId: number): Promise<boolean> {
    return (await this.db.get('SELECT 1 AS x FROM works WHERE id = ?', [workId])) !== undefined;
  }

  byId(id: number, r: Reader = this.db): Promise<AiTaskRow | undefined> {
    return r.get<AiTaskRow>(`SELECT ${TASK_COLUMNS} FROM ai_tasks t LEFT JOIN works w ON w.id = t.work_id WHERE t.id = ?`, [id]);
  }

  /** Tasks of one work (oldest first): the tree badges and the player's AI lyric choice use them. */
  ofWork(workId: number): Promise<AiTaskRow[]> {
    return this.db.all<AiTaskRow>(`SELECT ${TASK_COLUMNS} FROM ai_tasks t LEFT JOIN works w ON w.id = t.work_id WHERE t.work_id = ? ORDER BY t.id`, [workId]);
  }

  /** The LRC of a successful task, or undefined. */
  async successfulLrc(id: number): Promise<string | undefined> {
    const row = await this.db.get<{ lrc: string | null }>('SELECT lrc FROM ai_tasks WHERE id = ? AND status = ?', [id, AI_STATUS.SUCCESS]);
    return row ? (row.lrc ?? '') : undefined;
  }

  async page(filter: TaskFilter, limit: number, offset: number): Promise<{ rows: AiTaskRow[]; total: number }> {
    const where = whereOf(filter);
    const total = await this.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ai_tasks t ${where.sql}`, where.params);
    const rows = await this.db.all<AiTaskRow>(
      `SELECT ${TASK_COLUMNS} FROM ai_tasks t LEFT JOIN works w ON w.id = t.work_id ${where.sql}
       ORDER BY t.updated_at DESC, t.id DESC LIMIT ? OFFSET ?`,
      [...where.params, limit, offset],
    );
    return { rows, total: total?.n ?? 0 };
  }

  /**
   * Create a PENDING task unless the same work + path already has one, or (with `maxPendingOfCreator`)
   * its creator already has that many PENDING tasks.
   * Returns the new id, `{ duplicate: id }` of the existing task, or `{ pendingOfCreator: n }`.
   */
  create(workId: number, audioPath: string, createdBy: number | null, now: string, maxPendingOfCreator = Infinity): Promise<{ id: number } | { duplicate: number } | { pendingOfCreator: number }> {
    return this.db.tx(async (w) => {
      const existing = await w.get<{ id: number }>('SELECT id FROM ai_tasks WHERE work_id = ? AND audio_path = ?', [workId, audioPath]);
      if (existing) return { duplicate: existing.id };
      if (createdBy !== null && Number.isFinite(maxPendingOfCreator)) {
        const pending = await w.get<{ n: number }>('SELECT COUNT(*) AS n FROM ai_tasks WHERE status = ? AND created_by = ?', [AI_STATUS.PENDING, createdBy]);
        if ((pending?.n ?? 0) >= maxPendingOfCreator) return { pendingOfCreator: pending?.n ?? 0 };
      }
      const r = await w.run('INSERT INTO ai_tasks (work_id, audio_path, status, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)', [
        workId,
        audioPath,
        AI_STATUS.PENDING,
        createdBy,
        now,
        now,
      ]);
      return { id: r.lastID };
    });
  }

  /** Who requested each of the existing tasks among `ids` (users.id; null when that user is gone). Missing ids are absent. */
  async creators(ids: number[]): Promise<Map<number, number | null>> {
    if (!ids.length) return new Map();
    const found = await this.db.all<{ id: number; created_by: number | null }>(`SELECT id, created_by FROM ai_tasks WHERE id IN (${ids.map(() => '?').join(', ')})`, ids);
    return new Map(found.map((r) => [r.id, r.created_by]));
  }

  /** Delete tasks (with their LRC); the works' AI flag follows. Returns the number deleted. */
  delete(ids: number[]): Promise<number> {
    return this.db.tx(async (w) => {
      const list = ids.map(() => '?').join(', ');
      const works = await w.all<{ work_id: number }>(`SELECT DISTINCT work_id FROM ai_tasks WHERE id IN (${list})`, ids);
      const r = await w.run(`DELETE FROM ai_tasks WHERE id IN (${list})`, ids);
      await refreshAiLyricFlag(
        w,
        works.map((x) => x.work_id),
      );
      return r.changes;
    });
  }

  /** Back to PENDING from any status: worker, secret, lease and old result cleared. */
  redo(ids: number[], now: string): Promise<number> {
    return this.db.tx(async (w) => {
      const list = ids.map(() => '?').join(', ');
      const works = await w.all<{ work_id: number }>(`SELECT DISTINCT work_id FROM ai_tasks WHERE id IN (${list})`, ids);
      const r = await w.run(
        `UPDATE ai_tasks SET status = ?, worker_name = '', worker_status = '', secret = NULL, lease_expires_at = NULL, lrc = NULL, updated_at = ?,
           ${CLEAR_ACCOUNTS}
         WHERE id IN (${list})`,
        [AI_STATUS.PENDING, now, ...ids],
      );
      await refreshAiLyricFlag(
        w,
        works.map((x) => x.work_id),
      );
      return r.changes;
    });
  }

  /** Re-queue TRASCRIPTING tasks whose lease ended before `now`. Returns how many. */
  async requeueExpired(now: string, w?: WriteHandle): Promise<number> {
    const sql = `UPDATE ai_tasks SET status = ?, secret = NULL, lease_expires_at = NULL, updated_at = ?,
                   worker_status = 'lease expired: ' || worker_name || ' stopped reporting; waiting for a worker', worker_name = '',
                   ${CLEAR_ACCOUNTS}
                 WHERE status = ? AND lease_expires_at < ?`;
    const params = [AI_STATUS.PENDING, now, AI_STATUS.TRASCRIPTING, now];
    return (await (w ? w.run(sql, params) : this.db.run(sql, params))).changes;
  }

  /**
   * Atomically hand the oldest PENDING task to a worker (expired leases are re-queued first), recording
   * the account that took it. Returns the task and its path, or undefined when nothing is pending.
   */
  acquire(workerName: string, by: TaskAccount, secret: string, now: string, leaseUntil: string): Promise<{ id: number; audio_path: string } | undefined> {
    return this.db.tx(async (w) => {
      await this.requeueExpired(now, w);
      const next = await w.get<{ id: number; audio_path: string }>('SELECT id, audio_path FROM ai_tasks WHERE status = ? ORDER BY id LIMIT 1', [AI_STATUS.PENDING]);
      if (!next) return undefined;
      await w.run(
        `UPDATE ai_tasks SET status = ?, worker_name = ?, worker_status = 'task acquired', secret = ?, lease_expires_at = ?, updated_at = ?,
           acquired_by_kind = ?, acquired_by_name = ?, finished_by_kind = NULL, finished_by_name = NULL
         WHERE id = ? AND status = ?`,
        [AI_STATUS.TRASCRIPTING, workerName, secret, leaseUntil, now, by.kind, by.name, next.id, AI_STATUS.PENDING],
      );
      return next;
    });
  }

  /** A progress report: sets worker_status (when given) and extends the lease. False when the task is not held with this secret. */
  async report(id: number, secret: string, workerStatus: string | undefined, now: string, leaseUntil: string): Promise<boolean> {
    const r =
      workerStatus === undefined
        ? await this.db.run('UPDATE ai_tasks SET lease_expires_at = ? WHERE id = ? AND status = ? AND secret = ?', [leaseUntil, id, AI_STATUS.TRASCRIPTING, secret])
        : await this.db.run('UPDATE ai_tasks SET worker_status = ?, lease_expires_at = ?, updated_at = ? WHERE id = ? AND status = ? AND secret = ?', [
            workerStatus,
            leaseUntil,
            now,
            id,
            AI_STATUS.TRASCRIPTING,
            secret,
          ]);
    return r.changes > 0;
  }

  /** The held task with its work's location (lease extended), or undefined when id + secret do not match. */
  async held(id: number, secret: string, leaseUntil: string): Promise<LeasedTask | undefined> {
    if (!(await this.report(id, secret, undefined, '', leaseUntil))) return undefined;
    return this.db.get<LeasedTask>(
      `SELECT t.id, t.work_id, t.audio_path, t.worker_status, w.root_folder, w.dir
       FROM ai_tasks t LEFT JOIN works w ON w.id = t.work_id WHERE t.id = ? AND t.status = ? AND t.secret = ?`,
      [id, AI_STATUS.TRASCRIPTING, secret],
    );
  }

  /** Finish a held task: SUCCESS with its LRC, or ERROR, recording who sent it. False (nothing changed) when not held with this secret. */
  finish(id: number, secret: string, success: boolean, lrc: string, by: TaskAccount, now: string): Promise<boolean> {
    return this.db.tx(async (w) => {
      const task = await w.get<{ work_id: number }>('SELECT work_id FROM ai_tasks WHERE id = ? AND status = ? AND secret = ?', [id, AI_STATUS.TRASCRIPTING, secret]);
      if (!task) return false;
      await w.run('UPDATE ai_tasks SET status = ?, lrc = ?, secret = NULL, lease_expires_at = NULL, updated_at = ?, finished_by_kind = ?, finished_by_name = ? WHERE id = ?', [
        success ? AI_STATUS.SUCCESS : AI_STATUS.ERROR,
        success ? lrc : null,
        now,
        by.kind,
        by.name,
        id,
      ]);
      await refreshAiLyricFlag(w, [task.work_id]);
      return true;
    });
  }
}
