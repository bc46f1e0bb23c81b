import type { Database, SqlValue } from '../connection.js';
import { StampedCache } from '../stamped-cache.js';
import type { WorkFilter } from '../../contract/works-query.js';
import type { UserWorkRow, WorkRow } from '../../contract/works.js';
import { isIndexableTerm } from '../../contract/works-query.js';

/**
 * Sort keys backed by an index of the works table: all columns in the list's direction (ties by
 * release and id, or by id), except `nsfw`, whose direction only picks which age group comes first
 * (newest release first within each).
 */
export type OrderKey = 'release' | 'dl_count' | 'price' | 'rate_average_2dp' | 'review_count' | 'id' | 'created_at' | 'updated_at' | 'nsfw';
export type Direction = 'asc' | 'desc';

/**
 * The set a list query is driven from. `null` = walk the works in index order and test every
 * condition per row (best when the matching works are dense); a driver = enumerate that set and sort
 * it (best when it is small). The works service chooses; both give the same rows.
 */
export type Driver = { kind: 'code'; id: number } | { kind: 'circle'; id: number } | { kind: 'tag'; id: number } | { kind: 'va'; id: string } | { kind: 'fts'; match: string };

export interface ListSpec {
  filter: WorkFilter;
  driver: Driver | null;
  /** Leave out the works this user rated (the unrated part of `order=rating`). */
  excludeRatedBy?: number;
}

/** The index whose order each sort key follows, per direction (migrations 001 and 006). */
const ORDER_INDEX: Record<OrderKey, string | null | Record<Direction, string>> = {
  release: 'works_by_release',
  created_at: 'works_by_created',
  updated_at: 'works_by_updated',
  dl_count: 'works_by_dl_count',
  price: 'works_by_price',
  rate_average_2dp: 'works_by_rate',
  review_count: 'works_by_review_count',
  nsfw: { asc: 'works_by_nsfw_asc', desc: 'works_by_nsfw_desc' },
  id: null,
};

/** ORDER BY columns of each key; a direction given here is fixed, the others follow the list's. */
const ORDER_COLUMNS: Record<OrderKey, (string | [string, Direction])[]> = {
  release: ['w.release', 'w.id'],
  created_at: ['w.created_at', 'w.id'],
  updated_at: ['w.updated_at', 'w.id'],
  dl_count: ['w.dl_count', 'w.release', 'w.id'],
  price: ['w.price', 'w.release', 'w.id'],
  rate_average_2dp: ['w.rate_average_2dp', 'w.release', 'w.id'],
  review_count: ['w.review_count', 'w.release', 'w.id'],
  nsfw: ['w.nsfw', ['w.release', 'desc'], ['w.id', 'desc']],
  id: ['w.id'],
};

const SQL_DIRECTION: Record<Direction, string> = { asc: 'ASC', desc: 'DESC' };
const orderBy = (order: OrderKey, dir: Direction) => ORDER_COLUMNS[order].map((c) => (typeof c === 'string' ? `${c} ${SQL_DIRECTION[dir]}` : `${c[0]} ${SQL_DIRECTION[c[1]]}`)).join(', ');

const orderIndex = (order: OrderKey, dir: Direction): string | null => {
  const index = ORDER_INDEX[order];
  return index === null || typeof index === 'string' ? index : index[dir];
};

export { isIndexableTerm };

/** FTS5 query of the indexable terms: each a quoted phrase (quotes doubled), ANDed. Null when none. */
export function ftsMatchExpression(terms: string[]): string | null {
  const long = terms.filter(isIndexableTerm);
  return long.length ? long.map((t) => `"${t.replace(/"/g, '""')}"`).join(' AND ') : null;
}

interface Sql {
  from: string;
  where: string[];
  params: SqlValue[];
}

const placeholders = (n: number) => new Array(n).fill('?').join(',');

/** Ids from a group_concat string, without the garbage of a split into 100k substrings. */
function parseIds(text: string | null | undefined): number[] {
  const out: number[] = [];
  if (!text) return out;
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 44) {
      out.push(n);
      n = 0;
    } else {
      n = n * 10 + (c - 48);
    }
  }
  out.push(n);
  return out;
}

