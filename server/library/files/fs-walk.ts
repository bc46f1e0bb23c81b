/**
 * Small file-system helpers shared by discovery and the work file walk: entries that are never
 * descended into, symlink-safe directory identity, and names that cannot be represented.
 */
import { promises as fsp, type Dirent, type Stats } from 'node:fs';

/** Folders skipped everywhere: Windows system folders and dot-folders. */
export function isSkippedFolder(name: string): boolean {
  return name.startsWith('.') || name === '$RECYCLE.BIN' || name === 'System Volume Information' || name === '@eaDir' || name === '#recycle';
}

/** macOS AppleDouble companions ("._track.mp3") are metadata, not media. */
export const isJunkFile = (name: string): boolean => name.startsWith('._') || name === 'Thumbs.db' || name === 'desktop.ini';

/** Issue code of a symlink (or symlinked work folder) whose real path leads out of its root folder. */
export const LINK_OUTSIDE = 'ELINKOUTSIDE';

/** Identity of a directory across symlinks: device + inode. */
export const dirKey = (st: Stats): string => `${st.dev}:${st.ino}`;

export interface EntryInfo {
  name: string;
  isDir: boolean;
  isFile: boolean;
  /** stat (following symlinks) when it was needed; null otherwise. */
  stat: Stats | null;
}

/**
 * Resolve what a directory entry is, following symlinks. Returns null (and reports) when the entry
 * cannot be stat'ed: dangling or looping symlinks, or names that are not valid UTF-8 on disk.
 */
export async function entryInfo(dir: string, d: Dirent, onIssue: (path: string, err: NodeJS.ErrnoException) => void): Promise<EntryInfo | null> {
  if (!d.isSymbolicLink() && !d.name.includes('\uFFFD')) {
    return { name: d.name, isDir: d.isDirectory(), isFile: d.isFile(), stat: null };
  }
  const full = `${dir}/${d.name}`;
  try {
    const st = await fsp.stat(full);
    return { name: d.name, isDir: st.isDirectory(), isFile: st.isFile(), stat: st };
  } catch (err) {
    onIssue(full, err as NodeJS.ErrnoException);
    return null;
  }
}
