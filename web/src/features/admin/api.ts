/** The admin dashboard's calls: library folders, the admin config, user management, the API reference (docs/API.md#library-folders, docs/API.md#version-and-configuration, docs/API.md#users, docs/API.md#api-reference). */
import { api, apiGet } from '../../api/client.js';
import type { Role } from '../../api/types.js';
import type { OpenApiDocument } from './api-reference.js';

export interface RootFolder {
  name: string;
  path: string;
  exists: boolean;
  works: number;
}

/** GET /api/config/folders */
export interface FoldersView {
  folders: RootFolder[];
  cover: { coverUseDefaultPath: boolean; coverFolderDir: string; effectiveDir: string; defaultDir: string };
  voiceWorkDefaultPath: string;
}

interface FoldersAnswer {
  message: string;
  folders: FoldersView;
}

export const FOLDERS_KEY = ['admin', 'folders'] as const;
export const fetchFolders = (signal?: AbortSignal) => apiGet<FoldersView>('/api/config/folders', undefined, signal);
export const addFolder = (name: string, path: string) => api<FoldersAnswer>('POST', '/api/config/folders', { body: { name, path } });
export const deleteFolder = (name: string) => api<FoldersAnswer>('DELETE', '/api/config/folders', { body: { name } });
/** GET /api/config/browse: the directories the server can read in one directory. */
export interface BrowseAnswer {
  path: string;
  parent: string | null;
  dirs: { name: string; path: string }[];
  truncated: boolean;
}

/** The readable directories in `path` (admin only); without a path, where browsing starts. */
export const browseFolders = (path: string | null, signal?: AbortSignal) => apiGet<BrowseAnswer>('/api/config/browse', path ? { path } : undefined, signal);
export const saveCoverFolder = (coverUseDefaultPath: boolean, coverFolderDir: string) => api<FoldersAnswer>('PUT', '/api/config/folders/cover', { body: { coverUseDefaultPath, coverFolderDir } });

/** The admin config: every key of the server's schema (values are JSON scalars, rootFolders an array). */
export type AdminConfig = Record<string, unknown>;

/** The absolute paths the running server uses (read-only; an older server sends none). */
export interface EffectivePaths {
  coverDir: string;
  databaseFile: string;
}

export interface AdminConfigAnswer {
  config: AdminConfig;
  paths?: EffectivePaths;
}

export const ADMIN_CONFIG_KEY = ['admin', 'config'] as const;
export const fetchAdminConfig = (signal?: AbortSignal) => apiGet<AdminConfigAnswer>('/api/config/admin', undefined, signal);
export const saveAdminConfig = (config: AdminConfig) => api<AdminConfigAnswer & { message: string; restartRequired?: string[] }>('PUT', '/api/config/admin', { body: { config } });

export interface UserRow {
  name: string;
  group: string;
  role?: Role;
  created_at?: string;
}

/** kikoplay sends `role`; an older server only `group` (administrator/user/guest). */
export const roleOf = (u: UserRow): Role => u.role ?? (u.group === 'administrator' ? 'admin' : u.group === 'guest' ? 'guest' : 'user');

export const USERS_KEY = ['admin', 'users'] as const;
export const fetchUsers = async (signal?: AbortSignal): Promise<UserRow[]> => (await apiGet<{ users: UserRow[] }>('/api/credentials/users', undefined, signal)).users;
/** kikoeru's group names of a new user (an admin is `administrator`, as the user list says). */
export type NewUserGroup = 'user' | 'guest' | 'administrator';
export const createUser = (name: string, password: string, group: NewUserGroup) => api<{ message: string }>('POST', '/api/credentials/user', { body: { name, password, group } });
/** `currentPassword`: required when the password is the caller's own (not to reset another user's). */
export const changePassword = (name: string, newPassword: string, currentPassword?: string) =>
  api<{ message: string }>('PUT', '/api/credentials/user', { body: currentPassword === undefined ? { name, newPassword } : { name, newPassword, currentPassword } });
export const deleteUsers = (names: string[]) => api<{ message: string }>('DELETE', '/api/credentials/user', { body: { users: names.map((name) => ({ name })) } });
export const setUserRole = (name: string, role: Role) => api<{ message: string }>('PUT', '/api/credentials/user/role', { body: { name, role } });

/** GET /api/openapi.json: the API reference the server builds from its route table. */
export const API_REFERENCE_KEY = ['admin', 'openapi'] as const;
export const fetchApiReference = (signal?: AbortSignal) => apiGet<OpenApiDocument>('/api/openapi.json', undefined, signal);

/** POST /api/admin/import/kikoeru: the summary (the fields the panel shows). */
export interface KikoeruImportSummary {
  dryRun: boolean;
  users: { created: number; updated: number; unchanged: number; needPassword: string[] };
  roots: { unreachable: { name: string }[] };
  works: { created: number; updated: number; unchanged: number };
  reviews: { created: number; updated: number; unchanged: number };
  history: { created: number; updated: number; unchanged: number };
  aiTasks: { created: number; updated: number; unchanged: number };
  covers: { copied: number };
  skippedCounts: Record<string, number>;
}

export interface KikoeruImportInput {
  db: string;
  config?: string;
  covers?: string;
  dryRun: boolean;
}

/** Import a kikoeru installation from paths on the server (admin only). */
export const importKikoeru = (input: KikoeruImportInput) => api<KikoeruImportSummary>('POST', '/api/admin/import/kikoeru', { body: input });
