import type { Database } from '../connection.js';
import { sqlNow } from '../../domain/time.js';
import type { Progress } from '../../contract/works.js';

export interface ReviewRow {
  user_id: number;
  work_id: number;
  rating: number | null;
  review_text: string | null;
  progress: Progress | null;
  created_at: string;
  updated_at: string;
}

/** Favourites sort fields → SQL over `reviews r JOIN works w`. */
const ORDER_SQL: Record<string, string> = {
  updated_at: 'r.updated_at',
  userRating: 'r.rating',
  rating: 'r.rating',
  release: 'w.release',
  review_count: 'w.review_count',
  dl_count: 'w.dl_count',
  nsfw: 'w.nsfw',
  allage: 'w.nsfw',
  price: 'w.price',
  rate_average_2dp: 'w.rate_average_2dp',
  id: 'w.id',
  created_at: 'r.created_at',
};

export class ReviewsRepo {
  constructor(private readonly db: Database) {}

  /** Whether a work row exists (missing works included: users keep their data on them). */
  async workExists(workId: number): Promise<boolean> {
    return (await this.db.get('SELECT 1 AS x FROM works WHERE id = ?', [workId])) !== undefined;
  }

  get(userId: number, workId: number): Promise<ReviewRow | undefined> {
    return this.db.get<ReviewRow>('SELECT * FROM reviews WHERE user_id = ? AND work_id = ?', [userId, workId]);
  }

  /**
   * Write some fields of a user's review row (created when absent). A row left with no rating, no text and
   * no progress is removed, so "my ratings" lists only works the user really marked. False (nothing
   * written) when a new text would take the user's review texts past `maxUserTextBytes`.
   */
  async upsert(userId: number, workId: number, fields: { rating?: number | null; review_text?: string | null; progress?: Progress | null }, maxUserTextBytes = Infinity): Promise<boolean> {
    const now = sqlNow();
    return this.db.tx(async (w) => {
      // a new text must fit beside the user's texts of every other work (octet_length reads the stored size only)
      if (fields.review_text && Number.isFinite(maxUserTextBytes)) {
        const others = await w.get<{ bytes: number }>('SELECT COALESCE(SUM(octet_length(review_text)), 0) AS bytes FROM reviews WHERE user_id = ? AND work_id <> ?', [userId, workId]);
        if ((others?.bytes ?? 0) + Buffer.byteLength(fields.review_text) > maxUserTextBytes) return false;
      }
      const existing = await w.get<ReviewRow>('SELECT * FROM reviews WHERE user_id = ? AND work_id = ?', [userId, workId]);
      const next = {
        rating: fields.rating !== undefined ? fields.rating : (existing?.rating ?? null),
        review_text: fields.review_text !== undefined ? fields.review_text : (existing?.review_text ?? null),
        progress: fields.progress !== undefined ? fields.progress : (existing?.progress ?? null),
      };
      if (next.rating === null && !next.review_text && next.progress === null) {
        await w.run('DELETE FROM reviews WHERE user_id = ? AND work_id = ?', [userId, workId]);
        return true;
      }
      await w.run(
        `INSERT INTO reviews (user_id, work_id, rating, review_text, progress, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (user_id, work_id) DO UPDATE SET
           rating = excluded.rating, review_text = excluded.review_text, progress = excluded.progress, updated_at = excluded.updated_at`,
        [userId, workId, next.rating, next.review_text, next.progress, now, now],
      );
      return true;
    });
  }

  async delete(userId: number, workId: number): Promise<number> {
    return (await this.db.run('DELETE FROM reviews WHERE user_id = ? AND work_id = ?', [userId, workId])).changes;
  }

  /** One page of the user's reviewed works (ids in order) and the total. Missing works stay listed: the review is the user's. */
  async page(userId: number, opts: { filter?: Progress; order: string; sort: 'asc' | 'desc'; offset: number; limit: number }): Promise<{ rows: ReviewRow[]; total: number }> {
    const where = ['r.user_id = ?'];
    const params: (string | number)[] = [userId];
    if (opts.filter) {
      where.push('r.progress = ?');
      params.push(opts.filter);
    }
    const dir = opts.sort === 'asc' ? 'ASC' : 'DESC';
    const col = ORDER_SQL[opts.order] ?? ORDER_SQL.updated_at;
    const nulls = col === 'r.rating' ? `${col} IS NULL, ` : '';
    const rows = await this.db.all<ReviewRow>(
      `SELECT r.* FROM reviews r JOIN works w ON w.id = r.work_id
       WHERE ${where.join(' AND ')}
       ORDER BY ${nulls}${col} ${dir}, r.updated_at DESC, r.work_id DESC LIMIT ? OFFSET ?`,
      [...params, opts.limit, opts.offset],
    );
    const total = await this.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM reviews r WHERE ${where.join(' AND ')}`, params);
    return { rows, total: total?.n ?? 0 };
  }
}
