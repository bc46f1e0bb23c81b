import { SUBSONIC_CODES, SubsonicError } from '../../../services/subsonic/subsonic-error.js';
import { subsonicMethod, type SubsonicModule } from './router.js';

/** Stars, ratings, scrobbles, now playing, the play queue and the user (what a user stores: guests get 50). */
export const subsonicUser: SubsonicModule = (router, { subsonicUser: users }) => {
  const targets = (p: { all(name: string): string[] }) => ({ id: p.all('id'), albumId: p.all('albumId'), artistId: p.all('artistId') });

  subsonicMethod(router, 'star', { summary: 'Subsonic: star songs, albums, artists', write: true }, async ({ actor, params }) => {
    await users.star(actor, targets(params));
    return {};
  });

  subsonicMethod(router, 'unstar', { summary: 'Subsonic: remove stars', write: true }, async ({ actor, params }) => {
    await users.unstar(actor, targets(params));
    return {};
  });

  subsonicMethod(router, 'getStarred', { summary: "Subsonic: the user's stars" }, async ({ actor }) => ({ starred: await users.starred(actor) }));

  subsonicMethod(router, 'getStarred2', { summary: "Subsonic: the user's stars (ID3)" }, async ({ actor }) => ({ starred2: await users.starred(actor) }));

  subsonicMethod(router, 'setRating', { summary: "Subsonic: rate an album (the user's work rating)", write: true }, async ({ actor, params }) => {
    const id = params.required('id');
    const rating = params.required('rating');
    if (!/^[0-5]$/.test(rating)) throw new SubsonicError(SUBSONIC_CODES.generic, 'Parameter rating must be 0 to 5');
    await users.setRating(actor, id, Number(rating));
    return {};
  });

  subsonicMethod(router, 'scrobble', { summary: 'Subsonic: a song played (play history) or playing now', write: true }, async ({ actor, params }) => {
    const submission = (params.str('submission') ?? 'true') !== 'false';
    await users.scrobble(actor, params.all('id'), submission, params.str('c') ?? '');
    return {};
  });

  subsonicMethod(router, 'getNowPlaying', { summary: 'Subsonic: what users play now' }, async ({ actor }) => ({ nowPlaying: { entry: await users.nowPlayingList(actor) } }));

  subsonicMethod(router, 'getPlayQueue', { summary: 'Subsonic: the play state the web player resumes' }, async ({ actor }) => {
    const queue = await users.playQueue(actor);
    return queue ? { playQueue: queue } : {};
  });

  subsonicMethod(router, 'savePlayQueue', { summary: 'Subsonic: save the play queue as the play state', write: true, writePaced: true }, async ({ actor, params }) => {
    await users.savePlayQueue(actor, params.all('id'), params.str('current'), params.int('position', 0, 0, Number.MAX_SAFE_INTEGER));
    return {};
  });

  subsonicMethod(router, 'getUser', { summary: 'Subsonic: a user and their roles' }, async ({ actor, params }) => ({ user: await users.user(actor, params.required('username')) }));
};
