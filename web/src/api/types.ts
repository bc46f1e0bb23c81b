/**
 * Wire shapes shared by several screens: the session and meta calls (docs/API.md#session,
 * docs/API.md#version-and-configuration) and the AI lyric task (docs/API.md#ai-lyric-tasks).
 */
import type { AiStatusName } from '../../../server/domain/ai-status.js';

export type Role = 'admin' | 'user' | 'guest';

export interface SessionUser {
  name: string;
  /** kikoeru's group: administrator, user or guest. */
  group: string;
  /** kikoplay's role; older servers send only `group`. */
  role?: Role;
  /** The interface language saved on the account (null until chosen; absent for worker tokens and older servers). */
  locale?: string | null;
  /** True while the password is the one the server generated (the first admin's): a banner asks for a change. */
  mustChangePassword?: boolean;
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
  /** While a scan holds the lock: what kind of run and when it started (ISO 8601, UTC), for a notice in the viewer's time. */
  lockKind?: string | null;
  lockStartedAt?: string | null;
}

/** GET /api/config/shared → `sharedConfig` */
export interface SharedConfig {
  rewindSeekTime: number;
  forwardSeekTime: number;
}

export const isAdminUser = (user: SessionUser | null | undefined): boolean => user?.role === 'admin' || user?.group === 'administrator';

/** The role of a signed-in user: kikoplay's `role`, else kikoeru's `group` (with auth off the server answers as the admin). */
export const roleOfUser = (user: SessionUser | null | undefined): Role | null => {
  if (!user) return null;
  if (user.role === 'admin' || user.role === 'user' || user.role === 'guest') return user.role;
  return user.group === 'administrator' ? 'admin' : user.group === 'user' ? 'user' : user.group === 'guest' ? 'guest' : null;
};

/** Users and admins rate, review, mark progress, save play history and queue AI lyrics; guests only browse and play. */
export const canWriteUser = (user: SessionUser | null | undefined): boolean => {
  const role = roleOfUser(user);
  return role === 'admin' || role === 'user';
};

/** Who acted on a task, as the server recorded it. */
export interface AiTaskAccount {
  kind: 'user' | 'token';
  name: string;
}

/** A task as GET /api/lyric/translate lists it (docs/API.md#ai-lyric-tasks). */
export interface AiTask {
  id: number;
  work_id: number;
  /** Relative to the work folder. */
  audio_path: string;
  /** 0 none, 1 pending, 2 transcribing, 3 success, 4 error. */
  status: number;
  status_text?: AiStatusName;
  worker_name?: string;
  worker_status?: string;
  /** The account (a login user or a worker token) that acquired the task; worker_name is only what the worker calls itself. */
  acquired_by?: AiTaskAccount | null;
  /** The account that sent the result. */
  finished_by?: AiTaskAccount | null;
  /** The work's title (null when the work is gone). */
  title?: string | null;
  created_at?: string;
  updated_at?: string;
  /** In the AI centre's list: the viewer may retry and delete it (an admin any task, a user their own). */
  can_change?: boolean;
}