const HYDRATE_COLUMNS = `
  w.id, w.code, w.created_at, w.updated_at, w.title, w.circle_id, c.name AS circle_name, w.nsfw, w.release,
  w.dl_count, w.price, w.review_count, w.rate_count, w.rate_average_2dp, w.rate_count_detail, w.rank,
  w.has_local_lyric, w.has_ai_lyric, w.total_duration, w.metadata_status, w.metadata_error,
  (SELECT json_group_array(json_array(t.id, t.name) ORDER BY t.id)
     FROM work_tags wt JOIN tags t ON t.id = wt.tag_id WHERE wt.work_id = w.id) AS tags_json,
  (SELECT json_group_array(json_array(v.id, v.name) ORDER BY wv.position, v.name)
     FROM work_vas wv JOIN vas v ON v.id = wv.va_id WHERE wv.work_id = w.id) AS vas_json,
  CASE WHEN w.related IS NULL OR NOT json_valid(w.related) THEN NULL ELSE
    (SELECT json_group_array(json_array(w2.id, coalesce(je.value ->> 'name', w2.title)))
       FROM json_each(w.related) je JOIN works w2 ON w2.id = (je.value ->> 'id') AND w2.missing = 0)
  END AS related_json`;

/**
 * Read side of the work lists, search and detail (docs/ARCHITECTURE.md#the-work-list-planner).
 * Lists page ids through
 * an indexed ORDER BY (or a small driving set), then hydrate only that page in one query; counts are
 * single indexed queries the service caches per library version.
 */
export class WorksQueryRepo {
  constructor(private readonly db: Database) {}

  /** Run `fn`, whose reads through this repository may be costly, on the database's costly connection. */
  costly<T>(timeoutMs: number, fn: () => Promise<T>, admit?: () => void, waitMs?: number): Promise<T> {
    return this.db.costly(timeoutMs, fn, admit, waitMs);
  }

  /** The last version read, kept while the database files show no commit. */
  private readonly known = new StampedCache<'version', number>(() => this.fileStamp());

  /**
   * The library version, bumped by triggers on every write that changes lists (migration 003).
   * Every commit (of any process) rewrites the WAL, so while the database and WAL files are
   * unchanged since the last read the version cannot have moved and the query is skipped.
   */
  version(): Promise<number> {
    return this.known.get('version', async () => (await this.db.get<{ version: number }>('SELECT version FROM library_state WHERE id = 1'))?.version ?? 0);
  }

  /** See Database.changeStamp. */
  fileStamp(): string | null {
    return this.db.changeStamp();
  }

  /** Number of listed (non-missing) works. */
  async visibleCount(): Promise<number> {
    const row = await this.db.get<{ n: number }>('SELECT count(*) AS n FROM works WHERE missing = 0');
    return row?.n ?? 0;
  }

  /** Missing works whose search text holds every term (few: the missing part of the index). */
  async missingMatching(terms: string[]): Promise<number> {
    if (!terms.length) return 0;
    const row = await this.db.get<{ n: number }>(
      `SELECT count(*) AS n FROM works w INDEXED BY works_by_release JOIN works_fts_content xf ON xf.id = w.id
        WHERE w.missing = 1 AND ${terms.map(() => 'instr(xf.c0, ?) > 0').join(' AND ')}`,
      terms,
    );
    return row?.n ?? 0;
  }

  /** One page of ids in list order, with the user's star ratings of them (read in the same pass). */
  async pageIds(spec: ListSpec, order: OrderKey, dir: Direction, offset: number, limit: number, userId: number | null): Promise<{ ids: number[]; ratings: Map<number, number> }> {
    const q = this.build(spec, { key: order, dir });
    const rows = await this.db.all<{ id: number; rating: number | null }>(
      `SELECT w.id, r.rating FROM ${q.from} LEFT JOIN reviews r ON r.user_id = ? AND r.work_id = w.id
        WHERE ${q.where.join(' AND ')} ORDER BY ${orderBy(order, dir)} LIMIT ? OFFSET ?`,
      [userId ?? -1, ...q.params, limit, offset],
    );
    const ratings = new Map<number, number>();
    for (const r of rows) if (r.rating !== null) ratings.set(r.id, r.rating);
    return { ids: rows.map((r) => r.id), ratings };
  }

