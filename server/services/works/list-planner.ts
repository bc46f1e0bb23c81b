import { ftsMatchExpression, isIndexableTerm, type Direction, type Driver, type ListSpec, type OrderKey, type WorksQueryRepo } from '../../db/repos/works-query-repo.js';
import type { LabelsRepo } from '../../db/repos/labels-repo.js';
import type { LabelKind } from '../../contract/labels.js';
import type { Pagination } from '../../contract/works.js';
import { emptyFilter, type ListParams, type WorkFilter } from '../../contract/works-query.js';
import { shuffler } from './shuffle.js';
import { SingleFlight } from '../caches/single-flight.js';
import { VersionedCache } from '../caches/versioned-cache.js';

/** A set the list can be driven from, with its size (exact for labels, an upper bound for FTS). */
interface Candidate {
  driver: Driver;
  size: number;
  /** Relative cost of testing one row for membership while walking an order index. */
  probeCost: number;
}

interface Plan {
  filter: WorkFilter;
  /** Stable text of the filter: cache key of counts and id lists. */
  key: string;
  /** Known to match nothing (unknown label, two different circles …). */
  empty: boolean;
  /** The smallest set the filter restricts to, when any. */
  best: Candidate | null;
  /** Every set the filter restricts to. */
  candidates: Candidate[];
  /** True when the filter is one label (or nothing) with no other condition: its count is known. */
  knownCount: number | null;
  /** The filter is indexable search terms only: count = FTS matches minus the missing works among them. */
  ftsOnly?: boolean;
  /** Matching works, once counted (sizes the walk of filters no index drives). */
  count?: number;
  visible: number;
}

/** One page of a list: ids in order, and the ratings of the user when the page query read them. */
export interface PageIds {
  ids: number[];
  ratings?: Map<number, number>;
  userId: number | null;
  version: number;
  pagination: Pagination;
}

/**
 * Above this estimated cost (≈ µs of SQLite work) a page is served from the cached ordered id list of
 * the query: building it costs about as much as one such page (a driven page enumerates and sorts the
 * whole set anyway), and later pages and requests of the same query then cost nothing.
 */
const DEEP_COST = 1000;
/** A list asked for this many times in one library version is read whole (if that is affordable). */
const POPULAR_HITS = 3;
/** Most estimated cost (≈ µs) spent on reading a popular list whole: ~100k rows of an index walk. */
const POPULAR_LIST_COST = 150_000;
/**
 * Sets holding at least this share of the library (and 200 works) are intersected with a cached
 * ordered list instead of being sorted by SQLite (2,000 works at 100k).
 */
const INTERSECT_MIN_SHARE = 0.02;
/** Ids held by the caches of ordered lists of queries, of base lists and of sets (8 bytes each). */
const ID_CACHE_WEIGHT = 1_500_000;
const BASE_CACHE_WEIGHT = 1_000_000;
const SET_CACHE_WEIGHT = 1_500_000;

const SQL_ORDERS: Record<string, OrderKey> = {
  release: 'release',
  dl_count: 'dl_count',
  price: 'price',
  rate_average_2dp: 'rate_average_2dp',
  review_count: 'review_count',
  id: 'id',
  created_at: 'created_at',
  // the mobile apps' spelling of "when the work was added to the library"
  create_date: 'created_at',
  updated_at: 'updated_at',
  nsfw: 'nsfw',
};

function filterKey(f: WorkFilter): string {
  const sorted = <T>(a: T[]) => [...a].sort();
  return JSON.stringify([f.nsfw, f.lyric ? sorted(f.lyric) : null, sorted(f.circleIds), sorted(f.tagIds), sorted(f.vaIds), sorted(f.terms), f.codeId]);
}

/**
 * Plans each work list (docs/ARCHITECTURE.md#the-work-list-planner): the smallest restricting set
 * drives the query when small, otherwise the order index is walked and each row tested; deep pages
 * and shuffles read a cached ordered id list. Counts and id lists are cached per library version, so
 * nothing aggregates the whole library per request.
 */
export class ListPlanner {
  private readonly counts = new VersionedCache<number>(20_000);
  private readonly idLists = new VersionedCache<number[]>(ID_CACHE_WEIGHT);
  /**
   * Ordered lists of filters without sets (all works, by age/lyric): every intersection starts from
   * one, so they are kept apart where the churn of per-query lists cannot evict them.
   */
  private readonly baseLists = new VersionedCache<number[]>(BASE_CACHE_WEIGHT);
  private readonly sizes = new VersionedCache<number>(20_000);
  /** Ids of sets (search matches, labels), unordered, by driver. */
  private readonly sets = new VersionedCache<number[]>(SET_CACHE_WEIGHT);
  /** How often each list (filter, order, direction) was asked for in the current version. */
  private readonly hits = new VersionedCache<number>(5_000);
  private readonly flight = new SingleFlight();

