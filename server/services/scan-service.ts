/**
 * Scanning use cases for routes, the ws hub, cron and the CLI: start a job (admin only), kill it,
 * scan one work, and watch events — of this process's runs and of runs started by another process.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { isAdmin, type Actor } from '../auth/roles.js';
import { AppError, conflict, forbidden, notFound } from '../domain/errors.js';
import { formatWorkCode } from '../domain/work-code.js';
import type { ConfigStore } from '../config/config-store.js';
import type { LibraryRepo } from '../db/repos/library-repo.js';
import { ScanBusy, type ScanController, type ScanRequest, type ScanSummary } from '../library/scan/scan-controller.js';
import type { ScanFollower } from '../library/scan/scan-follower.js';
import { isVerifiedScanProcess, lockHolder } from '../library/scan/scan-lock.js';
import { MSG } from '../library/scan/scan-messages.js';
import type { ScanListener } from '../contract/scan-events.js';
import type { ScanState } from '../contract/scan-state.js';
import type { WorkMemo } from '../library/scan/run-context.js';

export type { ScanRequest, ScanSummary };

export class ScanService {
  constructor(
    private readonly controller: ScanController,
    private readonly follower: ScanFollower,
    private readonly library: LibraryRepo,
    private readonly store: ConfigStore,
  ) {}

  private requireAdmin(actor: Actor): void {
    if (!isAdmin(actor)) throw forbidden('只有管理员能进行扫描操作.', { code: 'ADMIN_ONLY' });
  }

  /** Start a job in the background; 409 when a scan is already running (here or elsewhere). */
  async start(actor: Actor, req: ScanRequest): Promise<{ runId: number; done: Promise<ScanSummary> }> {
    this.requireAdmin(actor);
    try {
      const running = await this.controller.start(req);
      return { runId: running.runId, done: running.done };
    } catch (err) {
      if (err instanceof ScanBusy) throw conflict(err.message, { code: 'SCAN_RUNNING' });
      throw err;
    }
  }

  /** Run a job to its end. */
  async run(actor: Actor, req: ScanRequest): Promise<ScanSummary> {
    return (await this.start(actor, req)).done;
  }

  /**
   * Kill the running scan: this process's, or a `kikoplay scan` process's via SIGTERM — only when the OS
   * confirms that the lock's holder is that very scan process (see isVerifiedScanProcess): a reused process
   * id, a server holding the lock, or a lock file someone wrote is never signalled. False when none runs
   * or none could be stopped from here.
   */
  async kill(actor: Actor): Promise<boolean> {
    this.requireAdmin(actor);
    if (this.controller.cancel()) return true;
    const holder = await lockHolder(this.store.paths().lockFile);
    if (holder && isVerifiedScanProcess(holder)) {
      try {
        process.kill(holder.pid, 'SIGTERM');
        return true;
      } catch {
        return false;
      }
    }
    return false;
  }

  /** Is a scan running anywhere (this process or another)? */
  async isRunning(): Promise<boolean> {
    return this.controller.running !== null || (await lockHolder(this.store.paths().lockFile)) !== null;
  }

  /** Events of every run this process can see: its own (live) and other processes' (followed). */
  subscribe(listener: ScanListener): () => void {
    const a = this.controller.subscribe(listener);
    const b = this.follower.subscribe(listener);
    return () => {
      a();
      b();
    };
  }

  /** Snapshot for a dashboard that just opened (SCAN_INIT_STATE). */
  async snapshot(): Promise<ScanState> {
    const local = this.controller.snapshot();
    if (this.controller.running) return local;
    const followed = await this.follower.snapshot();
    if (followed.runId !== null && (local.runId === null || followed.runId > local.runId)) return followed;
    return local;
  }

  /** POST /api/work/scan/:id — rescan one work's files; answers the kikoeru memo. */
  async scanWork(actor: Actor, workId: number, opts: { metadata?: boolean } = {}): Promise<{ memo: WorkMemo }> {
    this.requireAdmin(actor);
    const w = await this.library.work(workId);
    if (!w) throw notFound(`There is no work with id ${workId} in the database.`, { code: 'WORK_NOT_FOUND', params: { work: formatWorkCode(workId) } });
    const root = this.store.get().rootFolders.find((r) => r.name === w.root_folder);
    if (!root) throw new AppError('conflict', MSG.rootMissing(w.root_folder), { code: 'ROOT_FOLDER_MISSING', params: { folder: w.root_folder } });
    const abs = path.join(root.path, w.dir);
    if (!existsSync(abs))
      throw new AppError('conflict', `扫描作品文件失败，${formatWorkCode(workId)} 的文件夹不存在: ${w.dir}`, { code: 'WORK_FOLDER_MISSING', params: { work: formatWorkCode(workId) } });
    const summary = await this.run(actor, { kind: 'work', workId, metadata: opts.metadata });
    if (summary.status !== 'finished' || !summary.workMemo) throw new AppError('internal', `扫描作品文件失败: ${summary.error ?? summary.message}`);
    return { memo: summary.workMemo };
  }
}
