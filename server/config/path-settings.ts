/**
 * The folder settings other than the root folders (those are folder-rules.ts's), checked on the disk
 * when a change of config.json brings them in (`writeConfigFile` in load.ts), not at load:
 * - databaseFolderDir, coverFolderDir and backupDir may not name a file (every later start would fail);
 * (that databaseFolderDir is absolute, never resolved inside the data dir, is the config schema's rule:
 *   a change is validated by it before it gets here);
 * - dbUseDefaultPath false needs such a databaseFolderDir: without one it would change nothing (the
 *   database stays in the data dir) while saying it did.
 */
import path from 'node:path';
import { fileInPath } from './ensure-dir.js';

export type PathSettingRule = 'notFolder' | 'dbFolderNeeded';

export interface PathSettingProblem {
  setting: 'databaseFolderDir' | 'coverFolderDir' | 'backupDir' | 'dbUseDefaultPath';
  /** the folder at fault (for notFolder, the file in the way) */
  path: string;
  rule: PathSettingRule;
}

const FOLDER_SETTINGS = ['databaseFolderDir', 'coverFolderDir', 'backupDir'] as const;

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

/** The first problem of the folder settings a change brings in (`before` → `next`, as stored), or null. */
export function pathSettingProblem(before: Record<string, unknown>, next: Record<string, unknown>): PathSettingProblem | null {
  for (const setting of FOLDER_SETTINGS) {
    const dir = text(next[setting]);
    if (!dir || dir === text(before[setting])) continue;
    const file = fileInPath(dir);
    if (file) return { setting, path: file, rule: 'notFolder' };
  }
  const dbDir = text(next.databaseFolderDir);
  const dbChanged = next.dbUseDefaultPath !== before.dbUseDefaultPath || dbDir !== text(before.databaseFolderDir);
  if (next.dbUseDefaultPath === false && dbChanged && !path.isAbsolute(dbDir)) return { setting: 'dbUseDefaultPath', path: dbDir, rule: 'dbFolderNeeded' };
  return null;
}
