/**
 * The rules of the folder settings (root folders and the cover folder), one implementation for every
 * way a setting is written: the folders API of the dashboard, PUT /api/config/admin, `kikoplay config
 * set|unset`, KIKOPLAY_* variables, flags and config.json at load.
 *
 * - `rootFolderProblems` and `coverFolderProblem` run in the config schema, so they hold wherever a
 *   config is parsed (load included). The only thing they ask the file system is a folder's real path
 *   (`realpath`, links resolved), so that a link to a library folder, or `/proc/self/root`, is seen as the
 *   folder it leads to; a folder that is not there is compared by its text (a disk not mounted at load
 *   must not stop the server).
 * - `folderOnDiskProblem` asks the file system (the folder exists, is a folder, can be read/written). It
 *   runs when a folder is written into config.json (`updateConfigFile`), not at load: a library disk that
 *   is not mounted when the server starts must not stop it (the dashboard shows the folder as absent).
 */
import { accessSync, constants as fsConstants, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { ApiErrorCode, ErrorParams } from '../domain/error-codes.js';
import { hasControlChars } from '../domain/text-rules.js';

/**
 * Texts the dashboard shows. They never repeat the path or alias a client sent (docs/SECURITY.md: errors
 * never echo the input): the field (`path`, or `rootFolders.<i>.path` in config errors) says which value
 * is meant; `other` is the alias of a folder already configured.
 */
export const FOLDER_RULE_MSG = {
  empty: '文件夹别名和路径都不能为空.',
  nameTaken: '该别名已存在，文件夹别名不能重复',
  pathTaken: '该路径已存在，文件夹路径不能重复',
  nameTooLong: (max: number) => `文件夹别名不能超过 ${max} 个字符，且不能包含控制字符.`,
  notAbsolute: '文件夹路径必须是绝对路径，且不能包含控制字符.',
  missing: '文件夹不存在.',
  notDirectory: '该路径不是文件夹.',
  unreadable: '没有读取该文件夹的权限.',
  notWritable: '没有写入该文件夹的权限.',
  inside: (other: string) => `该路径位于已有文件夹 "${other}" 之内，同一作品会被扫描两次.`,
  contains: (other: string) => `已有文件夹 "${other}" 位于该路径之内，同一作品会被扫描两次.`,
  coverDirNeeded: '不使用默认封面文件夹时，需要填写封面文件夹路径.',
} as const;

export const MAX_FOLDER_NAME = 64;

export interface RootFolderInput {
  name: string;
  path: string;
}

/** One broken rule: which entry and field, whether it clashes with another entry, and the text. */
export interface FolderProblem {
  at: [number, 'name' | 'path'];
  /** `conflict`: the entry is fine alone but clashes with an earlier one (the folders API answers 409). */
  kind: 'invalid' | 'conflict';
  message: string;
  /** The API error code (server/domain/error-codes.ts) and the parameters of its sentence. */
  code: ApiErrorCode;
  params?: ErrorParams;
}

/** A folder that cannot be used as it is: the text and the API error code. */
export interface FolderIssue {
  message: string;
  code: ApiErrorCode;
}

/** `/srv/lib/` and `/srv/lib` are the same folder; on Windows case does not matter. */
export function pathKey(p: string): string {
  const resolved = path.resolve(p);
  return process.platform === 'win32' ? resolved.toLowerCase() : resolved;
}

/**
 * The key a folder is compared on for overlap: its real path (links resolved) when it exists; else the
 * real path of its deepest existing parent with the rest of the path appended; else its normalised text.
 * The path the admin typed is what is stored; this key is only compared.
 */
export function realPathKey(p: string): string {
  const rest: string[] = [];
  let dir = path.resolve(p);
  for (;;) {
    try {
      return pathKey(path.join(realpathSync.native(dir), ...rest));
    } catch {
      const parent = path.dirname(dir);
      if (parent === dir) return pathKey(p);
      rest.unshift(path.basename(dir));
      dir = parent;
    }
  }
}

const isInside = (child: string, parent: string) => {
  const rel = path.relative(parent, child);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
};

/** An absolute path without control characters (NUL, line breaks, escapes: never part of a usable folder setting). */
export const isAbsoluteFolder = (p: string) => !/[\u0000-\u001f\u007f]/.test(p) && path.isAbsolute(p);

/** The problem of one entry on its own, if any. */
function entryProblem(f: RootFolderInput, i: number): FolderProblem | undefined {
  const name = f.name.trim();
  const dir = f.path.trim();
  if (!name) return { at: [i, 'name'], kind: 'invalid', message: FOLDER_RULE_MSG.empty, code: 'FOLDER_FIELDS_EMPTY' };
  if (!dir) return { at: [i, 'path'], kind: 'invalid', message: FOLDER_RULE_MSG.empty, code: 'FOLDER_FIELDS_EMPTY' };
  if (name.length > MAX_FOLDER_NAME || hasControlChars(name))
    return { at: [i, 'name'], kind: 'invalid', message: FOLDER_RULE_MSG.nameTooLong(MAX_FOLDER_NAME), code: 'FOLDER_NAME_INVALID', params: { max: MAX_FOLDER_NAME } };
  if (!isAbsoluteFolder(dir)) return { at: [i, 'path'], kind: 'invalid', message: FOLDER_RULE_MSG.notAbsolute, code: 'FOLDER_PATH_NOT_ABSOLUTE' };
  return undefined;
}

/**
 * Every broken rule of a list of root folders: each alias and path non-empty, the alias short and
 * printable, the path absolute; aliases unique (works are found by alias), paths unique, no folder
 * inside another (its works would be scanned twice) — judged on real paths, both ways (a link to a
 * folder is that folder). A clash is reported on the later entry, naming
 * the earlier one — the entry a new folder appended at the end would be.
 */
export function rootFolderProblems(folders: readonly RootFolderInput[]): FolderProblem[] {
  const problems: FolderProblem[] = [];
  const valid: { name: string; dir: string; key: string }[] = [];
  folders.forEach((f, j) => {
    const own = entryProblem(f, j);
    if (own) {
      problems.push(own);
      return;
    }
    const name = f.name.trim();
    const dir = f.path.trim();
    const key = realPathKey(dir);
    const clash = (): FolderProblem | undefined => {
      if (valid.some((e) => e.name === name)) return { at: [j, 'name'], kind: 'conflict', message: FOLDER_RULE_MSG.nameTaken, code: 'FOLDER_NAME_TAKEN' };
      if (valid.some((e) => e.key === key)) return { at: [j, 'path'], kind: 'conflict', message: FOLDER_RULE_MSG.pathTaken, code: 'FOLDER_PATH_TAKEN' };
      for (const e of valid) {
        if (isInside(key, e.key)) return { at: [j, 'path'], kind: 'conflict', message: FOLDER_RULE_MSG.inside(e.name), code: 'FOLDER_NESTED', params: { other: e.name } };
        if (isInside(e.key, key)) return { at: [j, 'path'], kind: 'conflict', message: FOLDER_RULE_MSG.contains(e.name), code: 'FOLDER_NESTED', params: { other: e.name } };
      }
      return undefined;
    };
    const problem = clash();
    if (problem) problems.push(problem);
    else valid.push({ name, dir, key });
  });
  return problems;
}

/** The cover folder: absolute when set, and set when the default folder is not used. */
export function coverFolderProblem(useDefault: boolean, dir: string): FolderIssue | undefined {
  const d = dir.trim();
  if (d && !isAbsoluteFolder(d)) return { message: FOLDER_RULE_MSG.notAbsolute, code: 'FOLDER_PATH_NOT_ABSOLUTE' };
  if (!useDefault && !d) return { message: FOLDER_RULE_MSG.coverDirNeeded, code: 'COVER_FOLDER_REQUIRED' };
  return undefined;
}

/**
 * Whether a folder is usable now: it exists, is a folder, and can be listed (`read`) or also written
 * (`write`, the cover folder). Undefined when it is.
 */
export function folderOnDiskProblem(p: string, need: 'read' | 'write'): FolderIssue | undefined {
  let st;
  try {
    st = statSync(p);
  } catch {
    return { message: FOLDER_RULE_MSG.missing, code: 'FOLDER_MISSING' };
  }
  if (!st.isDirectory()) return { message: FOLDER_RULE_MSG.notDirectory, code: 'FOLDER_NOT_DIRECTORY' };
  const mode = need === 'write' ? fsConstants.R_OK | fsConstants.W_OK | fsConstants.X_OK : fsConstants.R_OK | fsConstants.X_OK;
  try {
    accessSync(p, mode);
  } catch {
    return need === 'write' ? { message: FOLDER_RULE_MSG.notWritable, code: 'FOLDER_NOT_WRITABLE' } : { message: FOLDER_RULE_MSG.unreadable, code: 'FOLDER_UNREADABLE' };
  }
  return undefined;
}

interface FolderSettings {
  rootFolders: readonly RootFolderInput[];
  coverUseDefaultPath: boolean;
  coverFolderDir: string;
}

/** A root folder written while it does not exist (yet): saved, and said to whoever wrote it. */
export interface MissingFolderWarning {
  /** Where in the config: `rootFolders.<i>.path`. */
  at: string;
  path: string;
  code: 'FOLDER_MISSING';
}

export interface FolderWriteOptions {
  /**
   * A new root folder that does not exist is, without this, refused (the dashboard's folders API and
   * PUT /api/config/admin: the admin picks a folder the server can see). With it, the folder is kept
   * and reported here (`kikoplay config set`: a library disk that is not mounted yet may be set up
   * ahead, as load accepts it and the dashboard shows it as absent). Relative paths, non-folders and
   * unreadable folders are refused either way.
   */
  warnMissing?: (warning: MissingFolderWarning) => void;
}

/**
 * The file-system problems of a change from `before` to `next` (both complete configs): every root
 * folder not configured before, and the cover folder when it is (newly) in use. As `key path: text`.
 */
export function folderWriteProblems(before: FolderSettings, next: FolderSettings, opts: FolderWriteOptions = {}): string[] {
  const problems: string[] = [];
  const known = new Set(before.rootFolders.map((f) => pathKey(f.path)));
  next.rootFolders.forEach((f, i) => {
    if (known.has(pathKey(f.path))) return;
    const dir = f.path.trim();
    const p = folderOnDiskProblem(dir, 'read');
    if (p?.code === 'FOLDER_MISSING' && opts.warnMissing) opts.warnMissing({ at: `rootFolders.${i}.path`, path: dir, code: 'FOLDER_MISSING' });
    else if (p) problems.push(`rootFolders.${i}.path: ${p.message}`);
  });
  const coverKey = (d: string) => (d.trim() ? pathKey(d.trim()) : '');
  const coverChanged = before.coverUseDefaultPath !== next.coverUseDefaultPath || coverKey(before.coverFolderDir) !== coverKey(next.coverFolderDir);
  if (!next.coverUseDefaultPath && coverChanged) {
    const p = folderOnDiskProblem(next.coverFolderDir.trim(), 'write');
    if (p) problems.push(`coverFolderDir: ${p.message}`);
  }
  return problems;
}
