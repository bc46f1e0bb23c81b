import path from 'node:path';
import type { Actor } from '../../auth/roles.js';
import { isAdmin } from '../../auth/roles.js';
import type { ConfigStore } from '../../config/config-store.js';
import type { SubsonicRepo, StarKind } from '../../db/repos/subsonic-repo.js';
import type { UsersRepo } from '../../db/repos/users-repo.js';
import type { UserDataService } from '../user-data-service.js';
import { parseAlbumId, parseArtistId, parseSongId } from './ids.js';
import { isoTime, type SubsonicSong } from './presenters.js';
import type { SubsonicLibraryService } from './subsonic-library-service.js';
import { SUBSONIC_CODES, SubsonicError, subsonicNotFound } from './subsonic-error.js';

/** What native apps report as playing now, kept for this long after the last report. */
const NOW_PLAYING_MS = 15 * 60_000;
const MAX_STARS = 5000;

interface NowPlaying {
  user: string;
  song: { workId: number; n: number };
  at: number;
  player: string;
}

/** Ids of star / unstar: `id` (songs, or albums and artists by their ids), `albumId`, `artistId`. */
export interface StarTargets {
  id: string[];
  albumId: string[];
  artistId: string[];
}

/** A Subsonic song as an entry of the web player's queue (the play state stored in play history). */
function queueEntry(song: SubsonicSong, ref: { workId: number; n: number }) {
  const folder = path.posix.dirname(song.path);
  return {
    hash: `${ref.workId}/${ref.n}`,
    title: path.posix.basename(song.path),
    subtitle: folder === '.' ? null : folder,
    workTitle: song.album,
    workId: ref.workId,
    ...(song.duration !== undefined ? { duration: song.duration } : {}),
  };
}

const refOf = (id: string) => {
  const ref = parseSongId(id);
  if (!ref) throw subsonicNotFound('Song');
  return ref;
};

/**
 * What a user stores through the Subsonic API (docs/API.md#subsonic-api): stars, the album rating (the
 * user's rating of the work, as on the web), scrobbles and the play queue — both kept as the play state
 * of play history, the one the web player resumes — and what is playing now (in memory).
 */
export class SubsonicUserService {
  private readonly nowPlaying = new Map<number, NowPlaying>();

  constructor(
    private readonly repo: SubsonicRepo,
    private readonly library: SubsonicLibraryService,
    private readonly userData: UserDataService,
    private readonly users: UsersRepo,
    private readonly store: ConfigStore,
  ) {}

  // ----- stars -------------------------------------------------------------------------------------

  private async starItems(t: StarTargets): Promise<[StarKind, string][]> {
    const out: [StarKind, string][] = [];
    for (const id of [...t.id, ...t.albumId, ...t.artistId]) {
      const song = parseSongId(id);
      const album = parseAlbumId(id);
      const artist = parseArtistId(id);
      if (song) {
        await this.library.song(this.systemActor, id);
        out.push(['song', `${song.workId}/${song.n}`]);
      } else if (album !== null) {
        await this.library.album(this.systemActor, id);
        out.push(['album', String(album)]);
      } else if (artist !== null && (await this.repo.circleExists(artist))) out.push(['artist', String(artist)]);
      else throw subsonicNotFound('Item');
    }
    if (!out.length) throw new SubsonicError(SUBSONIC_CODES.missingParameter, 'Required parameter is missing: id');
    return out;
  }

  /** Existence checks need no user's data: an actor no user is. */
  private readonly systemActor: Actor = { id: 0, name: '', role: 'guest' };

  async star(actor: Actor, t: StarTargets): Promise<void> {
    const items = await this.starItems(t);
    for (const kind of new Set(items.map(([k]) => k))) {
      if ((await this.repo.starred(actor.id, kind, MAX_STARS)).length >= MAX_STARS) throw new SubsonicError(SUBSONIC_CODES.generic, `At most ${MAX_STARS} stars of each kind`);
    }
    for (const [kind, item] of items) await this.repo.star(actor.id, kind, item);
  }

  async unstar(actor: Actor, t: StarTargets): Promise<void> {
    for (const [kind, item] of await this.starItems(t)) await this.repo.unstar(actor.id, kind, item);
  }

  async starred(actor: Actor) {
    const [songs, albums, artists] = await Promise.all((['song', 'album', 'artist'] as const).map((k) => this.repo.starred(actor.id, k, MAX_STARS)));
    const songRefs = songs.map((s) => {
      const [w, n] = s.item.split('/').map(Number);
      return { workId: w, n };
    });
    const [song, album, artist] = await Promise.all([
      this.library.songsByRef(actor, songRefs),
      this.library.albums(
        actor,
        albums.map((a) => Number(a.item)),
      ),
      Promise.all(artists.map((a) => this.library.artist(actor, `ar-${a.item}`).catch(() => null))),
    ]);
    return { artist: artist.flatMap((a) => (a ? [{ ...a, album: undefined }] : [])), album, song };
  }

  // ----- rating ------------------------------------------------------------------------------------

  /** An album's rating is the user's star rating of the work (0 removes it); songs have none of their own. */
  async setRating(actor: Actor, id: string, rating: number): Promise<void> {
    const workId = parseAlbumId(id);
    if (workId === null) {
      if (parseSongId(id)) throw new SubsonicError(SUBSONIC_CODES.generic, 'Only albums (works) can be rated');
      throw subsonicNotFound('Album');
    }
    await this.userData.putReview(actor, 'star', { work_id: workId, rating: rating === 0 ? null : rating });
  }

  // ----- scrobbles, now playing, play queue ---------------------------------------------------------

