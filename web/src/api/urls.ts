/**
 * The one URL builder for media, covers and lyric files: the elements that load them (<audio>,
 * <img>, download links) cannot send a header, so a token goes in `?token=` — the
 * short-lived media token (media-token.ts), never the login token.
 */
import { getMediaToken } from './media-token.js';

/**
 * Append (or replace) `token=` on a URL of this server when a media token is stored. URLs of another
 * origin are returned unchanged: the token never leaves for a third party.
 */
export function withToken(url: string): string {
  const token = getMediaToken();
  if (!token) return url;
  const origin = window.location.origin;
  const parsed = new URL(url, origin);
  if (parsed.origin !== origin) return url;
  parsed.searchParams.set('token', token);
  const absolute = /^([a-z][a-z0-9+.-]*:)?\/\//i.test(url);
  return absolute ? parsed.href : parsed.pathname + parsed.search + parsed.hash;
}

/** A track hash is `<workId>/<n>`; each part is encoded, the slash kept. */
const hashPath = (hash: string): string => hash.split('/').map(encodeURIComponent).join('/');

/** `200x150` and `280x210` are the card sizes (made from main by the server on first request). */
export type CoverType = 'main' | 'sam' | '240x240' | '200x150' | '280x210';

/** A cover of this server (no token in it yet): the token is appended without parsing the URL (lists build hundreds). */
export const coverUrl = (workId: number, type: CoverType = 'main'): string => {
  const token = getMediaToken();
  const url = `/api/cover/${workId}?type=${type}`;
  return token ? `${url}&token=${encodeURIComponent(token)}` : url;
};
export const streamUrl = (hash: string): string => withToken(`/api/media/stream/${hashPath(hash)}`);
export const downloadUrl = (hash: string): string => withToken(`/api/media/download/${hashPath(hash)}`);

/** A zip of the whole work, or of its folder `folder` (path segments from the work folder, as the tree shows them). */
export const workZipUrl = (workId: number, folder: readonly string[] = []): string =>
  withToken(`/api/media/download-work/${workId}${folder.length ? `?path=${encodeURIComponent(folder.join('/'))}` : ''}`);
