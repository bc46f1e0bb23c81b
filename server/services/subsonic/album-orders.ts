import type { LibraryOrder, SubsonicLibraryRepo } from '../../db/repos/subsonic-library-repo.js';
import { SingleFlight } from '../works/single-flight.js';
import { VersionedCache } from '../works/versioned-cache.js';

export type { LibraryOrder };

/** Room for the four whole-library orders of a library of 250,000 works (ids held). */
const CACHE_WEIGHT = 4 * 250_000 + 64;

/**
 * The whole library's present works in the orders of Subsonic's album lists that involve no user
 * (newest, by name, by circle, by id), cached per library version like the web app's lists
 * (docs/ARCHITECTURE.md#the-work-list-planner): a page is a slice, a random pick an index, so no request
 * sorts the library (by circle name that takes a third of a second on 100,000 works).
 */
export class AlbumOrders {
  private readonly lists = new VersionedCache<number[]>(CACHE_WEIGHT);
  private readonly flight = new SingleFlight();

  constructor(
    private readonly repo: SubsonicLibraryRepo,
    private readonly version: () => Promise<number>,
  ) {}

  /** Ids of [offset, offset + size) of the library in `order`. */
  async page(order: LibraryOrder, offset: number, size: number): Promise<number[]> {
    return (await this.all(order)).slice(offset, offset + size);
  }

  /** The number of present works. */
  async count(): Promise<number> {
    return (await this.all('id')).length;
  }

  /** `size` distinct present works picked at random (fewer when the library is smaller). */
  async random(size: number, pick: (n: number) => number = (n) => Math.floor(Math.random() * n)): Promise<number[]> {
    const ids = await this.all('id');
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

  private async all(order: LibraryOrder): Promise<number[]> {
    const version = await this.version();
    const hit = this.lists.get(order, version);
    if (hit) return hit;
    return this.flight.run(`${order}:${version}`, async () => {
      const ids = await this.repo.orderedAlbumIds(order);
      this.lists.set(order, version, ids, ids.length + 16);
      return ids;
    });
  }
}

/** A shuffled copy (Fisher–Yates). */
function shuffled(ids: number[], pick: (n: number) => number): number[] {
  const out = [...ids];
  for (let i = out.length - 1; i > 0; i--) {
    const j = pick(i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}
