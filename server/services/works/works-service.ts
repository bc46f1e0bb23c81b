import type { ConfigStore } from '../../config/config-store.js';
import type { Actor } from '../../auth/roles.js';
import { badRequest, notFound } from '../../domain/errors.js';
import { formatWorkCode } from '../../domain/work-code.js';
import type { FilesRepo } from '../../db/repos/files-repo.js';
import type { LabelsRepo } from '../../db/repos/labels-repo.js';
import type { WorksQueryRepo } from '../../db/repos/works-query-repo.js';
import { StampedCache } from '../../db/stamped-cache.js';
import { LABEL_NOT_FOUND, type LabelDetail, type LabelItem, type LabelKind } from '../../contract/labels.js';
import { buildTrackTree, type TrackNode } from '../../contract/tracks.js';
import { presentWork, presentWorkDetail, type WorkDetail, type WorkListItem, type WorksPage } from '../../contract/works.js';
import type { ListParams, WorkFilter } from '../../contract/works-query.js';
import { CostlySearchGate, isCostlySearch } from './costly-search-gate.js';
import { ListPlanner, type PageIds } from './list-planner.js';
import { filterOf, type ListScope } from './list-scope.js';
import { SingleFlight } from '../caches/single-flight.js';
import { VersionedCache } from '../caches/versioned-cache.js';

/** A work's list form without the user's rating, its JSON without the closing brace, and whether it is missing. */
interface CachedWork {
  item: WorkListItem;
  json: string;
  missing: boolean;
}

/**
 * Work lists, search, detail and file trees (docs/API.md#work-lists-and-search; the planner and its
 * caches: docs/ARCHITECTURE.md#the-work-list-planner). The ids of a list page come from the
 * `ListPlanner`; the works themselves, their JSON and the file trees are cached here per library
 * version, the users' ratings per state of the database files.
 */
export class WorksService {
  private readonly labelLists = new VersionedCache<LabelItem[]>(16);
  /** List-form works without the per-user rating, by id. */
  private readonly works = new VersionedCache<CachedWork>(50_000);
  /** Users' star ratings (a rating does not change the library version, so they go by the change stamp). */
  private readonly ratingSets = new StampedCache<number, Map<number, number>>(() => this.repo.fileStamp());
  /** Serialized file trees by work (weight ≈ 4 KB units). */
  private readonly trees = new VersionedCache<string>(20_000);
  private readonly flight = new SingleFlight();
  private readonly planner: ListPlanner;

  constructor(
    private readonly repo: WorksQueryRepo,
    private readonly labels: LabelsRepo,
    private readonly files: FilesRepo,
    private readonly store: ConfigStore,
  ) {
    this.costlySearches = new CostlySearchGate(repo);
    this.planner = new ListPlanner(repo, labels);
  }

  /** Searches that test short substrings over the whole library: queued, bounded, time-limited. */
  private readonly costlySearches: CostlySearchGate;

  /** Current library version (cache key of everything below). */
  version(): Promise<number> {
    return this.repo.version();
  }

  // ----- lists -----------------------------------------------------------------------------------

  async list(actor: Actor | null, params: ListParams, scope: ListScope): Promise<WorksPage> {
    const page = await this.page(actor, params, scope);
    return { works: await this.hydrate(page.ids, page.userId, page.version, page.ratings), pagination: page.pagination };
  }

  /**
   * The same page as `list`, serialized: the shared part of each work is serialized once per library
   * version and only the user's rating is added per request (list pages are the hottest responses).
   */
  async listJson(actor: Actor | null, params: ListParams, scope: ListScope): Promise<string> {
    const page = await this.page(actor, params, scope);
    const [entries, ratings] = await Promise.all([this.entries(page.ids, page.version), this.ratingsOf(page.ids, page.userId, page.ratings)]);
    const works: string[] = [];
    for (const id of page.ids) {
      const e = entries.get(id);
      if (e) works.push(`${e.json},"userRating":${ratings.get(id) ?? 'null'}}`);
    }
    return `{"works":[${works.join(',')}],"pagination":${JSON.stringify(page.pagination)}}`;
  }

  /**
   * Ids of one page in order, the pagination, and the user's ratings when the page query read them. A
   * costly search (short terms over the whole library) goes through the costly-search gate.
   */
  private page(actor: Actor | null, params: ListParams, scope: ListScope): Promise<PageIds> {
    const filter = filterOf(params, scope);
    if (!isCostlySearch(filter)) return this.pageOf(actor, params, scope, filter);
    return this.costlySearches.run(actor ? `user:${actor.id}` : 'anonymous', () => this.pageOf(actor, params, scope, filter));
  }

  private async pageOf(actor: Actor | null, params: ListParams, scope: ListScope, filter: WorkFilter): Promise<PageIds> {
    if (params.order === 'betterRandom' && scope.kind === 'label') throw badRequest('betterRandom 只能用于 /api/works', { code: 'FIELD_INVALID', field: 'order' });
    const pageSize = params.pageSize ?? this.store.get().pageSize;
    return this.planner.page(filter, params, pageSize, actor?.id ?? null);
  }

  /** List-form works for the given ids, in that order, with the actor's ratings (favourites and history lists). */
  async listItems(ids: number[], actor: Actor | null): Promise<WorkListItem[]> {
    return this.hydrate(ids, actor?.id ?? null, await this.repo.version());
  }

