import path from 'node:path';
import type { Actor } from '../../auth/roles.js';
import type { ConfigStore } from '../../config/config-store.js';
import type { WorkListItem } from '../../contract/works.js';
import type { ListParams } from '../../contract/works-query.js';
import { compareTreePaths } from '../../domain/natural-sort.js';
import type { AlbumListType, SongFileRow, SubsonicLibraryRepo } from '../../db/repos/subsonic-library-repo.js';
import type { WorksService } from '../works/works-service.js';
import { parseAlbumId, parseArtistId, parseSongId } from './ids.js';
import { circleName, presentAlbum, presentArtist, presentSong, type PlacedSong, type SubsonicAlbum, type SubsonicSong } from './presenters.js';
import { subsonicNotFound } from './subsonic-error.js';

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

const LIST_BASE: Omit<ListParams, 'page' | 'pageSize'> = { order: 'release', sort: 'desc', seed: 0, nsfw: 0, lyric: null };

/**
 * The library as the Subsonic API shows it (docs/API.md#subsonic-api): works are albums, circles are
 * artists, tags are genres, the audio files of a work are its songs in tree order. Albums come from the
 * web API's own list forms (WorksService: cached per library version), searches are the web app's.
 */
export class SubsonicLibraryService {
  constructor(
    private readonly repo: SubsonicLibraryRepo,
    private readonly works: WorksService,
    private readonly store: ConfigStore,
  ) {}

  musicFolders() {
    return this.store.get().rootFolders.map((r, i) => ({ id: i + 1, name: r.name }));
  }

  /** Albums for work ids, in that order (ids of missing or unknown works are left out). */
  async albums(actor: Actor, ids: number[]): Promise<SubsonicAlbum[]> {
    if (!ids.length) return [];
    const [items, counts, stars] = await Promise.all([this.works.listItems(ids, actor), this.repo.songCounts(ids), this.repo.stars(actor.id, 'album', ids.map(String))]);
    return items.map((w) => presentAlbum(w, counts.get(w.id) ?? 0, stars.get(String(w.id))));
  }

  async albumList(actor: Actor, q: { type: AlbumListType; size: number; offset: number; fromYear?: number; toYear?: number; genre?: string }): Promise<SubsonicAlbum[]> {
    return this.albums(actor, await this.repo.albumIds({ ...q, userId: actor.id }));
  }

  private async work(actor: Actor, workId: number): Promise<WorkListItem> {
    const [item] = await this.works.listItems([workId], actor);
    if (!item || item.id !== workId) throw subsonicNotFound('Album');
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
    const { songs, discCount } = placeSongs(await this.repo.songFiles(work.id));
    const stars = await this.repo.stars(
      actor.id,
      'song',
      songs.map((s) => `${work.id}/${s.n}`),
    );
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
    const items = new Map((await this.works.listItems(workIds, actor)).map((w) => [w.id, w]));
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
    const rows = await this.repo.artists();
    const stars = await this.repo.stars(
      actor.id,
      'artist',
      rows.map((r) => String(r.id)),
    );
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
    const row = circleId === null ? undefined : await this.repo.artist(circleId);
    if (!row || circleId === null || row.album_count === 0) throw subsonicNotFound('Artist');
    const [stars, albums] = await Promise.all([this.repo.stars(actor.id, 'artist', [String(circleId)]), this.repo.albumIdsOfArtist(circleId).then((ids) => this.albums(actor, ids))]);
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
    const refs = await this.repo.randomSongs(q);
    return this.songsByRef(
      actor,
      refs.map((r) => ({ workId: r.work_id, n: r.n })),
    );
  }

  /**
   * search2 / search3: albums by the web app's keyword search (the same CJK substring matching), their
   * songs, and circles whose name contains the query. An empty query lists the whole library (native
   * apps sync with it), page by page.
   */
  async search(actor: Actor, q: { query: string; artistCount: number; artistOffset: number; albumCount: number; albumOffset: number; songCount: number; songOffset: number }) {
    const query = q.query.replace(/^"(.*)"$/, '$1').trim();
    const artistRows = q.artistCount > 0 ? await this.repo.artists({ match: query || undefined, offset: q.artistOffset, size: q.artistCount }) : [];
    const artistStars = await this.repo.stars(
      actor.id,
      'artist',
      artistRows.map((r) => String(r.id)),
    );
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
    if (!query) return this.repo.allAlbumIds(offset, count);
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
