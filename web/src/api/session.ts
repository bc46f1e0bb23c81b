/** Session and meta calls: who am I, login, version, shared config. */
import { api, apiGet } from './client.js';
import { ensureMediaToken } from './media-token.js';
import { adoptAccountLocale } from '../i18n/account.js';
import type { LoginResult, Session, SharedConfig, VersionInfo } from './types.js';

/** The query key of the session (`fetchSession`), shared by the screens that read or prefetch it. */
export const SESSION_KEY = ['auth', 'me'] as const;

/** Who am I (and the interface language saved on the account, which the app switches to); resolves once the media token for the screens' media and cover URLs is there too. */
export const fetchSession = async (signal?: AbortSignal): Promise<Session> => {
  const [session] = await Promise.all([apiGet<Session>('/api/auth/me', undefined, signal), ensureMediaToken()]);
  adoptAccountLocale(session.user);
  return session;
};

/** Log out on the server: the login token (and its media tokens) stop working. */
export const logout = () => api<{ message: string }>('POST', '/api/auth/logout');

export const login = (name: string, password: string) => api<LoginResult>('POST', '/api/auth/me', { body: { name, password } });

export const fetchVersion = (signal?: AbortSignal) => apiGet<VersionInfo>('/api/version', undefined, signal);

export const fetchSharedConfig = async (signal?: AbortSignal): Promise<SharedConfig> => (await apiGet<{ sharedConfig: SharedConfig }>('/api/config/shared', undefined, signal)).sharedConfig;
