import type { ArtistRow, LibraryOrder, SongFileRow, SubsonicLibraryRepo } from '../../db/repos/subsonic-library-repo.js';
import { SingleFlight } from '../caches/single-flight.js';
import { VersionMemo } from '../caches/version-memo.js';
import { VersionedCache } from '../caches/versioned-cache.js';

export type { LibraryOrder };

/** Room for the whole-library views of a library of 250,000 works (weight: rows held). */
const CACHE_WEIGHT = 6 * 250_000 + 64;

/** Facts of a present work that a Subsonic album shows beyond the web list form. */
export interface AlbumFacts {
  songCount: number;
}

/** The most works whose facts are kept per library version (then the memo starts over). */
const FACTS_MAX = 100_000;
/** The most works whose audio files are kept (a few dozen rows each). */
const FILES_MAX = 2_000;

export interface ArtistIndex {
  /** Circles with present works, by name (case-insensitive), then id. */
  list: ArtistRow[];
  byId: Map<number, ArtistRow>;
}

/**
 * What the Subsonic API reads of the whole library, cached per library version like the web app's
 * lists (docs/ARCHITECTURE.md#the-work-list-planner): the present works in the album-list orders that
 * involve no user (newest, by name, by circle, by id), the circles with their album counts, and each
 * root folder's work folders; and, filled as they are asked for, each work's song count and audio
 * files. A page is a slice, a random pick an index, a name search a scan of a few
 * thousand circle names: no request sorts or aggregates the library (by circle name that took a third
 * of a second a request on 100,000 works).
 */
export class LibraryViews {
  private readonly cache = new VersionedCache<unknown>(CACHE_WEIGHT);
  private readonly flight = new SingleFlight();
  private readonly facts = new VersionMemo<AlbumFacts>(FACTS_MAX);
  private readonly songFiles = new VersionMemo<SongFileRow[]>(FILES_MAX);

  constructor(
    private readonly repo: SubsonicLibraryRepo,
    private readonly version: () => Promise<number>,
  ) {}

  /** Ids of [offset, offset + size) of the library in `order`. */
  async page(order: LibraryOrder, offset: number, size: number): Promise<number[]> {
    return (await this.ids(order)).slice(offset, offset + size);
  }

  /** The number of present works. */
  async count(): Promise<number> {
    return (await this.ids('id')).length;
  }

  /** `size` distinct present works picked at random, in random order (fewer when the library is smaller). */
  async random(size: number, pick: (n: number) => number = randomIndex): Promise<number[]> {
    const ids = await this.ids('id');
    if (size >= ids.length) return shuffled(ids, pick);
    // Floyd's sampling: `size` distinct indexes without copying the list
    const chosen = new Set<number>();
    for (let j = ids.length - size; j < ids.length; j++) {
      const t = pick(j + 1);
      chosen.add(chosen.has(t) ? j : t);
    }
    return shuffled(
      [...chosen].map((i) => ids[i]),
      pick,
    );
  }

  /** The facts of those of `ids` that are present works (missing and unknown ids are left out). */
  async albumFacts(ids: number[]): Promise<Map<number, AlbumFacts>> {
    if (!ids.length) return new Map();
    return this.facts.getMany(await this.version(), ids, async (missing) => {
      const rows = await this.repo.albumFacts(missing);
      return new Map(rows.map((r) => [r.id, { songCount: r.song_count }]));
    });
  }

  /** The audio files of a work (unordered), for the works of `ids` that have any. */
  async audioFiles(ids: number[]): Promise<Map<number, SongFileRow[]>> {
    if (!ids.length) return new Map();
    return this.songFiles.getMany(await this.version(), ids, async (missing) => {
      const byWork = new Map<number, SongFileRow[]>();
      for (const row of await this.repo.songFiles(missing)) {
        const list = byWork.get(row.work_id) ?? [];
        list.push(row);
        byWork.set(row.work_id, list);
      }
      return byWork;
    });
  }

  artists(): Promise<ArtistIndex> {
    return this.cached('artists', async () => {
      const list = await this.repo.artists();
      return { value: { list, byId: new Map(list.map((a) => [a.id, a])) }, weight: list.length };
    });
  }

  /** Folders (relative to the root) of the present works of a root folder. */
  workDirs(rootFolder: string): Promise<{ id: number; dir: string }[]> {
    return this.cached(`dirs:${rootFolder}`, async () => {
      const dirs = await this.repo.workDirs(rootFolder);
      return { value: dirs, weight: dirs.length };
    });
  }

  private ids(order: LibraryOrder): Promise<number[]> {
    return this.cached(`ids:${order}`, async () => {
      const ids = await this.repo.orderedAlbumIds(order);
      return { value: ids, weight: ids.length };
    });
  }

  private async cached<T>(key: string, load: () => Promise<{ value: T; weight: number }>): Promise<T> {
    const version = await this.version();
    const hit = this.cache.get(key, version) as T | undefined;
    if (hit !== undefined) return hit;
    return this.flight.run(`${key}\u0000${version}`, async () => {
      const { value, weight } = await load();
      this.cache.set(key, version, value, weight + 16);
      return value;
    });
  }
}

export const randomIndex = (n: number) => Math.floor(Math.random() * n);

/** A shuffled copy (Fisher–Yates). */
export function shuffled<T>(items: T[], pick: (n: number) => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = pick(i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}