  /**
   * `submission` (default): the song was played — the work's play state in play history points at it
   * (its saved queue when that holds the song, else the work's songs); otherwise it is playing now.
   */
  async scrobble(actor: Actor, ids: string[], submission: boolean, player: string): Promise<void> {
    if (!ids.length) throw new SubsonicError(SUBSONIC_CODES.missingParameter, 'Required parameter is missing: id');
    for (const id of ids) {
      const ref = refOf(id);
      await this.library.song(actor, id);
      if (!submission) {
        this.nowPlaying.set(actor.id, { user: actor.name, song: ref, at: Date.now(), player: player.slice(0, 64) });
        continue;
      }
      const hash = `${ref.workId}/${ref.n}`;
      const saved = await this.userData.historyOf(actor, ref.workId);
      let state: { queue: { hash?: unknown }[]; index: number; seconds: number } | null = null;
      try {
        const parsed = saved ? (JSON.parse(saved.state) as { queue?: unknown }) : null;
        if (parsed && Array.isArray(parsed.queue)) {
          const index = (parsed.queue as { hash?: unknown }[]).findIndex((e) => e && e.hash === hash);
          if (index >= 0) state = { ...(parsed as object), queue: parsed.queue as { hash?: unknown }[], index, seconds: 0 };
        }
      } catch {
        state = null;
      }
      if (!state) {
        const album = await this.library.album(actor, `al-${ref.workId}`);
        const queue = album.song.map((s) => queueEntry(s, refOf(s.id)));
        state = {
          queue,
          index: Math.max(
            0,
            queue.findIndex((e) => e.hash === hash),
          ),
          seconds: 0,
        };
      }
      await this.userData.putHistory(actor, { work_id: ref.workId, state });
    }
  }

  async nowPlayingList(actor: Actor) {
    const now = Date.now();
    const out = [];
    for (const [userId, np] of this.nowPlaying) {
      if (now - np.at > NOW_PLAYING_MS) {
        this.nowPlaying.delete(userId);
        continue;
      }
      const [song] = await this.library.songsByRef(actor, [np.song]);
      if (song) out.push({ ...song, username: np.user, minutesAgo: Math.floor((now - np.at) / 60_000), playerId: 0, playerName: np.player });
    }
    return out;
  }

  /** The play state the web player resumes: the user's most recently saved one. */
  async playQueue(actor: Actor) {
    const page = await this.userData.historyPage(actor, { sort: 'desc', page: 1, pageSize: 1 });
    const row = page.rows[0];
    if (!row) return null;
    let state: { queue?: unknown; index?: unknown; seconds?: unknown };
    try {
      state = JSON.parse(row.state) as typeof state;
    } catch {
      return null;
    }
    const queue = Array.isArray(state.queue) ? (state.queue as { hash?: unknown }[]) : [];
    const refs = queue.flatMap((e) => {
      const m = typeof e?.hash === 'string' ? /^(\d{1,15})\/(\d{1,9})$/.exec(e.hash) : null;
      return m ? [{ workId: Number(m[1]), n: Number(m[2]) }] : [];
    });
    const songs = await this.library.songsByRef(actor, refs);
    const index = typeof state.index === 'number' ? state.index : 0;
    const currentRef = queue[index]?.hash;
    const current = typeof currentRef === 'string' ? songs.find((s) => s.id === `tr-${currentRef.replace('/', '-')}`) : undefined;
    const seconds = typeof state.seconds === 'number' && Number.isFinite(state.seconds) ? state.seconds : 0;
    return {
      entry: songs,
      ...(current ? { current: current.id, position: Math.round(seconds * 1000) } : {}),
      username: actor.name,
      changed: isoTime(row.updated_at),
      changedBy: 'kikoplay',
    };
  }

  /** Save a queue as the play state of the current song's work (the web player resumes it). */
  async savePlayQueue(actor: Actor, ids: string[], current: string | undefined, positionMs: number): Promise<void> {
    if (!ids.length) return;
    const refs = ids.map(refOf);
    const songs = await this.library.songsByRef(actor, refs);
    const byId = new Map(songs.map((s) => [s.id, s]));
    const queue = ids.flatMap((id, i) => {
      const s = byId.get(id);
      return s ? [queueEntry(s, refs[i])] : [];
    });
    if (!queue.length) throw subsonicNotFound('Song');
    const currentHash = current ? `${refOf(current).workId}/${refOf(current).n}` : queue[0].hash;
    const index = Math.max(
      0,
      queue.findIndex((e) => e.hash === currentHash),
    );
    await this.userData.putHistory(actor, { work_id: queue[index].workId, state: { queue, index, seconds: Math.max(0, positionMs) / 1000 } });
  }

  // ----- users -------------------------------------------------------------------------------------

  async user(actor: Actor, name: string) {
    if (name !== actor.name && !isAdmin(actor)) throw new SubsonicError(SUBSONIC_CODES.notAuthorized, 'Only an administrator may see other users');
    const row = name === actor.name ? { name: actor.name, role: actor.role } : await this.users.byName(name);
    if (!row) throw subsonicNotFound('User');
    const admin = row.role === 'admin';
    const writer = row.role !== 'guest';
    return {
      username: row.name,
      scrobblingEnabled: writer,
      adminRole: admin,
      settingsRole: writer,
      downloadRole: true,
      uploadRole: false,
      playlistRole: false,
      coverArtRole: false,
      commentRole: writer,
      podcastRole: false,
      streamRole: true,
      jukeboxRole: false,
      shareRole: false,
      videoConversionRole: false,
      folder: this.store.get().rootFolders.map((_, i) => i + 1),
    };
  }
}
