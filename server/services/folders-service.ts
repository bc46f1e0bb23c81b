/**
 * Library folders of the admin dashboard: the root folders
 * (alias + absolute path) and the cover folder, persisted through the ConfigStore so the scanner,
 * the media routes and a `kikoplay scan` in another process all see the change at once.
 */
import { constants as fsConstants, promises as fsp } from 'node:fs';
import path from 'node:path';
import { isAdmin, type Actor } from '../auth/roles.js';
import { badRequest, conflict, forbidden, notFound } from '../domain/errors.js';
import type { ConfigStore } from '../config/config-store.js';
import { readConfigFile } from '../config/load.js';
import type { LibraryRepo } from '../db/repos/library-repo.js';
import { browseDirs, browseStart, type BrowseAnswer } from './folder-browse.js';
import { coverFolderProblem, folderOnDiskProblem, FOLDER_RULE_MSG, rootFolderProblems } from '../config/folder-rules.js';

export const FOLDER_MSG = {
  ...FOLDER_RULE_MSG,
  forbidden: '只有 admin 账号能管理媒体库文件夹.',
  unknown: '没有该名称的文件夹.',
  overridden: '媒体库文件夹由命令行参数或环境变量 (KIKOPLAY_ROOT_FOLDERS) 指定，不能在网页上修改.',
  coverOverridden: '封面文件夹由命令行参数或环境变量指定，不能在网页上修改.',
  added: (name: string) => `文件夹 "${name}" 添加成功.`,
  removed: (name: string) => `文件夹 "${name}" 已删除. 其中的作品会在下次扫描时标记为缺失，评价与播放历史保留.`,
  coverSaved: '封面文件夹设置已保存.',
} as const;

export interface RootFolderView {
  name: string;
  path: string;
  /** The folder is there and readable right now. */
  exists: boolean;
  /** Works of the library that live in this folder (not missing). */
  works: number;
}

export interface FoldersView {
  folders: RootFolderView[];
  cover: {
    coverUseDefaultPath: boolean;
    coverFolderDir: string;
    /** Where covers are stored with the current settings. */
    effectiveDir: string;
    defaultDir: string;
  };
  /** Prefill of the "add folder" form. */
  voiceWorkDefaultPath: string;
}

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

export class FoldersService {
  constructor(
    private readonly store: ConfigStore,
    private readonly library: LibraryRepo,
  ) {}

  private requireAdmin(actor: Actor): void {
    if (!isAdmin(actor)) throw forbidden(FOLDER_MSG.forbidden, { code: 'ADMIN_ONLY' });
  }

  /** Whether `key` is set by a flag or KIKOPLAY_* variable (a change written to config.json would not apply). */
  private overridden(key: 'rootFolders' | 'coverFolderDir' | 'coverUseDefaultPath'): boolean {
    const stored = readConfigFile(this.store.dataDir)[key];
    const effective = this.store.get()[key];
    if (stored === undefined) {
      const defaults: Record<typeof key, unknown> = { rootFolders: [], coverFolderDir: '', coverUseDefaultPath: true };
      return !sameValue(effective, defaults[key]);
    }
    return !sameValue(stored, effective);
  }

  async view(actor: Actor): Promise<FoldersView> {
    this.requireAdmin(actor);
    const config = this.store.get();
    const folders = await Promise.all(
      config.rootFolders.map(async (f) => {
        const exists = await fsp
          .access(f.path, fsConstants.R_OK | fsConstants.X_OK)
          .then(() => fsp.stat(f.path))
          .then((st) => st.isDirectory())
          .catch(() => false);
        return { name: f.name, path: f.path, exists, works: await this.library.countPresentInRoot(f.name) };
      }),
    );
    return {
      folders,
      cover: {
        coverUseDefaultPath: config.coverUseDefaultPath,
        coverFolderDir: config.coverFolderDir,
        effectiveDir: this.store.paths().coverDir,
        defaultDir: path.join(this.store.dataDir, 'covers'),
      },
      voiceWorkDefaultPath: config.voiceWorkDefaultPath,
    };
  }