  constructor(
    private readonly repo: WorksQueryRepo,
    private readonly labels: LabelsRepo,
  ) {}

  /** Ids of one page of the list of `filter` in the order of `params`, and its pagination. */
  async page(filter: WorkFilter, params: ListParams, pageSize: number, userId: number | null): Promise<PageIds> {
    const version = await this.repo.version();
    const plan = await this.plan(filter, version);

    if (params.order === 'betterRandom') {
      const ids = await this.orderedIds(plan, 'id', 'asc', version);
      const pick = ids.length ? [ids[Math.floor(Math.random() * ids.length)]] : [];
      return { ids: pick, userId, version, pagination: { currentPage: 1, pageSize, totalCount: ids.length } };
    }

    if (this.intersectable(plan) && params.order !== 'random' && params.order !== 'rating') {
      // a large set: the whole ordered list is one intersection, and gives the count
      const all = await this.orderedIds(plan, SQL_ORDERS[params.order], params.sort, version);
      const offset = (params.page - 1) * pageSize;
      return { ids: all.slice(offset, offset + pageSize), userId, version, pagination: { currentPage: params.page, pageSize, totalCount: all.length } };
    }

    const totalCount = await this.count(plan, version);
    plan.count = totalCount;
    const offset = (params.page - 1) * pageSize;
    const pagination = { currentPage: params.page, pageSize, totalCount };
    if (offset >= totalCount) return { ids: [], userId, version, pagination };
    const limit = Math.min(pageSize, totalCount - offset);

    if (params.order === 'random') {
      const base = await this.orderedIds(plan, 'id', 'asc', version);
      const at = shuffler(base.length, params.seed);
      const ids: number[] = [];
      for (let i = offset; i < Math.min(offset + limit, base.length); i++) ids.push(base[at(i)]);
      return { ids, userId, version, pagination };
    }
    if (params.order === 'rating') {
      return { ids: await this.ratingPage(plan, version, userId, params.sort, offset, limit, totalCount), userId, version, pagination };
    }
    const { ids, ratings } = await this.pageIds(plan, version, SQL_ORDERS[params.order], params.sort, offset, limit, userId);
    return { ids, ratings, userId, version, pagination };
  }

  private async plan(filter: WorkFilter, version: number): Promise<Plan> {
    const key = filterKey(filter);
    const visible = await this.cachedCount('visible', version, () => this.repo.visibleCount());
    const plan: Plan = { filter, key, empty: false, best: null, candidates: [], knownCount: null, visible };
    const candidates: Candidate[] = [];
    if (filter.codeId !== null) {
      plan.best = { driver: { kind: 'code', id: filter.codeId }, size: 1, probeCost: 1 };
      return plan;
    }
    if (new Set(filter.circleIds).size > 1) plan.empty = true;
    for (const id of filter.circleIds) candidates.push({ driver: { kind: 'circle', id }, size: await this.labelSize('circles', id, version), probeCost: 1 });
    for (const id of filter.tagIds) candidates.push({ driver: { kind: 'tag', id }, size: await this.labelSize('tags', id, version), probeCost: 2 });
    for (const id of filter.vaIds) candidates.push({ driver: { kind: 'va', id }, size: await this.labelSize('vas', id, version), probeCost: 2 });
    const match = ftsMatchExpression(filter.terms);
    if (match) {
      // the matching ids themselves (one read of the index): their number sizes the plan, and large
      // sets are intersected with a cached ordered list right away
      const size = (await this.setIds({ kind: 'fts', match }, version)).length;
      // measured at 100k works: a substring test costs ~1.8× enumerating one FTS match and sorting it
      candidates.push({ driver: { kind: 'fts', match }, size, probeCost: 2.7 });
    }
    plan.candidates = candidates;
    for (const c of candidates) {
      if (c.size === 0) plan.empty = true;
      if (!plan.best || c.size < plan.best.size) plan.best = c;
    }
    const plain = filter.nsfw === 0 && !filter.lyric && filter.terms.length === 0;
    if (plain && candidates.length === 0) plan.knownCount = visible;
    if (plain && candidates.length === 1 && candidates[0].driver.kind !== 'fts') plan.knownCount = candidates[0].size;
    const onlyTerms = filter.nsfw === 0 && !filter.lyric && candidates.length === 1 && candidates[0].driver.kind === 'fts';
    plan.ftsOnly = onlyTerms && filter.terms.every(isIndexableTerm);
    return plan;
  }

