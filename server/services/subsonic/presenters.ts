import path from 'node:path';
import mime from 'mime-types';
import type { WorkListItem } from '../../contract/works.js';
import { albumId, artistId, songId } from './ids.js';

/** A circle's name, or a stand-in for works whose circle is not known yet. */
export const circleName = (name: string) => name || 'Unknown circle';

/** ISO 8601 from the database's `YYYY-MM-DD HH:MM:SS` (UTC). */
export const isoTime = (sql: string) => (sql.includes('T') ? sql : `${sql.replace(' ', 'T')}Z`);

const yearOf = (release: string) => (/^\d{4}/.test(release) ? Number(release.slice(0, 4)) : undefined);

/** Content types native players expect, by lower-case extension. */
const AUDIO_TYPES: Record<string, string> = { '.flac': 'audio/flac', '.m4a': 'audio/mp4', '.opus': 'audio/ogg', '.mka': 'audio/x-matroska', '.mp3': 'audio/mpeg', '.wav': 'audio/wav' };

export const audioContentType = (file: string) => {
  const ext = path.extname(file).toLowerCase();
  return AUDIO_TYPES[ext] ?? (mime.lookup(ext) || 'application/octet-stream');
};

/** A song of an album in tree order: its file and its place. */
export interface PlacedSong {
  n: number;
  path: string;
  size: number;
  duration: number | null;
  track: number;
  disc: number;
}

function people(work: WorkListItem) {
  const artist = { id: artistId(work.circle.id), name: circleName(work.circle.name) };
  return {
    artist,
    genres: work.tags.map((t) => ({ name: t.name })),
    // OpenSubsonic contributors: the voice actors perform every song of the work
    contributors: work.vas.map((v) => ({ role: 'performer', artist: { id: `va-${v.id}`, name: v.name } })),
  };
}

/** A work as an OpenSubsonic AlbumID3 (also the album form of getAlbumList, with `title`/`parent`). */
export function presentAlbum(work: WorkListItem, songCount: number, starred: string | undefined) {
  const { artist, genres } = people(work);
  const year = yearOf(work.release);
  return {
    id: albumId(work.id),
    name: work.title,
    title: work.title,
    album: work.title,
    isDir: true,
    artist: artist.name,
    artistId: artist.id,
    coverArt: albumId(work.id),
    songCount,
    duration: Math.round(work.memo.totalDuration),
    created: isoTime(work.created_at),
    ...(year !== undefined ? { year } : {}),
    ...(genres.length ? { genre: genres[0].name } : {}),
    ...(starred ? { starred: isoTime(starred) } : {}),
    ...(work.userRating ? { userRating: work.userRating } : {}),
    sortName: work.title,
    mediaType: 'album',
    genres,
    artists: [artist],
    displayArtist: artist.name,
    releaseTypes: [],
    moods: [],
    isCompilation: false,
    // the work's code in the comment-like field clients show under the title
    version: work.code,
  };
}

/** An audio file of a work as an OpenSubsonic Child (song). */
export function presentSong(work: WorkListItem, song: PlacedSong, discCount: number, starred: string | undefined) {
  const { artist, genres, contributors } = people(work);
  const year = yearOf(work.release);
  const suffix = path.extname(song.path).slice(1).toLowerCase();
  const duration = song.duration !== null && Number.isFinite(song.duration) ? Math.round(song.duration) : undefined;
  const bitRate = duration ? Math.round((song.size * 8) / duration / 1000) : undefined;
  return {
    id: songId(work.id, song.n),
    parent: albumId(work.id),
    isDir: false,
    title: path.posix.basename(song.path).replace(/\.[^.]+$/, ''),
    album: work.title,
    artist: artist.name,
    track: song.track,
    ...(discCount > 1 ? { discNumber: song.disc } : {}),
    ...(year !== undefined ? { year } : {}),
    ...(genres.length ? { genre: genres[0].name } : {}),
    coverArt: albumId(work.id),
    size: song.size,
    contentType: audioContentType(song.path),
    suffix,
    ...(duration !== undefined ? { duration } : {}),
    ...(bitRate !== undefined ? { bitRate } : {}),
    path: song.path,
    isVideo: false,
    created: isoTime(work.created_at),
    albumId: albumId(work.id),
    artistId: artist.id,
    type: 'music',
    mediaType: 'song',
    ...(starred ? { starred: isoTime(starred) } : {}),
    genres,
    artists: [artist],
    displayArtist: artist.name,
    albumArtists: [artist],
    displayAlbumArtist: artist.name,
    contributors,
    displayComposer: '',
    moods: [],
  };
}

export function presentArtist(row: { id: number; name: string; album_count: number }, starred: string | undefined) {
  return {
    id: artistId(row.id),
    name: circleName(row.name),
    coverArt: artistId(row.id),
    albumCount: row.album_count,
    ...(starred ? { starred: isoTime(starred) } : {}),
    sortName: circleName(row.name),
    roles: ['albumartist'],
  };
}

export type SubsonicAlbum = ReturnType<typeof presentAlbum>;
export type SubsonicSong = ReturnType<typeof presentSong>;