  /** The actor's star ratings of some works (work id → rating; unrated works are absent). */
  userRatingsOf(ids: number[], actor: Actor | null): Promise<Map<number, number>> {
    return this.ratingsOf(ids, actor?.id ?? null);
  }

  /** Shared (user-independent) list-form entries of some works, from the per-version cache or one query. */
  private async entries(ids: number[], version: number): Promise<Map<number, CachedWork>> {
    const out = new Map<number, CachedWork>();
    const missing: number[] = [];
    for (const id of ids) {
      const hit = this.works.get(`${id}`, version);
      if (hit) out.set(id, hit);
      else missing.push(id);
    }
    if (missing.length) {
      for (const row of await this.repo.hydrate(missing)) {
        const item = presentWork(row);
        const json = JSON.stringify({ ...item, userRating: undefined });
        const entry: CachedWork = { item, json: json.slice(0, -1), missing: row.missing !== 0 };
        this.works.set(`${row.id}`, version, entry);
        out.set(row.id, entry);
      }
    }
    return out;
  }

  private async ratingsOf(ids: number[], userId: number | null, known?: Map<number, number>): Promise<Map<number, number>> {
    if (known) return known;
    if (userId === null || !ids.length) return new Map();
    const all = await this.userRatings(userId);
    const out = new Map<number, number>();
    for (const id of ids) {
      const r = all.get(id);
      if (r !== undefined) out.set(id, r);
    }
    return out;
  }

  /** All star ratings of a user (work id → rating), read again once anything was committed. */
  private userRatings(userId: number): Promise<Map<number, number>> {
    return this.ratingSets.get(userId, () => this.repo.allRatings(userId));
  }

  /** List-form works in the order of `ids` with the user's ratings. */
  private async hydrate(ids: number[], userId: number | null, version: number, knownRatings?: Map<number, number>): Promise<WorkListItem[]> {
    if (!ids.length) return [];
    const [entries, ratings] = await Promise.all([this.entries(ids, version), this.ratingsOf(ids, userId, knownRatings)]);
    const out: WorkListItem[] = [];
    for (const id of ids) {
      const e = entries.get(id);
      if (e) out.push({ ...e.item, userRating: ratings.get(id) ?? null });
    }
    return out;
  }

  // ----- detail and files ------------------------------------------------------------------------

  async detail(actor: Actor | null, id: number): Promise<WorkDetail> {
    const version = await this.repo.version();
    const [entries, user] = await Promise.all([this.entries([id], version), this.repo.userWork(id, actor?.id ?? null)]);
    const entry = entries.get(id);
    if (!entry) throw notFound(`作品 ${formatWorkCode(id)} 不存在`, { code: 'WORK_NOT_FOUND', params: { work: formatWorkCode(id) } });
    if (entry.missing) throw notFound(`作品 ${formatWorkCode(id)} 的文件夹已不在媒体库中`, { code: 'WORK_FOLDER_MISSING', params: { work: formatWorkCode(id) } });
    return presentWorkDetail(entry.item, user);
  }

  async tracks(id: number): Promise<TrackNode[]> {
    return JSON.parse(await this.tracksJson(id)) as TrackNode[];
  }

  /** The file tree as JSON, cached per library version (file changes bump it) and media URL settings. */
  async tracksJson(id: number): Promise<string> {
    const version = await this.repo.version();
    const config = this.store.get();
    const key = `${id}|${config.offloadMedia ? `${config.offloadStreamPath}|${config.offloadDownloadPath}` : ''}`;
    const hit = this.trees.get(key, version);
    if (hit !== undefined) return hit;
    const found = await this.files.workWithFiles(id);
    if (!found) throw notFound(`作品 ${formatWorkCode(id)} 不存在`, { code: 'WORK_NOT_FOUND', params: { work: formatWorkCode(id) } });
    const { work, files } = found;
    if (work.missing) throw notFound(`作品 ${formatWorkCode(id)} 的文件夹已不在媒体库中`, { code: 'WORK_FOLDER_MISSING', params: { work: formatWorkCode(id) } });
    const json = JSON.stringify(buildTrackTree({ id: work.id, title: work.title, rootFolder: work.root_folder, dir: work.dir }, files, config));
    this.trees.set(key, version, json, 1 + Math.ceil(json.length / 4096));
    return json;
  }

  // ----- labels ----------------------------------------------------------------------------------

  /** All labels of a kind (count desc, then name), with the version they were read at. */
  async labelList(kind: LabelKind): Promise<{ version: number; items: LabelItem[] }> {
    const version = await this.repo.version();
    const hit = this.labelLists.get(kind, version);
    if (hit) return { version, items: hit };
    const items = await this.flight.run(`labels:${kind}:${version}`, () => this.labels.list(kind));
    this.labelLists.set(kind, version, items);
    return { version, items };
  }

  async label(kind: LabelKind, id: number | string): Promise<LabelDetail> {
    const row = await this.labels.byId(kind, id);
    if (!row) throw notFound(LABEL_NOT_FOUND[kind](id), { code: 'LABEL_NOT_FOUND', params: { kind } });
    return row;
  }
}
