import type { SubsonicModule } from './router.js';
import { subsonicMethod } from './router.js';

/** The OpenSubsonic extensions this server implements (getOpenSubsonicExtensions). */
export const OPEN_SUBSONIC_EXTENSIONS = [
  { name: 'apiKeyAuthentication', versions: [1] },
  { name: 'formPost', versions: [1] },
  { name: 'songLyrics', versions: [1] },
];

/** ping, getLicense, getOpenSubsonicExtensions, tokenInfo, getMusicFolders. */
export const subsonicSystem: SubsonicModule = (router, { subsonic }) => {
  subsonicMethod(router, 'ping', { summary: 'Subsonic: ping' }, async () => ({}));

  subsonicMethod(router, 'getLicense', { summary: 'Subsonic: licence (always valid)' }, async () => ({ license: { valid: true } }));

  subsonicMethod(router, 'getOpenSubsonicExtensions', { summary: 'OpenSubsonic: implemented extensions (no credentials needed)', open: true }, async () => ({
    openSubsonicExtensions: OPEN_SUBSONIC_EXTENSIONS,
  }));

  // part of apiKeyAuthentication: whose key it is
  subsonicMethod(router, 'tokenInfo', { summary: 'OpenSubsonic: the user of the credentials' }, async ({ actor }) => ({ tokenInfo: { username: actor.name } }));

  subsonicMethod(router, 'getMusicFolders', { summary: 'Subsonic: root folders' }, async () => ({ musicFolders: { musicFolder: subsonic.musicFolders() } }));
};
