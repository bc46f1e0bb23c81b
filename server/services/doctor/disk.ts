/** Free space on the file system of the data dir (the database, covers and thumbnails grow there). */
import { statfsSync } from 'node:fs';
import { finding, formatBytes, type Finding } from './findings.js';

export interface DiskLimits {
  /** Below this, a warning. */
  warnBytes: number;
  /** Below this, a problem: SQLite fails writes when the disk fills. */
  problemBytes: number;
}

export const DISK_LIMITS: DiskLimits = { warnBytes: 1e9, problemBytes: 100e6 };

/** `dir` is the data dir, or its nearest existing parent when it does not exist yet. */
export function checkDisk(dir: string, limits: DiskLimits = DISK_LIMITS): Finding[] {
  let free: number;
  try {
    const st = statfsSync(dir);
    free = Number(st.bavail) * Number(st.bsize);
  } catch {
    return [];
  }
  const p = { path: dir, free: formatBytes(free) };
  if (free < limits.problemBytes) return [finding('disk', 'problem', 'diskFull', p)];
  if (free < limits.warnBytes) return [finding('disk', 'warning', 'diskLow', { ...p, min: formatBytes(limits.warnBytes) })];
  return [finding('disk', 'ok', 'diskOk', p)];
}
