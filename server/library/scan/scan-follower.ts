/**
 * Follows a scan run of another process (a `kikoplay scan` from a terminal or cron) through the
 * persisted scan_events, so the server's dashboard shows it live. Polls only while someone listens.
 */
import type { ScanRepo } from '../../db/repos/scan-repo.js';
import { initialScanState, reduceScanState, type ScanState } from '../../contract/scan-state.js';
import type { ScanEvent, ScanListener } from '../../contract/scan-events.js';

export class ScanFollower {
  private listeners = new Set<ScanListener>();
  private timer: NodeJS.Timeout | null = null;
  private runId: number | null = null;
  private lastEventId = 0;
  private state: ScanState = initialScanState();
  private polling = false;
  /** Polls in a row that found the followed run still "running" while no process held the scan lock. */
  private lockFreePolls = 0;

  constructor(
    private readonly scans: ScanRepo,
    private readonly isLocalRun: (runId: number) => boolean,
    /** Does any process hold the scan lock now? */
    private readonly lockHeld: () => Promise<boolean>,
    private readonly intervalMs = 500,
  ) {}

  subscribe(listener: ScanListener): () => void {
    this.listeners.add(listener);
    if (!this.timer) this.timer = setInterval(() => void this.poll(), this.intervalMs);
    return () => {
      this.listeners.delete(listener);
      if (!this.listeners.size && this.timer) {
        clearInterval(this.timer);
        this.timer = null;
      }
    };
  }

  /** The state of the external run being followed (or of the latest persisted run). */
  async snapshot(): Promise<ScanState> {
    await this.poll();
    return this.state;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.listeners.clear();
  }

  /** Read new events of the latest run when it belongs to another process. */
  async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      const run = await this.scans.latestRun();
      if (!run || this.isLocalRun(run.id)) return;
      if (run.id !== this.runId) {
        this.runId = run.id;
        this.lastEventId = 0;
        this.state = initialScanState();
      }
      for (;;) {
        const rows = await this.scans.eventsAfter(run.id, this.lastEventId, 2000);
        for (const row of rows) {
          this.lastEventId = row.id;
          let e: ScanEvent;
          try {
            e = JSON.parse(row.event) as ScanEvent;
          } catch {
            continue;
          }
          this.state = reduceScanState(this.state, e);
          for (const l of this.listeners) l(e);
        }
        if (rows.length < 2000) break;
      }
      // a run whose process died without a 'finished' event
      // A run whose process ended without a 'finished' event: the lock is free on two polls in a row (a
      // scan releases the lock a moment before it records its end).
      this.lockFreePolls = run.status === 'running' && this.state.status === 'running' && !(await this.lockHeld()) ? this.lockFreePolls + 1 : 0;
      if (this.lockFreePolls >= 2) {
        this.lockFreePolls = 0;
        const e: ScanEvent = { type: 'finished', status: 'error', message: ' ! 扫描进程已退出.', counts: this.state.counts, metadata: this.state.metadata, exitCode: 2 };
        this.state = reduceScanState(this.state, e);
        for (const l of this.listeners) l(e);
      }
    } catch {
      /* the next poll tries again */
    } finally {
      this.polling = false;
    }
  }
}
