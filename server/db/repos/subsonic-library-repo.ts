import type { Database } from '../connection.js';
import type { AlbumListType } from '../../contract/subsonic.js';

export type { AlbumListType };

/** The album lists that involve no user, and the id order (search3's whole-library listing). */
export type LibraryOrder = 'newest' | 'alphabeticalByName' | 'alphabeticalByArtist' | 'id';

const LIBRARY_ORDERS: Record<LibraryOrder, string> = {
  newest: 'WHERE w.missing = 0 ORDER BY w.created_at DESC, w.id DESC',
  alphabeticalByName: 'WHERE w.missing = 0 ORDER BY w.title COLLATE NOCASE, w.id',
  alphabeticalByArtist: 'JOIN circles c ON c.id = w.circle_id WHERE w.missing = 0 ORDER BY c.name COLLATE NOCASE, w.title COLLATE NOCASE, w.id',
  id: 'WHERE w.missing = 0 ORDER BY w.id',
};

/** The album lists a user's data or a parameter makes. */
export type UserListType = Exclude<AlbumListType, LibraryOrder | 'random'>;

export interface AlbumListQuery {
  type: UserListType;
  userId: number;
  offset: number;
  size: number;
  fromYear?: number;
  toYear?: number;
  genre?: string;
}

/** An audio file of a work (a Subsonic song). */
export interface SongFileRow {
  work_id: number;
  n: number;
  path: string;
  size: number;
  duration: number | null;
}

export interface ArtistRow {
  id: number;
  name: string;
  album_count: number;
}

export interface GenreRow {
  name: string;
  album_count: number;
  song_count: number;
}

const placeholders = (n: number) => Array<string>(n).fill('?').join(',');

/**
 * What the Subsonic API reads of the library that the web API's queries do not give: album lists in
 * Subsonic's orders, circles as artists, tags as genres and the audio files of works as songs. Only
 * works whose folder is present count.
 */
export class SubsonicLibraryRepo {
  constructor(private readonly db: Database) {}

  /** See Database.changeStamp: unchanged means no process has committed anything since. */
  changeStamp(): string | null {
    return this.db.changeStamp();
  }

  /**
   * Every present work in one of the orders that involve no user (the service caches these per library
   * version and pages them).
   */
  async orderedAlbumIds(order: LibraryOrder): Promise<number[]> {
    return (await this.db.all<{ id: number }>(`SELECT w.id FROM works w ${LIBRARY_ORDERS[order]}`)).map((r) => r.id);
  }

  /** A page of one of the user's lists (ratings, plays, stars), of a year or of a genre. */
  async userAlbumIds(q: AlbumListQuery): Promise<number[]> {
    const page = [q.size, q.offset];
    let rows: { id: number }[];
    switch (q.type) {
      case 'highest':
        rows = await this.db.all(
          `SELECT w.id FROM works w JOIN reviews r ON r.work_id = w.id AND r.user_id = ? AND r.rating IS NOT NULL
            WHERE +w.missing = 0 ORDER BY r.rating DESC, r.updated_at DESC, w.id DESC LIMIT ? OFFSET ?`,
          [q.userId, ...page],
        );
        break;
      case 'frequent':
        rows = await this.db.all(
          `SELECT w.id FROM works w JOIN (SELECT work_id, COUNT(*) AS n, MAX(updated_at) AS last FROM play_history GROUP BY work_id) h ON h.work_id = w.id
            WHERE +w.missing = 0 ORDER BY h.n DESC, h.last DESC, w.id DESC LIMIT ? OFFSET ?`,
          page,
        );
        break;
      case 'recent':
        rows = await this.db.all(
          `SELECT w.id FROM works w JOIN play_history h ON h.work_id = w.id AND h.user_id = ?
            WHERE +w.missing = 0 ORDER BY h.updated_at DESC, w.id DESC LIMIT ? OFFSET ?`,
          [q.userId, ...page],
        );
        break;
      case 'starred':
        rows = await this.db.all(
          `SELECT w.id FROM works w JOIN subsonic_stars s ON s.user_id = ? AND s.kind = 'album' AND s.item = CAST(w.id AS TEXT)
            WHERE +w.missing = 0 ORDER BY s.created_at DESC, w.id DESC LIMIT ? OFFSET ?`,
          [q.userId, ...page],
        );
        break;
      case 'byYear': {
        const from = q.fromYear ?? 0;
        const to = q.toYear ?? 9999;
        const [lo, hi] = from <= to ? [from, to] : [to, from];
        const dir = from <= to ? 'ASC' : 'DESC';
        rows = await this.db.all(
          `SELECT id FROM works WHERE missing = 0 AND release <> '' AND CAST(substr(release, 1, 4) AS INTEGER) BETWEEN ? AND ?
            ORDER BY release ${dir}, id ${dir} LIMIT ? OFFSET ?`,
          [lo, hi, ...page],
        );
        break;
      }
      case 'byGenre':
        rows = await this.db.all(
          `SELECT w.id FROM works w JOIN work_tags wt ON wt.work_id = w.id JOIN tags t ON t.id = wt.tag_id
            WHERE +w.missing = 0 AND t.name = ? ORDER BY w.release DESC, w.id DESC LIMIT ? OFFSET ?`,
          [q.genre ?? '', ...page],
        );
        break;
    }
    return rows.map((r) => r.id);
  }

