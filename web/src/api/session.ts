/** Session and meta calls: who am I, login, version, shared config. */
import { api, apiGet } from './client.js';
import type { LoginResult, Session, SharedConfig, VersionInfo } from './types.js';

export const fetchSession = (signal?: AbortSignal) => apiGet<Session>('/api/auth/me', undefined, signal);

export const login = (name: string, password: string) => api<LoginResult>('POST', '/api/auth/me', { body: { name, password } });

export const fetchVersion = (signal?: AbortSignal) => apiGet<VersionInfo>('/api/version', undefined, signal);

export const fetchSharedConfig = async (signal?: AbortSignal): Promise<SharedConfig> =>
  (await apiGet<{ sharedConfig: SharedConfig }>('/api/config/shared', undefined, signal)).sharedConfig;
