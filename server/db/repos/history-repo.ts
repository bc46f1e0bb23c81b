import type { Database } from '../connection.js';
import { sqlNow } from '../../domain/time.js';

export interface HistoryRow {
  user_id: number;
  work_id: number;
  state: string;
  created_at: string;
  updated_at: string;
}

export class HistoryRepo {
  constructor(private readonly db: Database) {}

  get(userId: number, workId: number): Promise<HistoryRow | undefined> {
    return this.db.get<HistoryRow>('SELECT * FROM play_history WHERE user_id = ? AND work_id = ?', [userId, workId]);
  }

  /**
   * Store the user's play state of a work, unless the user's states of all other works plus this one
   * would pass `maxUserBytes` (then false, nothing written). Checked and written in one transaction.
   */
  async upsert(userId: number, workId: number, stateJson: string, maxUserBytes = Infinity): Promise<boolean> {
    const now = sqlNow();
    return this.db.tx(async (w) => {
      if (Number.isFinite(maxUserBytes)) {
        // octet_length reads the stored size, not the content
        const others = await w.get<{ bytes: number }>('SELECT COALESCE(SUM(octet_length(state)), 0) AS bytes FROM play_history WHERE user_id = ? AND work_id <> ?', [userId, workId]);
        if ((others?.bytes ?? 0) + Buffer.byteLength(stateJson) > maxUserBytes) return false;
      }
      await w.run(
        `INSERT INTO play_history (user_id, work_id, state, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (user_id, work_id) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at`,
        [userId, workId, stateJson, now, now],
      );
      return true;
    });
  }

  async delete(userId: number, workId: number): Promise<number> {
    return (await this.db.run('DELETE FROM play_history WHERE user_id = ? AND work_id = ?', [userId, workId])).changes;
  }

  async page(userId: number, opts: { sort: 'asc' | 'desc'; offset: number; limit: number }): Promise<{ rows: HistoryRow[]; total: number }> {
    const dir = opts.sort === 'asc' ? 'ASC' : 'DESC';
    const rows = await this.db.all<HistoryRow>(`SELECT * FROM play_history WHERE user_id = ? ORDER BY updated_at ${dir}, work_id ${dir} LIMIT ? OFFSET ?`, [userId, opts.limit, opts.offset]);
    const total = await this.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM play_history WHERE user_id = ?', [userId]);
    return { rows, total: total?.n ?? 0 };
  }
}
