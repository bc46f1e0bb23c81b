/**
 * The current user's lists (docs/API.md#reviews-ratings-and-progress, docs/API.md#play-history): "my ratings / my progress"
 * (`GET /api/review`) and play history (`GET /api/histroy`), as list-form works plus the user's own
 * review or play state, with real dates.
 */
import type { ConfigStore } from '../config/config-store.js';
import type { Actor } from '../auth/roles.js';
import { dateOnly } from '../domain/time.js';
import type { Pagination, Progress, WorkListItem } from '../contract/works.js';
import type { HistoryListQuery, ReviewListQuery } from '../contract/requests/user-lists.js';
import type { UserDataService } from './user-data-service.js';
import type { WorksService } from './works/works-service.js';

/** `GET /api/review`: list form plus the user's review. */
export interface ReviewListWork extends WorkListItem {
  userRating: number | null;
  review_text: string | null;
  progress: Progress | null;
  user_name: string;
  /** The review's date, `YYYY-MM-DD` ("marked time" in the clients). */
  updated_at: string;
  /** The review's timestamp, `YYYY-MM-DD HH:MM:SS` UTC. */
  review_updated_at: string;
}

/** `GET /api/histroy`: list form without `userRating`, plus the saved play state. */
export type HistoryListWork = Omit<WorkListItem, 'userRating'> & {
  state: unknown;
  /** Date the play state was saved, `YYYY-MM-DD`. */
  play_updated_at: string;
  updated_at: string;
};

function parseState(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return null;
  }
}

export class UserListsService {
  constructor(
    private readonly userData: UserDataService,
    private readonly works: WorksService,
    private readonly store: ConfigStore,
  ) {}

  /** GET /api/review — works the user rated, reviewed or marked; `filter` = one progress state. */
  async reviews(actor: Actor, q: ReviewListQuery): Promise<{ works: ReviewListWork[]; pagination: Pagination }> {
    const size = q.pageSize ?? this.store.get().pageSize;
    // "all ages first" is the reverse of the nsfw order
    const order = q.order === 'allage' ? 'nsfw' : q.order;
    const dir = q.order === 'allage' ? (q.sort === 'asc' ? 'desc' : 'asc') : q.sort;
    const { rows, total } = await this.userData.reviewPage(actor, { filter: q.filter, order, sort: dir, page: q.page, pageSize: size });
    const items = new Map(
      (
        await this.works.listItems(
          rows.map((r) => r.work_id),
          actor,
        )
      ).map((w) => [w.id, w]),
    );
    const works: ReviewListWork[] = [];
    for (const r of rows) {
      const w = items.get(r.work_id);
      if (!w) continue;
      works.push({
        ...w,
        userRating: r.rating,
        review_text: r.review_text,
        progress: r.progress,
        user_name: actor.name,
        updated_at: dateOnly(r.updated_at),
        review_updated_at: r.updated_at,
      });
    }
    return { works, pagination: { currentPage: q.page, pageSize: size, totalCount: total } };
  }

  /** GET /api/histroy — works the user played, newest first by default, with the saved state. */
  async history(actor: Actor, q: HistoryListQuery): Promise<{ works: HistoryListWork[]; pagination: Pagination }> {
    const size = q.pageSize ?? this.store.get().pageSize;
    const { rows, total } = await this.userData.historyPage(actor, { sort: q.sort, page: q.page, pageSize: size });
    const items = new Map(
      (
        await this.works.listItems(
          rows.map((r) => r.work_id),
          actor,
        )
      ).map((w) => [w.id, w]),
    );
    const works: HistoryListWork[] = [];
    for (const r of rows) {
      const w = items.get(r.work_id);
      if (!w) continue;
      const { userRating: _rating, ...rest } = w;
      works.push({ ...rest, state: parseState(r.state), play_updated_at: dateOnly(r.updated_at), updated_at: dateOnly(r.updated_at) });
    }
    return { works, pagination: { currentPage: q.page, pageSize: size, totalCount: total } };
  }
}
