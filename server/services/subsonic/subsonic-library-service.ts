import path from 'node:path';
import type { Actor } from '../../auth/roles.js';
import type { ConfigStore } from '../../config/config-store.js';
import type { WorkListItem } from '../../contract/works.js';
import type { ListParams } from '../../contract/works-query.js';
import { compareTreePaths, naturalCompare, pathSegments } from '../../domain/natural-sort.js';
import type { AlbumListType, SongFileRow, SubsonicLibraryRepo } from '../../db/repos/subsonic-library-repo.js';
import { StampedCache } from '../../db/stamped-cache.js';
import type { WorksService } from '../works/works-service.js';
import { albumId, directoryId, parseAlbumId, parseArtistId, parseDirectoryId, parseSongId } from './ids.js';
import { circleName, isoTime, presentAlbum, presentArtist, presentSong, type PlacedSong, type SubsonicAlbum, type SubsonicSong } from './presenters.js';
import { subsonicNotFound } from './subsonic-error.js';
import { VersionMemo } from '../caches/version-memo.js';
import { LibraryViews, randomIndex, shuffled, type LibraryOrder } from './library-views.js';

const LIBRARY_ORDERS: readonly string[] = ['newest', 'alphabeticalByName', 'alphabeticalByArtist'] satisfies LibraryOrder[];
const isLibraryOrder = (type: string): type is LibraryOrder => LIBRARY_ORDERS.includes(type);

/** Songs of a work in tree order, numbered per audio folder (one disc per folder when there are several). */
export function placeSongs(files: SongFileRow[]): { songs: PlacedSong[]; discCount: number } {
  const sorted = [...files].sort((a, b) => compareTreePaths(a.path, b.path));
  const discs = new Map<string, number>();
  const tracks = new Map<string, number>();
  const songs = sorted.map((f) => {
    const folder = path.posix.dirname(f.path.replace(/\\/g, '/'));
    if (!discs.has(folder)) discs.set(folder, discs.size + 1);
    const track = (tracks.get(folder) ?? 0) + 1;
    tracks.set(folder, track);
    return { n: f.n, path: f.path, size: f.size, duration: f.duration, track, disc: discs.get(folder)! };
  });
  return { songs, discCount: discs.size };
}

/** Index buckets of getArtists / getIndexes: the first letter, upper-cased; '#' for anything else. */
const indexLetter = (name: string) => {
  const c = name.normalize('NFKC').charAt(0).toUpperCase();
  return /[A-Z]/.test(c) ? c : '#';
};

/** The most album JSON texts kept (about 700 bytes each). */
const ALBUM_JSON_MAX = 20_000;

/** An album list as a client asks for it (getAlbumList / getAlbumList2). */
export interface AlbumListParams {
  type: AlbumListType;
  size: number;
  offset: number;
  fromYear?: number;
  toYear?: number;
  genre?: string;
}

const LIST_BASE: Omit<ListParams, 'page' | 'pageSize'> = { order: 'release', sort: 'desc', seed: 0, nsfw: 0, lyric: null };

/**
 * The library as the Subsonic API shows it (docs/API.md#subsonic-api): works are albums, circles are
 * artists, tags are genres, the audio files of a work are its songs in tree order. Albums come from the
 * web API's own list forms (WorksService: cached per library version), searches are the web app's.
 */
export class SubsonicLibraryService {
  private readonly views: LibraryViews;
  /** Each present work's album JSON without the user's star and rating (closing brace left off), per library version. */
  private readonly albumJson = new VersionMemo<string>(ALBUM_JSON_MAX);
  /** Each user's stars of a kind (item → when), read again once anything was committed. */
  private readonly stars = new StampedCache<string, Map<string, string>>(() => this.repo.changeStamp());

  constructor(
    private readonly repo: SubsonicLibraryRepo,
    private readonly works: WorksService,
    private readonly store: ConfigStore,
  ) {
    this.views = new LibraryViews(repo, () => works.version());
  }

