/** The account page's calls (docs/API.md#session). */
import { api } from '../../api/client.js';

/** PUT /api/auth/me/password: every token of the caller stops working; the answer carries this device's new one. */
export const changeOwnPassword = (current: string, password: string) => api<{ message: string; token: string }>('PUT', '/api/auth/me/password', { body: { current, password } });

/** POST /api/auth/me/logout-all: every token of the caller stops working, this one included. */
export const logoutEverywhere = () => api<{ message: string }>('POST', '/api/auth/me/logout-all');

/** The caller's Subsonic credentials (never a key itself). */
export interface SubsonicCredentials {
  keys: { name: string; createdAt: string; lastUsedAt: string | null }[];
  hasPassword: boolean;
}

export const SUBSONIC_KEY = ['account', 'subsonic'] as const;

/** GET /api/auth/me/subsonic */
export const fetchSubsonic = (signal?: AbortSignal) => api<SubsonicCredentials>('GET', '/api/auth/me/subsonic', { signal });

/** POST /api/auth/me/subsonic/keys: the key is in this answer only. */
export const createSubsonicKey = (name: string) => api<{ name: string; key: string }>('POST', '/api/auth/me/subsonic/keys', { body: { name } });

/** DELETE /api/auth/me/subsonic/keys/:name */
export const revokeSubsonicKey = (name: string) => api<{ message: string }>('DELETE', `/api/auth/me/subsonic/keys/${encodeURIComponent(name)}`);

/** PUT /api/auth/me/subsonic/password */
export const setSubsonicPassword = (password: string) => api<{ message: string }>('PUT', '/api/auth/me/subsonic/password', { body: { password } });

/** DELETE /api/auth/me/subsonic/password */
export const clearSubsonicPassword = () => api<{ message: string }>('DELETE', '/api/auth/me/subsonic/password');