  /** Works of a circle, newest release first. */
  async albumIdsOfArtist(circleId: number): Promise<number[]> {
    return (await this.db.all<{ id: number }>('SELECT id FROM works WHERE circle_id = ? AND +missing = 0 ORDER BY release DESC, id DESC', [circleId])).map((r) => r.id);
  }

  /** Those of `ids` that are works whose folder is present, with their number of audio files. */
  albumFacts(ids: number[]): Promise<{ id: number; song_count: number }[]> {
    return this.db.all(
      `SELECT w.id, (SELECT COUNT(*) FROM files f WHERE f.work_id = w.id AND f.kind = 'audio') AS song_count
         FROM works w WHERE +w.missing = 0 AND w.id IN (${placeholders(ids.length)})`,
      ids,
    );
  }

  /** The audio files of some works (unordered: the service puts them in tree order). */
  songFiles(workIds: number[]): Promise<SongFileRow[]> {
    return this.db.all<SongFileRow>(`SELECT work_id, n, path, size, duration FROM files WHERE work_id IN (${placeholders(workIds.length)}) AND kind = 'audio'`, workIds);
  }

  /** Circles with present works and their counts, by name (one pass over the works_by_circle index). */
  artists(): Promise<ArtistRow[]> {
    return this.db.all<ArtistRow>(
      `SELECT c.id, c.name, w.n AS album_count FROM (SELECT circle_id, COUNT(*) AS n FROM works WHERE missing = 0 GROUP BY circle_id) w
         JOIN circles c ON c.id = w.circle_id ORDER BY c.name COLLATE NOCASE, c.id`,
    );
  }

  genres(): Promise<GenreRow[]> {
    return this.db.all<GenreRow>(
      `SELECT t.name, COUNT(DISTINCT w.id) AS album_count, COUNT(f.n) AS song_count
         FROM tags t JOIN work_tags wt ON wt.tag_id = t.id JOIN works w ON w.id = wt.work_id AND w.missing = 0
         LEFT JOIN files f ON f.work_id = w.id AND f.kind = 'audio'
        GROUP BY t.id ORDER BY t.name COLLATE NOCASE`,
    );
  }

  /** Audio files of works tagged `genre`, by work then path. */
  songsByGenre(genre: string, offset: number, size: number): Promise<{ work_id: number; n: number }[]> {
    return this.db.all(
      `SELECT f.work_id, f.n FROM tags t JOIN work_tags wt ON wt.tag_id = t.id JOIN works w ON w.id = wt.work_id AND +w.missing = 0
         JOIN files f ON f.work_id = w.id AND f.kind = 'audio'
        WHERE t.name = ? ORDER BY w.release DESC, w.id DESC, f.path LIMIT ? OFFSET ?`,
      [genre, size, offset],
    );
  }