  musicFolders() {
    return this.store.get().rootFolders.map((r, i) => ({ id: i + 1, name: r.name }));
  }

  // ----- the folder tree (getIndexes / getMusicDirectory) ------------------------------------------

  /** The top folders of the root folders (all, or the music folder `folderId`), by initial. */
  async indexes(folderId: number | undefined) {
    const roots = this.store.get().rootFolders.map((r, i) => ({ id: i + 1, name: r.name }));
    const chosen = folderId === undefined ? roots : roots.filter((r) => r.id === folderId);
    if (folderId !== undefined && !chosen.length) throw subsonicNotFound('Music folder');
    const buckets = new Map<string, { id: string; name: string }[]>();
    for (const root of chosen) {
      const tops = new Set((await this.views.workDirs(root.name)).map((w) => pathSegments(w.dir)[0]).filter((s): s is string => !!s));
      for (const name of [...tops].sort(naturalCompare)) {
        const letter = indexLetter(name);
        if (!buckets.has(letter)) buckets.set(letter, []);
        buckets.get(letter)!.push({ id: directoryId(root.id, name), name });
      }
    }
    const names = [...buckets.keys()].sort((a, b) => (a === '#' ? 1 : b === '#' ? -1 : a.localeCompare(b)));
    return { ignoredArticles: '', lastModified: Date.now(), index: names.map((name) => ({ name, artist: buckets.get(name)! })) };
  }

  /** A folder of the library: its sub-folders (those holding works or audio) and the songs in it. */
  async directory(actor: Actor, id: string) {
    let dir = parseDirectoryId(id);
    const workOfAlbumId = parseAlbumId(id);
    if (!dir && workOfAlbumId !== null) {
      const loc = await this.repo.workLocation(workOfAlbumId);
      const index = this.store.get().rootFolders.findIndex((r) => r.name === loc?.root_folder);
      if (loc && index >= 0) dir = { folderId: index + 1, rel: loc.dir };
    }
    const root = dir ? this.store.get().rootFolders[dir.folderId - 1] : undefined;
    if (!dir || !root) throw subsonicNotFound('Directory');
    const { folderId, rel } = dir;
    const works = await this.views.workDirs(root.name);
    const parentRel = rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : null;
    const head = { id: directoryId(folderId, rel), ...(parentRel !== null ? { parent: directoryId(folderId, parentRel) } : {}), name: rel.slice(rel.lastIndexOf('/') + 1) };
    const owner = works.find((w) => rel === w.dir || rel.startsWith(`${w.dir}/`));
    if (owner) {
      const work = await this.work(actor, owner.id);
      const sub = rel === owner.dir ? '' : rel.slice(owner.dir.length + 1);
      const songs = await this.songsOf(actor, work);
      const folders = new Set<string>();
      const here: SubsonicSong[] = [];
      for (const song of songs) {
        const inside = sub ? (song.path.startsWith(`${sub}/`) ? song.path.slice(sub.length + 1) : null) : song.path;
        if (inside === null) continue;
        const slash = inside.indexOf('/');
        if (slash === -1) here.push(song);
        else folders.add(inside.slice(0, slash));
      }
      const sep = sub ? `${rel}/` : `${owner.dir}/`;
      const child = [...[...folders].map((name) => ({ id: directoryId(folderId, sep + name), parent: head.id, isDir: true, title: name, album: work.title, coverArt: albumId(work.id) })), ...here];
      return { ...head, child };
    }
    const prefix = rel ? `${rel}/` : '';
    const below = works.filter((w) => w.dir.startsWith(prefix));
    if (!below.length) throw subsonicNotFound('Directory');
    const children = new Map<string, number | null>();
    for (const w of below) {
      const name = pathSegments(w.dir.slice(prefix.length))[0];
      if (!name) continue;
      const isWork = w.dir === prefix + name;
      if (isWork || !children.has(name)) children.set(name, isWork ? w.id : (children.get(name) ?? null));
    }
    const items = new Map(
      (
        await this.works.listItems(
          [...children.values()].filter((v): v is number => v !== null),
          actor,
        )
      ).map((w) => [w.id, w]),
    );
    const child = [...children.entries()]
      .sort(([a], [b]) => naturalCompare(a, b))
      .map(([name, workId]) => {
        const work = workId !== null ? items.get(workId) : undefined;
        return {
          id: directoryId(folderId, prefix + name),
          parent: head.id,
          isDir: true,
          title: name,
          ...(work ? { album: work.title, artist: circleName(work.circle.name), coverArt: albumId(work.id), year: Number(work.release.slice(0, 4)) || undefined } : {}),
        };
      });
    return { ...head, child };
  }