  /** Every id of the list in order (for deep pages and shuffles), read as one string. */
  async allIds(spec: ListSpec, order: OrderKey, dir: Direction): Promise<number[]> {
    const q = this.build(spec, { key: order, dir });
    const row = await this.db.get<{ ids: string | null }>(
      `SELECT group_concat(id) AS ids FROM (SELECT w.id AS id FROM ${q.from} WHERE ${q.where.join(' AND ')} ORDER BY ${orderBy(order, dir)})`,
      q.params,
    );
    return parseIds(row?.ids);
  }

  /** The ids of one set (unordered; may include missing works), read as one string. */
  async setIds(driver: Driver): Promise<number[]> {
    let row: { ids: string | null } | undefined;
    switch (driver.kind) {
      case 'code':
        return [driver.id];
      case 'circle':
        row = await this.db.get('SELECT group_concat(id) AS ids FROM works INDEXED BY works_circle WHERE circle_id = ?', [driver.id]);
        break;
      case 'tag':
        row = await this.db.get('SELECT group_concat(work_id) AS ids FROM work_tags INDEXED BY work_tags_by_tag WHERE tag_id = ?', [driver.id]);
        break;
      case 'va':
        row = await this.db.get('SELECT group_concat(work_id) AS ids FROM work_vas INDEXED BY work_vas_by_va WHERE va_id = ?', [driver.id]);
        break;
      case 'fts':
        row = await this.db.get('SELECT group_concat(rowid) AS ids FROM works_fts WHERE works_fts MATCH ?', [driver.match]);
        break;
    }
    return parseIds(row?.ids);
  }

  async count(spec: ListSpec): Promise<number> {
    const q = this.build(spec, null);
    const row = await this.db.get<{ n: number }>(`SELECT count(*) AS n FROM ${q.from} WHERE ${q.where.join(' AND ')}`, q.params);
    return row?.n ?? 0;
  }

  /** The works this user rated that match the filter, best (or worst, asc) first. */
  async ratedIds(userId: number, filter: WorkFilter, dir: Direction): Promise<number[]> {
    const q = this.build({ filter, driver: null }, null);
    const d = dir === 'asc' ? 'ASC' : 'DESC';
    const rows = await this.db.all<{ id: number }>(
      `SELECT w.id FROM reviews r CROSS JOIN works w ON w.id = r.work_id
        WHERE r.user_id = ? AND r.rating IS NOT NULL AND ${q.where.join(' AND ')}
        ORDER BY r.rating ${d}, w.release ${d}, w.id ${d}`,
      [userId, ...q.params],
    );
    return rows.map((r) => r.id);
  }

  /** List-form rows of some works, the same for every user (any order; missing works too, flagged). */
  async hydrate(ids: number[]): Promise<(WorkRow & { missing: number })[]> {
    if (!ids.length) return [];
    return this.db.all<WorkRow & { missing: number }>(
      `SELECT ${HYDRATE_COLUMNS}, w.missing
         FROM works w
         LEFT JOIN circles c ON c.id = w.circle_id
        WHERE w.id IN (${placeholders(ids.length)})`,
      ids,
    );
  }

  /** Every star rating of a user (by work id). */
  async allRatings(userId: number): Promise<Map<number, number>> {
    const rows = await this.db.all<{ work_id: number; rating: number }>('SELECT work_id, rating FROM reviews WHERE user_id = ? AND rating IS NOT NULL', [userId]);
    return new Map(rows.map((r) => [r.work_id, r.rating]));
  }