  randomSongs(q: { size: number; genre?: string; fromYear?: number; toYear?: number }): Promise<{ work_id: number; n: number }[]> {
    const where: string[] = ["f.kind = 'audio'", '+w.missing = 0'];
    const params: (string | number)[] = [];
    if (q.genre !== undefined) {
      where.push('w.id IN (SELECT wt.work_id FROM work_tags wt JOIN tags t ON t.id = wt.tag_id WHERE t.name = ?)');
      params.push(q.genre);
    }
    if (q.fromYear !== undefined) {
      where.push("w.release <> '' AND CAST(substr(w.release, 1, 4) AS INTEGER) >= ?");
      params.push(q.fromYear);
    }
    if (q.toYear !== undefined) {
      where.push("w.release <> '' AND CAST(substr(w.release, 1, 4) AS INTEGER) <= ?");
      params.push(q.toYear);
    }
    return this.db.all(`SELECT f.work_id, f.n FROM files f JOIN works w ON w.id = f.work_id WHERE ${where.join(' AND ')} ORDER BY random() LIMIT ?`, [...params, q.size]);
  }

  /** Folders (relative to the root) of the present works of a root folder. */
  workDirs(rootFolder: string): Promise<{ id: number; dir: string }[]> {
    return this.db.all('SELECT id, dir FROM works WHERE root_folder = ? AND missing = 0', [rootFolder]);
  }

  /** Where a work lives (getMusicDirectory with an album id). */
  workLocation(id: number): Promise<{ root_folder: string; dir: string } | undefined> {
    return this.db.get('SELECT root_folder, dir FROM works WHERE id = ? AND +missing = 0', [id]);
  }

  /** Audio files whose name (without extension) is `title`, of a circle named `artist` when given (at most 20). */
  async songsTitled(title: string, artist?: string): Promise<{ work_id: number; n: number }[]> {
    const like = `%${title.replace(/[\\%_]/g, (c) => `\\${c}`)}.%`;
    // with a circle its works drive (indexed); without, every audio file is tested (the caller bounds it)
    const rows = await this.db.all<{ work_id: number; n: number; path: string }>(
      artist
        ? `SELECT f.work_id, f.n, f.path FROM files f
            WHERE f.work_id IN (SELECT w.id FROM works w JOIN circles c ON c.id = w.circle_id WHERE c.name = ? AND +w.missing = 0)
              AND f.kind = 'audio' AND f.path LIKE ? ESCAPE '\\' LIMIT 200`
        : `SELECT f.work_id, f.n, f.path FROM files f JOIN works w ON w.id = f.work_id AND +w.missing = 0
            WHERE f.kind = 'audio' AND f.path LIKE ? ESCAPE '\\' LIMIT 200`,
      artist ? [artist, like] : [like],
    );
    const base = (p: string) => p.slice(p.lastIndexOf('/') + 1).replace(/\.[^.]+$/, '');
    return rows.filter((r) => base(r.path) === title).slice(0, 20);
  }

  /** Run `fn`, whose reads through this repository may be costly, on the database's costly connection. */
  costly<T>(timeoutMs: number, fn: () => Promise<T>, admit?: () => void, waitMs?: number): Promise<T> {
    return this.db.costly(timeoutMs, fn, admit, waitMs);
  }

  /** All of the user's stars of one kind, as item → when. */
  async allStars(userId: number, kind: 'album' | 'song' | 'artist'): Promise<Map<string, string>> {
    const rows = await this.db.all<{ item: string; created_at: string }>('SELECT item, created_at FROM subsonic_stars WHERE user_id = ? AND kind = ?', [userId, kind]);
    return new Map(rows.map((r) => [r.item, r.created_at]));
  }
}
