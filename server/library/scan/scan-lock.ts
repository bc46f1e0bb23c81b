/**
 * The scan lock: an OS-level lock (server/db/file-lock.ts) on `<data-dir>/scan.lock.db`, held for the
 * whole run, plus `<data-dir>/scan.lock` — `{ pid, kind, startedAt, procStart }` written by the holder
 * for people and for the dashboard. The kernel releases the lock when the holding process ends, however
 * it ends, so a crashed or killed scan never blocks the next one and a reused process id never looks
 * like a running scan. Keeps two scans — in this process, the server, a `kikoplay scan` or a cron job —
 * from running together.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { FileLock } from '../../db/file-lock.js';
import { ensureDir } from '../../config/ensure-dir.js';
import path from 'node:path';

export interface LockInfo {
  pid: number;
  kind: string;
  startedAt: string;
  /** The holder's start time as the OS counts it (Linux: /proc/<pid>/stat field 22); null elsewhere. */
  procStart: string | null;
}

export class ScanBusyError extends Error {
  constructor(readonly holder: LockInfo) {
    super(`另一个扫描任务正在进行中 (pid ${holder.pid}, ${holder.kind}, 开始于 ${holder.startedAt || '?'})`);
  }
}

/** The OS lock's file beside the info file. */
export const osLockFile = (infoFile: string) => `${infoFile}.db`;

/** When the process started, as the kernel counts it (Linux); null where that cannot be read. */
export function processStartTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name (field 2) is in parentheses and may hold spaces: count fields after its ')'
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

/** The process's arguments (Linux); null where they cannot be read. */
function processArgs(pid: number): string[] | null {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return null;
  }
}

export function readLock(file: string): LockInfo | null {
  try {
    const info = JSON.parse(readFileSync(file, 'utf8')) as Partial<LockInfo>;
    if (typeof info.pid !== 'number') return null;
    return { pid: info.pid, kind: String(info.kind ?? 'scan'), startedAt: String(info.startedAt ?? ''), procStart: typeof info.procStart === 'string' ? info.procStart : null };
  } catch {
    return null;
  }
}

/** The holder of the lock while one holds it (its info may be unknown for a moment after it took it), else null. */
export async function lockHolder(file: string): Promise<LockInfo | null> {
  if (!(await FileLock.isHeld(osLockFile(file)))) return null;
  return readLock(file) ?? { pid: 0, kind: 'scan', startedAt: '', procStart: null };
}

/**
 * Is `holder` verifiably a live `kikoplay scan` process — the very process that wrote the lock info (same
 * pid and start time) and whose arguments are a scan, not a server? Only such a process may be sent a
 * signal; where the OS does not tell (no /proc), nothing is verified and nothing is signalled.
 */
export function isVerifiedScanProcess(holder: LockInfo): boolean {
  if (holder.pid <= 0 || holder.pid === process.pid || !holder.procStart) return false;
  if (processStartTime(holder.pid) !== holder.procStart) return false;
  const args = processArgs(holder.pid);
  return !!args && args.includes('scan') && !args.includes('serve');
}

export class ScanLock {
  private lock: FileLock | null = null;

  constructor(readonly file: string) {}

  get isHeld(): boolean {
    return this.lock !== null;
  }

  /** Take the lock or throw ScanBusyError naming the holder. */
  async acquire(kind: string): Promise<void> {
    if (this.lock) throw new ScanBusyError(readLock(this.file) ?? { pid: process.pid, kind, startedAt: '', procStart: null });
    ensureDir(path.dirname(this.file));
    const lock = await FileLock.tryAcquire(osLockFile(this.file));
    if (!lock) throw new ScanBusyError(readLock(this.file) ?? { pid: 0, kind: 'scan', startedAt: '', procStart: null });
    this.lock = lock;
    const info: LockInfo = { pid: process.pid, kind, startedAt: new Date().toISOString(), procStart: processStartTime(process.pid) };
    try {
      writeFileSync(this.file, JSON.stringify(info));
    } catch {
      /* the info is for people; the lock itself is held */
    }
  }

  async release(): Promise<void> {
    const lock = this.lock;
    if (!lock) return;
    this.lock = null;
    if (readLock(this.file)?.pid === process.pid) rmSync(this.file, { force: true });
    await lock.release();
  }
}