  /** The user's star ratings of some works (works without a rating are absent). */
  async ratings(userId: number, ids: number[]): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    if (!ids.length) return out;
    const rows = await this.db.all<{ work_id: number; rating: number }>(`SELECT work_id, rating FROM reviews WHERE user_id = ? AND work_id IN (${placeholders(ids.length)}) AND rating IS NOT NULL`, [
      userId,
      ...ids,
    ]);
    for (const r of rows) out.set(r.work_id, r.rating);
    return out;
  }

  /** The user's review and play-history rows of one work (nulls where there are none). */
  userWork(workId: number, userId: number | null): Promise<UserWorkRow | undefined> {
    return this.db.get<UserWorkRow>(
      `SELECT r.rating AS user_rating, r.review_text, r.progress, r.updated_at AS review_updated_at, u.name AS user_name,
              h.state AS history_state, h.updated_at AS history_updated_at
         FROM (SELECT ? AS uid, ? AS wid) k
         LEFT JOIN reviews r ON r.user_id = k.uid AND r.work_id = k.wid
         LEFT JOIN users u ON u.id = r.user_id
         LEFT JOIN play_history h ON h.user_id = k.uid AND h.work_id = k.wid`,
      [userId ?? -1, workId],
    );
  }

  /** FROM and WHERE of a list: the driving set (or the order index) plus every other condition as a test. */
  private build(spec: ListSpec, order: { key: OrderKey; dir: Direction } | null): Sql {
    const { filter, driver } = spec;
    const where: string[] = ['w.missing = 0'];
    const params: SqlValue[] = [];
    let from: string;
    switch (driver?.kind) {
      case 'code':
        from = 'works w';
        where.push('w.id = ?');
        params.push(driver.id);
        break;
      case 'circle':
        from = 'works w INDEXED BY works_circle';
        where.push('w.circle_id = ?');
        params.push(driver.id);
        break;
      case 'tag':
        from = 'work_tags s CROSS JOIN works w ON w.id = s.work_id';
        where.push('s.tag_id = ?');
        params.push(driver.id);
        break;
      case 'va':
        from = 'work_vas s CROSS JOIN works w ON w.id = s.work_id';
        where.push('s.va_id = ?');
        params.push(driver.id);
        break;
      case 'fts':
        from = 'works_fts CROSS JOIN works w ON w.id = works_fts.rowid';
        where.push('works_fts MATCH ?');
        params.push(driver.match);
        break;
      default: {
        const index = order ? orderIndex(order.key, order.dir) : undefined;
        from = index === undefined ? 'works w' : index === null ? 'works w NOT INDEXED' : `works w INDEXED BY ${index}`;
      }
    }

    if (filter.nsfw === 1) where.push('w.nsfw = 0');
    if (filter.nsfw === 2) where.push('w.nsfw = 1');
    if (filter.lyric?.length) {
      const any = filter.lyric.map((p) => (p === 'local' ? 'w.has_local_lyric = 1' : p === 'ai' ? 'w.has_ai_lyric = 1' : '(w.has_local_lyric = 0 AND w.has_ai_lyric = 0)'));
      where.push(`(${any.join(' OR ')})`);
    }
    if (spec.excludeRatedBy !== undefined) {
      where.push('NOT EXISTS (SELECT 1 FROM reviews rx WHERE rx.user_id = ? AND rx.work_id = w.id AND rx.rating IS NOT NULL)');
      params.push(spec.excludeRatedBy);
    }
    if (driver?.kind === 'code') return { from, where, params };

    for (const id of filter.circleIds) {
      if (driver?.kind === 'circle' && driver.id === id) continue;
      where.push('w.circle_id = ?');
      params.push(id);
    }
    for (const id of filter.tagIds) {
      if (driver?.kind === 'tag' && driver.id === id) continue;
      where.push('EXISTS (SELECT 1 FROM work_tags xt WHERE xt.work_id = w.id AND xt.tag_id = ?)');
      params.push(id);
    }
    for (const id of filter.vaIds) {
      if (driver?.kind === 'va' && driver.id === id) continue;
      where.push('EXISTS (SELECT 1 FROM work_vas xv WHERE xv.work_id = w.id AND xv.va_id = ?)');
      params.push(id);
    }
    // Terms the FTS driver already matched need no test; the rest are substring tests on the indexed text.
    const tested = driver?.kind === 'fts' ? filter.terms.filter((t) => !isIndexableTerm(t)) : filter.terms;
    if (tested.length) {
      where.push(`EXISTS (SELECT 1 FROM works_fts_content xf WHERE xf.id = w.id AND ${tested.map(() => 'instr(xf.c0, ?) > 0').join(' AND ')})`);
      params.push(...tested);
    }
    return { from, where, params };
  }
}
