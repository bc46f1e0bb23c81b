/**
 * The scan lock: `<data-dir>/scan.lock` holding `{ pid, kind, startedAt }`, created atomically
 * (hard link of a finished temp file, which fails when the lock exists). A lock whose pid is no longer
 * alive is stale (a killed scan) and is taken over. Keeps two scans — in this process, the server, a
 * `kikoplay scan` or a cron job — from running together.
 */
import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';

export interface LockInfo {
  pid: number;
  kind: string;
  startedAt: string;
}

export class ScanBusyError extends Error {
  constructor(readonly holder: LockInfo) {
    super(`另一个扫描任务正在进行中 (pid ${holder.pid}, ${holder.kind}, 开始于 ${holder.startedAt})`);
  }
}

/** Lock files held by this process (a same-pid lock not in here is left over from an earlier process). */
const heldHere = new Set<string>();

export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function readLock(file: string): LockInfo | null {
  try {
    const info = JSON.parse(readFileSync(file, 'utf8')) as Partial<LockInfo>;
    if (typeof info.pid !== 'number') return null;
    return { pid: info.pid, kind: String(info.kind ?? 'scan'), startedAt: String(info.startedAt ?? '') };
  } catch {
    return null;
  }
}

/** The live holder of the lock, or null when it is free or stale. */
export function lockHolder(file: string): LockInfo | null {
  const info = readLock(file);
  if (!info || !isProcessAlive(info.pid)) return null;
  return info.pid !== process.pid || heldHere.has(file) ? info : null;
}

export class ScanLock {
  private held = false;

  constructor(
    readonly file: string,
    private readonly pid: number = process.pid,
  ) {}

  get isHeld(): boolean {
    return this.held;
  }

  /** Take the lock or throw ScanBusyError naming the live holder. */
  acquire(kind: string): void {
    if (this.held || heldHere.has(this.file)) throw new ScanBusyError(readLock(this.file) ?? { pid: this.pid, kind, startedAt: '' });
    mkdirSync(path.dirname(this.file), { recursive: true });
    const info: LockInfo = { pid: this.pid, kind, startedAt: new Date().toISOString() };
    const tmp = `${this.file}.${this.pid}.${randomBytes(4).toString('hex')}.tmp`;
    writeFileSync(tmp, JSON.stringify(info));
    try {
      for (let attempt = 0; attempt < 3; attempt++) {
        try {
          linkSync(tmp, this.file);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
          const holder = readLock(this.file);
          if (holder && isProcessAlive(holder.pid) && holder.pid !== this.pid) throw new ScanBusyError(holder);
          if (!holder) {
            // unreadable lock: maybe being written right now; a second look decides
            const again = readLock(this.file);
            if (again && isProcessAlive(again.pid) && again.pid !== this.pid) throw new ScanBusyError(again);
          }
          // stale: move it aside (atomic) and try again
          const aside = `${this.file}.stale.${randomBytes(4).toString('hex')}`;
          try {
            renameSync(this.file, aside);
            rmSync(aside, { force: true });
          } catch {
            /* someone else took it over first; the next link attempt decides */
          }
          continue;
        }
        const check = readLock(this.file);
        if (check?.pid !== this.pid) throw new ScanBusyError(check ?? info);
        this.held = true;
        heldHere.add(this.file);
        return;
      }
      const holder = readLock(this.file);
      throw new ScanBusyError(holder ?? info);
    } finally {
      rmSync(tmp, { force: true });
    }
  }

  release(): void {
    if (!this.held) return;
    this.held = false;
    heldHere.delete(this.file);
    const info = readLock(this.file);
    if (info?.pid === this.pid) rmSync(this.file, { force: true });
  }
}