  private labelSize(kind: LabelKind, id: number | string, version: number): Promise<number> {
    return this.cachedSize(`${kind}:${id}`, version, async () => (await this.labels.sizes(kind, [id])).get(id) ?? 0);
  }

  private async cachedSize(key: string, version: number, fn: () => Promise<number>): Promise<number> {
    const hit = this.sizes.get(key, version);
    if (hit !== undefined) return hit;
    const n = await this.flight.run(`size:${key}:${version}`, fn);
    this.sizes.set(key, version, n);
    return n;
  }

  private async cachedCount(key: string, version: number, fn: () => Promise<number>): Promise<number> {
    const hit = this.counts.get(key, version);
    if (hit !== undefined) return hit;
    const n = await this.flight.run(`count:${key}:${version}`, fn);
    this.counts.set(key, version, n);
    return n;
  }

  private count(plan: Plan, version: number): Promise<number> {
    if (plan.empty) return Promise.resolve(0);
    if (plan.knownCount !== null) return Promise.resolve(plan.knownCount);
    return this.cachedCount(`list:${plan.key}`, version, async () => {
      for (const order of ['id', 'release']) {
        const list = this.listsOf(plan).get(`${plan.key}|${order}|asc`, version) ?? this.listsOf(plan).get(`${plan.key}|${order}|desc`, version);
        if (list) return list.length;
      }
      if (plan.ftsOnly && plan.best) return Math.max(plan.best.size - (await this.repo.missingMatching(plan.filter.terms)), 0);
      if (this.intersectable(plan)) return (await this.orderedIds(plan, 'id', 'asc', version)).length;
      return this.repo.count(this.spec(plan, plan.best?.driver ?? null));
    });
  }

  private spec(plan: Plan, driver: Driver | null, excludeRatedBy?: number): ListSpec {
    return { filter: plan.filter, driver, excludeRatedBy };
  }

  /**
   * Estimated rows touched by walking the order index to `end`, and by enumerating the best set.
   * A circle driven in release order is already in order (works_circle index).
   */
  private costs(plan: Plan, order: OrderKey, end: number): { scan: number; drive: number } {
    const best = plan.best;
    // rows a walk of the order index visits to find `end` matches: the count (once known) tells how
    // sparse the matches are — every condition together, not only the smallest set
    const matches = plan.count ?? best?.size ?? plan.visible;
    const density = Math.min(Math.max(matches, 1) / Math.max(plan.visible, 1), 1);
    const probe =
      (plan.filter.terms.length ? 2.7 : 0) + plan.filter.tagIds.length * 2 + plan.filter.vaIds.length * 2 + plan.filter.circleIds.length + (plan.filter.nsfw || plan.filter.lyric ? 0.5 : 0);
    const scan = (end / density) * Math.max(probe, 1);
    if (!best) return { scan, drive: Infinity };
    const drive = best.driver.kind === 'circle' && order === 'release' ? end : best.size * 1.5;
    return { scan, drive };
  }

  /** A page of a column-ordered list; ratings come along when the page was read by SQL. */
  private async pageIds(plan: Plan, version: number, order: OrderKey, dir: Direction, offset: number, limit: number, userId: number | null): Promise<{ ids: number[]; ratings?: Map<number, number> }> {
    const key = `${plan.key}|${order}|${dir}`;
    const cached = this.listsOf(plan).get(key, version);
    if (cached) return { ids: cached.slice(offset, offset + limit) };
    const { scan, drive } = this.costs(plan, order, offset + limit);
    // deep or costly pages, and lists asked for again and again (the front pages), read the whole
    // ordered list once per version and slice it from then on
    if (Math.min(scan, drive) > DEEP_COST || (this.popular(key, version) && this.fullCost(plan, order) <= POPULAR_LIST_COST)) {
      const all = await this.orderedIds(plan, order, dir, version);
      return { ids: all.slice(offset, offset + limit) };
    }
    const driver = drive <= scan ? plan.best!.driver : null;
    return this.repo.pageIds(this.spec(plan, driver), order, dir, offset, limit, userId);
  }

  /** Estimated cost of reading the whole list in one order. */
  private fullCost(plan: Plan, order: OrderKey): number {
    const { scan, drive } = this.costs(plan, order, plan.count ?? plan.best?.size ?? plan.visible);
    return Math.min(scan, drive);
  }

  /** True once a list has been asked for POPULAR_HITS times in this library version. */
  private popular(key: string, version: number): boolean {
    const n = (this.hits.get(key, version) ?? 0) + 1;
    this.hits.set(key, version, n);
    return n >= POPULAR_HITS;
  }

