/**
 * The media token: what media, cover and download URLs carry in `?token=` instead of the 30-day login
 * token. The server makes it from the login token (GET /api/auth/media-token); it is good only for
 * media and covers, for a few hours, and it is the same for every request within the hour, so the
 * URLs built from it — and the browser's cache of them — stay put between refreshes. Kept in local
 * storage (a reload does not change every cover URL), replaced an hour before it expires, dropped
 * with the login token.
 */
import { api } from './client.js';
import { getToken } from './token.js';
import { getPref, resetPref, setPref } from '../lib/prefs.js';

/** A URL built now stays good for at least this long; the server hands out at least 4 hours. */
export const MEDIA_TOKEN_MARGIN_MS = 60 * 60_000;

let inflight: Promise<void> | null = null;
let timer: ReturnType<typeof setTimeout> | undefined;

/** The media token to put into a URL now, or '' (no login, or auth off: URLs go without a token). */
export function getMediaToken(): string {
  const stored = getPref('mediaToken');
  return stored && stored.expiresAt > Date.now() ? stored.token : '';
}

function scheduleRefresh(expiresAt: number): void {
  if (timer !== undefined) clearTimeout(timer);
  timer = setTimeout(() => void ensureMediaToken().catch(() => undefined), Math.max(0, expiresAt - MEDIA_TOKEN_MARGIN_MS - Date.now()));
}

/**
 * Make sure a media token with at least an hour left is stored (with a login token only), and keep it
 * so. `force` asks the server again even so (after a media element failed).
 */
export function ensureMediaToken(opts: { force?: boolean } = {}): Promise<void> {
  if (!getToken()) return Promise.resolve();
  const stored = getPref('mediaToken');
  if (!opts.force && stored && stored.expiresAt - Date.now() > MEDIA_TOKEN_MARGIN_MS) {
    if (timer === undefined) scheduleRefresh(stored.expiresAt);
    return Promise.resolve();
  }
  inflight ??= api<{ token: string | null; expiresAt: string | null }>('GET', '/api/auth/media-token')
    .then(({ token, expiresAt }) => {
      const at = expiresAt ? Date.parse(expiresAt) : NaN;
      if (!token || !Number.isFinite(at)) {
        resetPref('mediaToken');
        return;
      }
      setPref('mediaToken', { token, expiresAt: at });
      scheduleRefresh(at);
    })
    .finally(() => {
      inflight = null;
    });
  return inflight;
}

// a tab that slept (timers are throttled in the background) catches up when it is shown again
if (typeof document !== 'undefined') {
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') void ensureMediaToken().catch(() => undefined);
  });
}
