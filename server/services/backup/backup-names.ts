/**
 * Names of backup files: `kikoplay-backup-2026-11-26T02-50-43Z.tar.gz` (UTC, so names sort in time
 * order), and the pruning of a folder of them — only files named so are ever removed.
 */
import { readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

export const BACKUP_EXT = '.tar.gz';
const NAME = /^kikoplay-backup-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z\.tar\.gz$/;

export function backupFileName(at: Date): string {
  const stamp = at
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/:/g, '-');
  return `kikoplay-backup-${stamp}${BACKUP_EXT}`;
}

export const isBackupFileName = (name: string) => NAME.test(name);

/** The backups of `dir` (files named as backupFileName makes them), newest first. */
export function listBackups(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => isBackupFileName(n) && statSync(path.join(dir, n), { throwIfNoEntry: false })?.isFile())
    .sort()
    .reverse();
}

/** Remove the backups of `dir` beyond the newest `keep`; returns the names removed. */
export function pruneBackups(dir: string, keep: number): string[] {
  const old = listBackups(dir).slice(Math.max(1, keep));
  for (const name of old) rmSync(path.join(dir, name), { force: true });
  return old;
}