  /** Works whose folder is present (getScanStatus `count`). */
  albumCount(): Promise<number> {
    return this.views.count();
  }

  /** The user's stars of one kind (item → when). */
  private starsOf(userId: number, kind: 'album' | 'song' | 'artist'): Promise<Map<string, string>> {
    return this.stars.get(`${userId}:${kind}`, () => this.repo.allStars(userId, kind));
  }

  /** Albums for work ids, in that order (ids of missing or unknown works are left out). */
  async albums(actor: Actor, ids: number[]): Promise<SubsonicAlbum[]> {
    if (!ids.length) return [];
    const [items, facts, stars] = await Promise.all([this.works.listItems(ids, actor), this.views.albumFacts(ids), this.starsOf(actor.id, 'album')]);
    return items.flatMap((w) => {
      const f = facts.get(w.id);
      return f ? [presentAlbum(w, f.songCount, stars.get(String(w.id)))] : [];
    });
  }

  /** The work ids of an album list, in its order. */
  async albumListIds(actor: Actor, q: AlbumListParams): Promise<number[]> {
    const { type } = q;
    if (type === 'random') return this.views.random(q.size);
    if (isLibraryOrder(type)) return this.views.page(type, q.offset, q.size);
    return this.repo.userAlbumIds({ ...q, type, userId: actor.id });
  }

  /**
   * The JSON text of `albums(actor, ids)` (what album lists answer with `f=json`, their hottest form):
   * each album's user-independent JSON is kept per library version and the user's star and rating are
   * appended, so a page of 50 albums is neither presented nor serialised again.
   */
  async albumsJson(actor: Actor, ids: number[]): Promise<string> {
    if (!ids.length) return '[]';
    const [fragments, stars, ratings] = await Promise.all([
      this.albumJson.getMany(await this.works.version(), ids, async (missing) => {
        const [items, facts] = await Promise.all([this.works.listItems(missing, null), this.views.albumFacts(missing)]);
        const out = new Map<number, string>();
        for (const w of items) {
          const f = facts.get(w.id);
          if (f) out.set(w.id, JSON.stringify(presentAlbum({ ...w, userRating: null }, f.songCount, undefined)).slice(0, -1));
        }
        return out;
      }),
      this.starsOf(actor.id, 'album'),
      this.works.userRatingsOf(ids, actor),
    ]);
    const albums: string[] = [];
    for (const id of ids) {
      const fragment = fragments.get(id);
      if (fragment === undefined) continue;
      const starred = stars.get(String(id));
      const rating = ratings.get(id);
      albums.push(`${fragment}${starred ? `,"starred":${JSON.stringify(isoTime(starred))}` : ''}${rating ? `,"userRating":${rating}` : ''}}`);
    }
    return `[${albums.join(',')}]`;
  }

  private async work(actor: Actor, workId: number): Promise<WorkListItem> {
    const [[item], present] = await Promise.all([this.works.listItems([workId], actor), this.views.albumFacts([workId])]);
    if (!item || item.id !== workId || !present.has(workId)) throw subsonicNotFound('Album');
    return item;
  }

  async album(actor: Actor, id: string): Promise<SubsonicAlbum & { song: SubsonicSong[] }> {
    const workId = parseAlbumId(id);
    if (workId === null) throw subsonicNotFound('Album');
    const work = await this.work(actor, workId);
    const songs = await this.songsOf(actor, work);
    const [album] = await this.albums(actor, [workId]);
    if (!album) throw subsonicNotFound('Album');
    return { ...album, song: songs };
  }

