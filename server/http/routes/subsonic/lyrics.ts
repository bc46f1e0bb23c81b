import { subsonicMethod, type SubsonicModule } from './router.js';

/** getLyricsBySongId (OpenSubsonic songLyrics: synced lines) and the legacy getLyrics (plain text). */
export const subsonicLyrics: SubsonicModule = (router, { subsonicLyrics: lyrics }) => {
  subsonicMethod(router, 'getLyricsBySongId', { summary: 'OpenSubsonic: synced lyrics of a song' }, async ({ actor, params }) => ({
    lyricsList: await lyrics.bySongId(actor, params.required('id')),
  }));

  subsonicMethod(router, 'getLyrics', { summary: 'Subsonic: plain lyrics by artist and title' }, async ({ actor, params }) => ({
    lyrics: await lyrics.byTitle(actor, params.str('artist'), params.str('title')),
  }));
};
