import type { ArtistRow, LibraryOrder, SubsonicLibraryRepo } from '../../db/repos/subsonic-library-repo.js';
import { SingleFlight } from '../works/single-flight.js';
import { VersionedCache } from '../works/versioned-cache.js';

export type { LibraryOrder };

/** Room for the whole-library views of a library of 250,000 works (weight: rows held). */
const CACHE_WEIGHT = 6 * 250_000 + 64;

export interface ArtistIndex {
  /** Circles with present works, by name (case-insensitive), then id. */
  list: ArtistRow[];
  byId: Map<number, ArtistRow>;
}

/**
 * What the Subsonic API reads of the whole library, cached per library version like the web app's
 * lists (docs/ARCHITECTURE.md#the-work-list-planner): the present works in the album-list orders that
 * involve no user (newest, by name, by circle, by id), the circles with their album counts, and each
 * root folder's work folders. A page is a slice, a random pick an index, a name search a scan of a few
 * thousand circle names: no request sorts or aggregates the library (by circle name that took a third
 * of a second a request on 100,000 works).
 */
export class LibraryViews {
  private readonly cache = new VersionedCache<unknown>(CACHE_WEIGHT);
  private readonly flight = new SingleFlight();

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