  private async songsOf(actor: Actor, work: WorkListItem): Promise<SubsonicSong[]> {
    const { songs, discCount } = placeSongs((await this.views.audioFiles([work.id])).get(work.id) ?? []);
    const stars = await this.starsOf(actor.id, 'song');
    return songs.map((s) => presentSong(work, s, discCount, stars.get(`${work.id}/${s.n}`)));
  }

  async song(actor: Actor, id: string): Promise<SubsonicSong> {
    const ref = parseSongId(id);
    if (!ref) throw subsonicNotFound('Song');
    const [song] = await this.songsByRef(actor, [ref]);
    if (!song) throw subsonicNotFound('Song');
    return song;
  }

  /** Songs for (work, file number) pairs, in that order; unknown ones are left out. */
  async songsByRef(actor: Actor, refs: { workId: number; n: number }[]): Promise<SubsonicSong[]> {
    const workIds = [...new Set(refs.map((r) => r.workId))];
    const [listed, present] = await Promise.all([this.works.listItems(workIds, actor), this.views.albumFacts(workIds)]);
    const items = new Map(listed.filter((w) => present.has(w.id)).map((w) => [w.id, w]));
    const byWork = new Map<number, Map<number, SubsonicSong>>();
    await Promise.all(
      [...items.values()].map(async (w) => {
        const songs = await this.songsOf(actor, w);
        byWork.set(w.id, new Map(songs.map((s) => [Number(s.id.slice(s.id.lastIndexOf('-') + 1)), s])));
      }),
    );
    return refs.flatMap((r) => byWork.get(r.workId)?.get(r.n) ?? []);
  }

  async artists(actor: Actor) {
    const [{ list: rows }, stars] = await Promise.all([this.views.artists(), this.starsOf(actor.id, 'artist')]);
    const buckets = new Map<string, ReturnType<typeof presentArtist>[]>();
    for (const r of rows) {
      const letter = indexLetter(circleName(r.name));
      if (!buckets.has(letter)) buckets.set(letter, []);
      buckets.get(letter)!.push(presentArtist(r, stars.get(String(r.id))));
    }
    const names = [...buckets.keys()].sort((a, b) => (a === '#' ? 1 : b === '#' ? -1 : a.localeCompare(b)));
    return { ignoredArticles: '', index: names.map((name) => ({ name, artist: buckets.get(name)! })) };
  }

  async artist(actor: Actor, id: string) {
    const circleId = parseArtistId(id);
    const row = circleId === null ? undefined : (await this.views.artists()).byId.get(circleId);
    if (!row || circleId === null || row.album_count === 0) throw subsonicNotFound('Artist');
    const [stars, albums] = await Promise.all([this.starsOf(actor.id, 'artist'), this.repo.albumIdsOfArtist(circleId).then((ids) => this.albums(actor, ids))]);
    return { ...presentArtist(row, stars.get(String(circleId))), album: albums };
  }

  /** The work whose cover an id's cover art is: an album, a song's album, an artist's newest album. */
  async coverWorkId(id: string): Promise<number> {
    const song = parseSongId(id);
    if (song) return song.workId;
    const album = parseAlbumId(id);
    if (album !== null) return album;
    const circle = parseArtistId(id);
    const [newest] = circle === null ? [] : await this.repo.albumIdsOfArtist(circle);
    if (newest === undefined) throw subsonicNotFound('Cover art');
    return newest;
  }

  async genres() {
    return (await this.repo.genres()).map((g) => ({ value: g.name, songCount: g.song_count, albumCount: g.album_count }));
  }

  async songsByGenre(actor: Actor, genre: string, count: number, offset: number): Promise<SubsonicSong[]> {
    const refs = await this.repo.songsByGenre(genre, offset, count);
    return this.songsByRef(
      actor,
      refs.map((r) => ({ workId: r.work_id, n: r.n })),
    );
  }

