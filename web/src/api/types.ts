/** Wire shapes of the session and meta calls (docs/API.md#session, docs/API.md#version-and-configuration). */
export type Role = 'admin' | 'user' | 'guest';

export interface SessionUser {
  name: string;
  /** kikoeru's group: administrator, user or guest. */
  group: string;
  /** kikoplay's role; older servers send only `group`. */
  role?: Role;
}

/** GET /api/auth/me */
export interface Session {
  user: SessionUser;
  auth: boolean;
}

/** POST /api/auth/me */
export interface LoginResult {
  token: string;
  user?: SessionUser;
}

/** GET /api/version */
export interface VersionInfo {
  current?: string;
  latest_stable?: string | null;
  latest_release?: string | null;
  update_available?: boolean;
  notifyUser?: boolean;
  lockFileExists?: boolean;
  lockReason?: string | null;
}

/** GET /api/config/shared → `sharedConfig` */
export interface SharedConfig {
  rewindSeekTime: number;
  forwardSeekTime: number;
}

export const isAdminUser = (user: SessionUser | null | undefined): boolean => user?.role === 'admin' || user?.group === 'administrator';