  /** POST /api/config/folders `{ name, path }`. Every check runs before anything is written. */
  async add(actor: Actor, input: { name?: unknown; path?: unknown }): Promise<{ message: string; folders: FoldersView }> {
    this.requireAdmin(actor);
    const name = text(input.name);
    const dir = text(input.path);
    // the rules every way of writing rootFolders goes through (config/folder-rules.ts), for the new entry
    const roots = this.store.get().rootFolders;
    const problem = rootFolderProblems([...roots, { name, path: dir }]).find((p) => p.at[0] === roots.length);
    if (problem) {
      const detail = { code: problem.code, field: problem.at[1], params: problem.params };
      throw problem.kind === 'conflict' ? conflict(problem.message, detail) : badRequest(problem.message, detail);
    }
    const missing = folderOnDiskProblem(dir, 'read');
    if (missing) throw badRequest(missing.message, { code: missing.code, field: 'path' });
    if (this.overridden('rootFolders')) throw conflict(FOLDER_MSG.overridden, { code: 'FOLDERS_FROM_ENV' });
    const normalized = path.resolve(dir);
    this.store.update({ rootFolders: [...roots, { name, path: normalized }] });
    return { message: FOLDER_MSG.added(name), folders: await this.view(actor) };
  }

  /**
   * GET /api/config/browse?path=: the directories the server can read in `path` (absolute), for the
   * folder browser of the "add a library folder" panel; without a path, where browsing starts.
   */
  async browse(actor: Actor, dir: string | undefined): Promise<BrowseAnswer> {
    this.requireAdmin(actor);
    return browseDirs(dir ?? (await browseStart(this.store.dataDir)));
  }

  /** DELETE /api/config/folders `{ name }`. The works stay; the next scan marks them missing. */
  async remove(actor: Actor, input: { name?: unknown }): Promise<{ message: string; folders: FoldersView }> {
    this.requireAdmin(actor);
    const name = typeof input.name === 'string' ? input.name : '';
    if (!name.trim()) throw badRequest('需要文件夹别名 name.', { code: 'FIELD_INVALID', field: 'name' });
    const roots = this.store.get().rootFolders;
    if (!roots.some((f) => f.name === name)) throw notFound(FOLDER_MSG.unknown, { code: 'FOLDER_NOT_FOUND' });
    if (this.overridden('rootFolders')) throw conflict(FOLDER_MSG.overridden, { code: 'FOLDERS_FROM_ENV' });
    this.store.update({ rootFolders: roots.filter((f) => f.name !== name) });
    return { message: FOLDER_MSG.removed(name), folders: await this.view(actor) };
  }

  /**
   * PUT /api/config/folders/cover `{ coverUseDefaultPath, coverFolderDir }`: the default folder in the
   * data dir, or an existing, writable absolute folder.
   */
  async setCover(actor: Actor, input: { coverUseDefaultPath?: unknown; coverFolderDir?: unknown }): Promise<{ message: string; folders: FoldersView }> {
    this.requireAdmin(actor);
    if (typeof input.coverUseDefaultPath !== 'boolean') throw badRequest('参数 coverUseDefaultPath 必须是 true 或 false.', { code: 'FIELD_INVALID', field: 'coverUseDefaultPath' });
    if (input.coverFolderDir !== undefined && typeof input.coverFolderDir !== 'string') throw badRequest('参数 coverFolderDir 必须是字符串.', { code: 'FIELD_INVALID', field: 'coverFolderDir' });
    const dir = text(input.coverFolderDir);
    const patch: Record<string, unknown> = { coverUseDefaultPath: input.coverUseDefaultPath };
    if (!input.coverUseDefaultPath) {
      const problem = coverFolderProblem(false, dir) ?? folderOnDiskProblem(dir, 'write');
      if (problem) throw badRequest(problem.message, { code: problem.code, field: 'coverFolderDir' });
      patch.coverFolderDir = path.resolve(dir);
    }
    if (this.overridden('coverUseDefaultPath') || (patch.coverFolderDir !== undefined && this.overridden('coverFolderDir'))) {
      throw conflict(FOLDER_MSG.coverOverridden, { code: 'FOLDERS_FROM_ENV' });
    }
    this.store.update(patch);
    return { message: FOLDER_MSG.coverSaved, folders: await this.view(actor) };
  }
}
