import { ALBUM_LIST_TYPES, type AlbumListType } from '../../../contract/subsonic.js';
import { SUBSONIC_CODES, SubsonicError } from '../../../services/subsonic/subsonic-error.js';
import type { SubsonicParams } from './params.js';
import { subsonicMethod, type SubsonicModule } from './router.js';
import { renderSubsonicJson, wantsJson } from './render.js';

/** The most items one list answer holds. */
const MAX_LIST = 500;

function albumListQuery(p: SubsonicParams) {
  const type = p.required('type');
  if (!(ALBUM_LIST_TYPES as readonly string[]).includes(type)) throw new SubsonicError(SUBSONIC_CODES.generic, 'Unknown album list type');
  const q = {
    type: type as AlbumListType,
    size: p.int('size', 10, 1, MAX_LIST),
    offset: p.int('offset', 0, 0, Number.MAX_SAFE_INTEGER),
    fromYear: undefined as number | undefined,
    toYear: undefined as number | undefined,
    genre: undefined as string | undefined,
  };
  if (q.type === 'byYear') {
    q.fromYear = p.int('fromYear', 0, 0, 9999);
    q.toYear = p.int('toYear', 9999, 0, 9999);
    if (p.str('fromYear') === undefined) p.required('fromYear');
    if (p.str('toYear') === undefined) p.required('toYear');
  }
  if (q.type === 'byGenre') q.genre = p.required('genre');
  return q;
}

function searchQuery(p: SubsonicParams) {
  const n = (name: string, fallback: number) => p.int(name, fallback, 0, MAX_LIST);
  return {
    query: p.str('query') ?? '',
    artistCount: n('artistCount', 20),
    artistOffset: p.int('artistOffset', 0, 0, Number.MAX_SAFE_INTEGER),
    albumCount: n('albumCount', 20),
    albumOffset: p.int('albumOffset', 0, 0, Number.MAX_SAFE_INTEGER),
    songCount: n('songCount', 20),
    songOffset: p.int('songOffset', 0, 0, Number.MAX_SAFE_INTEGER),
  };
}

/** Artists, albums, songs, lists, genres and search (works as albums, circles as artists). */
export const subsonicBrowse: SubsonicModule = (router, { subsonic }) => {
  subsonicMethod(router, 'getIndexes', { summary: 'Subsonic: the top folders of the root folders' }, async ({ params }) => ({
    indexes: await subsonic.indexes(params.optionalInt('musicFolderId', 1, 9999)),
  }));

  subsonicMethod(router, 'getMusicDirectory', { summary: 'Subsonic: a folder of the library' }, async ({ actor, params }) => ({
    directory: await subsonic.directory(actor, params.required('id')),
  }));

  subsonicMethod(router, 'getArtists', { summary: 'Subsonic: circles as artists, by initial' }, async ({ actor }) => ({ artists: await subsonic.artists(actor) }));

  subsonicMethod(router, 'getArtist', { summary: 'Subsonic: a circle and its works' }, async ({ actor, params }) => ({ artist: await subsonic.artist(actor, params.required('id')) }));

  subsonicMethod(router, 'getAlbum', { summary: 'Subsonic: a work and its audio files' }, async ({ actor, params }) => ({ album: await subsonic.album(actor, params.required('id')) }));

  subsonicMethod(router, 'getSong', { summary: 'Subsonic: one audio file' }, async ({ actor, params }) => ({ song: await subsonic.song(actor, params.required('id')) }));

  // album lists: the JSON form from per-work JSON text (their hottest answer), XML from the objects
  for (const [name, key] of [
    ['getAlbumList', 'albumList'],
    ['getAlbumList2', 'albumList2'],
  ] as const) {
    subsonicMethod(router, name, { summary: `Subsonic: a list of works${key === 'albumList2' ? ' (ID3)' : ''}` }, async ({ actor, params }, ctx) => {
      const ids = await subsonic.albumListIds(actor, albumListQuery(params));
      if (wantsJson(ctx)) return renderSubsonicJson(ctx, key, `{"album":${await subsonic.albumsJson(actor, ids)}}`);
      return { [key]: { album: await subsonic.albums(actor, ids) } };
    });
  }

  subsonicMethod(router, 'getGenres', { summary: 'Subsonic: tags as genres' }, async () => ({ genres: { genre: await subsonic.genres() } }));

  subsonicMethod(router, 'getSongsByGenre', { summary: 'Subsonic: audio files of works with a tag' }, async ({ actor, params }) => {
    const genre = params.required('genre');
    return { songsByGenre: { song: await subsonic.songsByGenre(actor, genre, params.int('count', 10, 1, MAX_LIST), params.int('offset', 0, 0, Number.MAX_SAFE_INTEGER)) } };
  });

  subsonicMethod(router, 'getRandomSongs', { summary: 'Subsonic: random audio files' }, async ({ actor, params }) => {
    const q = { size: params.int('size', 10, 1, MAX_LIST), genre: params.str('genre'), fromYear: params.optionalInt('fromYear', 0, 9999), toYear: params.optionalInt('toYear', 0, 9999) };
    return { randomSongs: { song: await subsonic.randomSongs(actor, q) } };
  });

  subsonicMethod(router, 'search2', { summary: 'Subsonic: search (the web app search)' }, async ({ actor, params }) => ({ searchResult2: await subsonic.search(actor, searchQuery(params)) }));

  subsonicMethod(router, 'search3', { summary: 'Subsonic: search (ID3; the web app search)' }, async ({ actor, params }) => ({ searchResult3: await subsonic.search(actor, searchQuery(params)) }));
};