  async randomSongs(actor: Actor, q: { size: number; genre?: string; fromYear?: number; toYear?: number }): Promise<SubsonicSong[]> {
    const filtered = q.genre !== undefined || q.fromYear !== undefined || q.toYear !== undefined;
    const refs = filtered ? await this.repo.randomSongs(q) : await this.randomSongRefs(q.size);
    return this.songsByRef(
      actor,
      refs.map((r) => ({ workId: r.work_id, n: r.n })),
    );
  }

  /**
   * `size` random songs without the whole files table: `size` random works, then their songs in random
   * order taken a round at a time (one of each work, then a second…), so a large library gives one song
   * per work and a small one all its songs.
   */
  private async randomSongRefs(size: number): Promise<{ work_id: number; n: number }[]> {
    const works = await this.views.random(size);
    const files = await this.views.audioFiles(works);
    const rounds = works.map((id) => shuffled(files.get(id) ?? [], randomIndex));
    const out: { work_id: number; n: number }[] = [];
    for (let round = 0; out.length < size && rounds.some((songs) => songs.length > round); round++) {
      for (const songs of rounds) if (songs.length > round && out.length < size) out.push(songs[round]);
    }
    return out;
  }

  /** Circles whose name contains `query` (case-insensitive; all for an empty query), by name. */
  private async artistsNamed(query: string, offset: number, size: number) {
    const { list } = await this.views.artists();
    const q = query.toLowerCase();
    const matching = q ? list.filter((a) => a.name.toLowerCase().includes(q)) : list;
    return matching.slice(offset, offset + size);
  }

  /**
   * search2 / search3: albums by the web app's keyword search (the same CJK substring matching), their
   * songs, and circles whose name contains the query. An empty query lists the whole library (native
   * apps sync with it), page by page.
   */
  async search(actor: Actor, q: { query: string; artistCount: number; artistOffset: number; albumCount: number; albumOffset: number; songCount: number; songOffset: number }) {
    const query = q.query.replace(/^"(.*)"$/, '$1').trim();
    const artistRows = q.artistCount > 0 ? await this.artistsNamed(query, q.artistOffset, q.artistCount) : [];
    const artistStars = await this.starsOf(actor.id, 'artist');
    const artists = artistRows.map((r) => presentArtist(r, artistStars.get(String(r.id))));
    const albumIds = q.albumCount > 0 ? await this.albumIdsOf(actor, query, q.albumOffset, q.albumCount) : [];
    const albums = await this.albums(actor, albumIds);
    let songs: SubsonicSong[] = [];
    if (q.songCount > 0) {
      // songs of the matching albums, in album order then tree order, paged across albums
      const songAlbumIds = await this.albumIdsOf(actor, query, 0, Math.min(500, q.songOffset + q.songCount));
      const items = new Map((await this.works.listItems(songAlbumIds, actor)).map((w) => [w.id, w]));
      const all: SubsonicSong[] = [];
      for (const id of songAlbumIds) {
        const w = items.get(id);
        if (w) all.push(...(await this.songsOf(actor, w)));
        if (all.length >= q.songOffset + q.songCount) break;
      }
      songs = all.slice(q.songOffset, q.songOffset + q.songCount);
    }
    return { artist: artists, album: albums, song: songs };
  }

  private async albumIdsOf(actor: Actor, query: string, offset: number, count: number): Promise<number[]> {
    if (!query) return this.views.page('id', offset, count);
    // the web app's search pages by page number: read the pages that cover [offset, offset + count)
    const first = Math.floor(offset / count) + 1;
    const last = Math.floor((offset + count - 1) / count) + 1;
    const ids: number[] = [];
    for (let page = first; page <= last; page++) {
      const res = await this.works.list(actor, { ...LIST_BASE, page, pageSize: count }, { kind: 'search', keyword: query, advanced: false });
      ids.push(...res.works.map((w) => w.id));
      if (res.works.length < count) break;
    }
    const skip = offset - (first - 1) * count;
    return ids.slice(skip, skip + count);
  }
}
