import type { Database } from '../connection.js';
import type { LabelDetail, LabelItem, LabelKind } from '../../contract/labels.js';

/** Table of each label kind (fixed names: never from a request). */
const TABLE: Record<LabelKind, string> = { circles: 'circles', tags: 'tags', vas: 'vas' };

/**
 * Circles, tags and voice actors, read side. `work_count` is kept by the library writer as the number
 * of non-missing works linked, so lists and sizes never aggregate the link tables.
 */
export class LabelsRepo {
  constructor(private readonly db: Database) {}

  /**
   * Every label with at least one listed work: count desc, then name (the `*_by_count` index order).
   * Circle 0 ("unknown circle", works waiting for metadata) is not a circle and is left out.
   */
  list(kind: LabelKind): Promise<LabelItem[]> {
    const skipUnknown = kind === 'circles' ? 'AND id <> 0' : '';
    return this.db.all<LabelItem>(`SELECT id, name, work_count AS count FROM ${TABLE[kind]} WHERE work_count > 0 ${skipUnknown} ORDER BY work_count DESC, name`);
  }

  byId(kind: LabelKind, id: number | string): Promise<LabelDetail | undefined> {
    return this.db.get<LabelDetail>(`SELECT id, name, work_count AS count FROM ${TABLE[kind]} WHERE id = ?`, [id]);
  }

  /** work_count of some labels of one kind; unknown ids are absent from the map. */
  async sizes(kind: LabelKind, ids: (number | string)[]): Promise<Map<number | string, number>> {
    const out = new Map<number | string, number>();
    if (!ids.length) return out;
    const rows = await this.db.all<{ id: number | string; n: number }>(`SELECT id, work_count AS n FROM ${TABLE[kind]} WHERE id IN (${ids.map(() => '?').join(',')})`, ids);
    for (const r of rows) out.set(r.id, r.n);
    return out;
  }
}