  /** The whole list in one order, cached per version (deep pages, shuffles, random picks). */
  private async orderedIds(plan: Plan, order: OrderKey, dir: Direction, version: number): Promise<number[]> {
    if (plan.empty) return [];
    const key = `${plan.key}|${order}|${dir}`;
    const hit = this.listsOf(plan).get(key, version);
    if (hit) return hit;
    return this.flight.run(`ids:${key}:${version}`, async () => {
      let ids: number[];
      if (this.intersectable(plan)) {
        ids = await this.intersect(plan, order, dir, version);
      } else {
        const { scan, drive } = this.costs(plan, order, plan.count ?? plan.best?.size ?? plan.visible);
        const driver = plan.best && drive <= scan ? plan.best.driver : null;
        ids = await this.repo.allIds(this.spec(plan, driver), order, dir);
      }
      this.listsOf(plan).set(key, version, ids, ids.length + 16);
      return ids;
    });
  }

  /** The cache a plan's ordered lists live in. */
  private listsOf(plan: Plan): VersionedCache<number[]> {
    return plan.candidates.length === 0 && plan.filter.terms.length === 0 && plan.filter.codeId === null ? this.baseLists : this.idLists;
  }

  /**
   * Large sets (a common word, a big tag) are cheaper to intersect here than to sort in SQLite: the
   * ordered list of the same age/lyric filter without the sets (read once per version) is filtered by
   * the sets' ids (each one indexed read).
   */
  private intersectable(plan: Plan): boolean {
    return !!plan.best && plan.best.size >= Math.max(200, plan.visible * INTERSECT_MIN_SHARE) && plan.filter.terms.every(isIndexableTerm);
  }

  /** The ids of one set, cached per version (a search's matches are read once). */
  private async setIds(driver: Driver, version: number): Promise<number[]> {
    const key = JSON.stringify(driver);
    const hit = this.sets.get(key, version);
    if (hit) return hit;
    return this.flight.run(`set:${key}:${version}`, async () => {
      const ids = await this.repo.setIds(driver);
      this.sets.set(key, version, ids, ids.length + 16);
      return ids;
    });
  }

  private async intersect(plan: Plan, order: OrderKey, dir: Direction, version: number): Promise<number[]> {
    const basePlan = await this.plan(emptyFilter({ nsfw: plan.filter.nsfw, lyric: plan.filter.lyric }), version);
    const [base, ...sets] = await Promise.all([
      this.orderedIds(basePlan, order, dir, version),
      ...[...plan.candidates].sort((a, b) => a.size - b.size).map(async (c) => new Set(await this.setIds(c.driver, version))),
    ]);
    return base.filter((id) => sets.every((set) => set.has(id)));
  }

  /**
   * `order=rating`: the current user's rated works (by stars, then release) and the unrated rest (by
   * release), unrated counting as lowest: rated first when descending, last when ascending.
   */
  private async ratingPage(plan: Plan, version: number, userId: number | null, dir: Direction, offset: number, limit: number, total: number): Promise<number[]> {
    const rated = userId === null || plan.empty ? [] : await this.repo.ratedIds(userId, plan.filter, dir);
    const unratedCount = Math.max(total - rated.length, 0);
    const ratedSet = new Set(rated);
    const unrated = async (o: number, l: number): Promise<number[]> => {
      if (!ratedSet.size) return (await this.pageIds(plan, version, 'release', dir, o, l, null)).ids;
      const { scan, drive } = this.costs(plan, 'release', o + l + rated.length);
      if (Math.min(scan, drive) > DEEP_COST) {
        const out: number[] = [];
        let seen = 0;
        for (const id of await this.orderedIds(plan, 'release', dir, version)) {
          if (ratedSet.has(id)) continue;
          if (seen++ >= o) out.push(id);
          if (out.length >= l) break;
        }
        return out;
      }
      const driver = drive <= scan ? plan.best!.driver : null;
      return (await this.repo.pageIds(this.spec(plan, driver, userId!), 'release', dir, o, l, null)).ids;
    };
    const segments: { size: number; page: (o: number, l: number) => Promise<number[]> }[] = [
      { size: rated.length, page: async (o, l) => rated.slice(o, o + l) },
      { size: unratedCount, page: unrated },
    ];
    if (dir === 'asc') segments.reverse();
    const ids: number[] = [];
    let start = offset;
    for (const seg of segments) {
      if (ids.length >= limit) break;
      if (start >= seg.size) {
        start -= seg.size;
        continue;
      }
      ids.push(...(await seg.page(start, limit - ids.length)));
      start = 0;
    }
    return ids;
  }
}
