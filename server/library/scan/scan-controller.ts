/**
 * ScanController: the only entry point to scanning. Single-flight within the process and across
 * processes (the scan lock), cancellable ("kill scan": the current per-work transaction completes or
 * rolls back, nothing is half-written), and a publisher of typed ScanEvents: subscribers (CLI printers,
 * TUI, ws hub) get them live, the logger logs them, and they are persisted to scan_runs/scan_events.
 */
import type { Logger } from 'pino';
import type { ConfigStore } from '../../config/config-store.js';
import type { Config } from '../../config/schema.js';
import type { LibraryRepo } from '../../db/repos/library-repo.js';
import type { ScanRepo } from '../../db/repos/scan-repo.js';
import { sqlNow } from '../../domain/time.js';
import type { MetadataSource } from '../scrapers/metadata-types.js';
import { createLimiter } from './limiter.js';
import { ScanLock } from './scan-lock.js';
import { scanText, textFields, type ScanText } from './scan-messages.js';
import { initialScanState, reduceScanState, type ScanState } from '../../contract/scan-state.js';
import type { MetadataCounts, RunStatus, ScanCounts, ScanEvent, ScanKind, ScanListener } from '../../contract/scan-events.js';
import { DEFAULT_SCAN_OPTIONS, RunContext, type ScanOptions, type WorkMemo } from './run-context.js';
import { runLibraryScan } from '../tasks/scan-library.js';
import { runFilesScan } from '../tasks/scan-files.js';
import { runWorkScan, WorkScanError } from '../tasks/scan-work.js';
import { runRefresh } from '../tasks/refresh.js';
import { runPurge } from '../tasks/purge.js';

export type ScanRequest = { kind: 'scan'; full?: boolean; metadata?: boolean } | { kind: 'refresh' } | { kind: 'files' } | { kind: 'work'; workId: number; metadata?: boolean } | { kind: 'purge' };

export interface ScanSummary {
  runId: number;
  kind: ScanKind;
  status: RunStatus;
  counts: ScanCounts;
  metadata: MetadataCounts;
  stoppedRoots: string[];
  message: string;
  /** `message` with its key and parameters (the terminal prints it in its own language). */
  messageText: ScanText;
  /** 0 all fine, 1 some works or their metadata failed / a root was stopped / cancelled, 2 fatal error. */
  exitCode: number;
  error?: string;
  /** Set by a single-work scan. */
  workMemo?: WorkMemo;
  purged?: number;
}

export interface RunningScan {
  runId: number;
  kind: ScanKind;
  done: Promise<ScanSummary>;
}

export interface ScanControllerDeps {
  store: ConfigStore;
  library: LibraryRepo;
  scans: ScanRepo;
  logger: Logger;
  /** Builds the metadata source from the current config (null = offline only). */
  metadataSource?: (config: Config) => MetadataSource | null;
  options?: Partial<ScanOptions>;
}

/** Thrown by start() when a scan is already running here or in another process. */
export class ScanBusy extends Error {
  constructor(
    message: string,
    readonly pid: number,
  ) {
    super(message);
  }
}

const PERSIST_INTERVAL_MS = 300;
const PERSIST_BATCH = 500;

export class ScanController {
  private listeners = new Set<ScanListener>();
  private current: { runId: number; kind: ScanKind; abort: AbortController; done: Promise<ScanSummary> } | null = null;
  private state: ScanState = initialScanState();
  private pending: string[] = [];
  private flushTimer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private readonly lock: ScanLock;
  readonly options: ScanOptions;

  constructor(private readonly deps: ScanControllerDeps) {
    this.lock = new ScanLock(deps.store.paths().lockFile);
    this.options = { ...DEFAULT_SCAN_OPTIONS, ...deps.options };
  }

  /** Live events of runs in this process. Returns the unsubscribe function. */
  subscribe(listener: ScanListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The state of the current (or last) run of this process. */
  snapshot(): ScanState {
    return this.state;
  }

  get running(): { runId: number; kind: ScanKind } | null {
    return this.current ? { runId: this.current.runId, kind: this.current.kind } : null;
  }

  /** Start a job; throws ScanBusy when one is running (here or in another process). */
  async start(req: ScanRequest): Promise<RunningScan> {
    if (this.current) throw new ScanBusy(`另一个扫描任务正在进行中 (${this.current.kind})`, process.pid);
    const lockFile = this.deps.store.paths().lockFile;
    const lock = this.lock.file === lockFile ? this.lock : new ScanLock(lockFile);
    try {
      await lock.acquire(req.kind);
    } catch (err) {
      const holder = (err as { holder?: { pid: number } }).holder;
      throw new ScanBusy((err as Error).message, holder?.pid ?? 0);
    }
    const abort = new AbortController();
    let runId: number;
    try {
      // the lock is ours: every other run still marked running belongs to a process that has ended
      await this.deps.scans.closeDeadRuns(() => false);
      runId = await this.deps.scans.createRun(req.kind, process.pid);
    } catch (err) {
      await lock.release();
      throw err;
    }
    // The lock is released and the job cleared BEFORE 'finished' goes out, so a listener that starts the
    // next scan on 'finished' is not refused.
    const done = this.execute(runId, req, abort.signal).then(
      async ({ summary, finished }) => {
        await lock.release();
        this.current = null;
        this.emit(finished);
        await this.flush();
        try {
          await this.deps.scans.finishRun(runId, summary.status, {
            counts: summary.counts,
            metadata: summary.metadata,
            stoppedRoots: summary.stoppedRoots,
            exitCode: summary.exitCode,
            message: summary.message,
          });
          await this.deps.scans.pruneOldRuns();
        } catch (err) {
          this.deps.logger.warn({ err }, 'could not record the end of the scan run');
        }
        return summary;
      },
      async (err: unknown) => {
        await lock.release();
        this.current = null;
        throw err;
      },
    );
    this.current = { runId, kind: req.kind, abort, done };
    return { runId, kind: req.kind, done };
  }

  /** Start a job and wait for its summary. */
  async run(req: ScanRequest): Promise<ScanSummary> {
    return (await this.start(req)).done;
  }

  /** Resolves when no job runs and every event is persisted. */
  async idle(): Promise<void> {
    await this.current?.done.catch(() => undefined);
    await this.flushing;
  }

  /** Ask the running job to stop ("kill scan"). False when nothing runs in this process. */
  cancel(): boolean {
    if (!this.current || this.current.abort.signal.aborted) return false;
    this.current.abort.abort();
    return true;
  }

  private emit(e: ScanEvent): void {
    this.state = reduceScanState(this.state, e);
    for (const l of this.listeners) {
      try {
        l(e);
      } catch (err) {
        this.deps.logger.warn({ err }, 'scan event listener failed');
      }
    }
    this.log(e);
    this.pending.push(JSON.stringify(e));
    if (this.pending.length >= PERSIST_BATCH) void this.flush();
    else if (!this.flushTimer) this.flushTimer = setTimeout(() => void this.flush(), PERSIST_INTERVAL_MS);
  }

  private log(e: ScanEvent): void {
    const l = this.deps.logger;
    if (e.type === 'main-log') l[e.level === 'debug' ? 'debug' : e.level]({ scan: true }, e.message);
    else if (e.type === 'task-log') l.debug({ scan: true, code: e.code }, e.message);
    else if (e.type === 'task-failed') l.warn({ scan: true, code: e.code }, e.error);
    else if (e.type === 'error') l.error({ scan: true }, e.message);
    else if (e.type === 'finished') l.info({ scan: true, counts: e.counts, status: e.status }, e.message);
  }

  private flush(): Promise<void> {
    if (this.flushTimer) {
      clearTimeout(this.flushTimer);
      this.flushTimer = null;
    }
    const runId = this.current?.runId ?? this.state.runId;
    const batch = this.pending;
    this.pending = [];
    if (!batch.length || runId === null) return this.flushing;
    this.flushing = this.flushing.then(() => this.deps.scans.appendEvents(runId, batch)).catch((err) => this.deps.logger.warn({ err }, 'could not persist scan events'));
    return this.flushing;
  }

  private async execute(runId: number, req: ScanRequest, signal: AbortSignal): Promise<{ summary: ScanSummary; finished: ScanEvent }> {
    const config = this.deps.store.get();
    const paths = this.deps.store.paths();
    let metadata: MetadataSource | null = null;
    const wantsMetadata = req.kind === 'refresh' || (req.kind === 'scan' && req.metadata !== false) || (req.kind === 'work' && req.metadata === true);
    if (wantsMetadata && this.deps.metadataSource) {
      try {
        metadata = this.deps.metadataSource(config);
      } catch (err) {
        this.deps.logger.warn({ err }, 'metadata source unavailable');
      }
    }
    const ctx = new RunContext(runId, req.kind, config, paths, this.deps.library, metadata, signal, this.options, createLimiter(config.maxParallelism), (e) => this.emit(e));
    this.emit({ type: 'started', runId, kind: req.kind, pid: process.pid, at: sqlNow() });
    // the line that ends a failed run: a refused single-work scan says its own (translatable) line
    let fatal: ScanText | null = null;
    let purged: number | undefined;
    try {
      switch (req.kind) {
        case 'scan':
          await runLibraryScan(ctx, { full: !!req.full, metadata: req.metadata !== false });
          break;
        case 'files':
          await runFilesScan(ctx);
          break;
        case 'refresh':
          await runRefresh(ctx);
          break;
        case 'work':
          await runWorkScan(ctx, req.workId, { metadata: !!req.metadata });
          break;
        case 'purge':
          purged = await runPurge(ctx);
          break;
      }
    } catch (err) {
      fatal = err instanceof WorkScanError ? err.line : scanText('fatal', (err as Error).message || String(err));
    }
    const closable = metadata as (MetadataSource & { close?: () => Promise<void> }) | null;
    if (closable?.close) await closable.close().catch(() => undefined);
    try {
      if (req.kind !== 'purge') await this.deps.library.recountAll();
    } catch (err) {
      fatal ??= scanText('fatal', (err as Error).message);
    }
    const cancelled = signal.aborted;
    if (cancelled) ctx.main('error', scanText('killed'));
    if (fatal) this.emit({ type: 'error', ...textFields(fatal) });
    const status: RunStatus = fatal ? 'error' : cancelled ? 'cancelled' : 'finished';
    const c = ctx.counts;
    const summaryText = fatal
      ? fatal
      : cancelled
        ? scanText('cancelled')
        : req.kind === 'refresh'
          ? scanText('finishedRefresh', { ...c })
          : req.kind === 'files'
            ? scanText('finishedFiles', { ...c })
            : req.kind === 'purge'
              ? scanText('finishedPurge', purged ?? 0)
              : scanText('finishedScan', { ...c });
    const message = summaryText.text;
    const exitCode = fatal ? 2 : cancelled || c.failed > 0 || ctx.metadataCounts.failed > 0 || ctx.stoppedRoots.length > 0 ? 1 : 0;
    const finished: ScanEvent = { type: 'finished', status, ...textFields(summaryText), counts: { ...c }, metadata: { ...ctx.metadataCounts }, exitCode };
    const summary: ScanSummary = {
      runId,
      kind: req.kind,
      status,
      counts: { ...c },
      metadata: { ...ctx.metadataCounts },
      stoppedRoots: [...ctx.stoppedRoots],
      message,
      messageText: summaryText,
      exitCode,
      // the error itself: a refused work scan's line, or the failure's own message
      ...(fatal ? { error: fatal.key === 'fatal' ? String(fatal.params[0]) : fatal.text } : {}),
      ...(ctx.workMemo ? { workMemo: ctx.workMemo } : {}),
      ...(purged !== undefined ? { purged } : {}),
    };
    return { summary, finished };
  }
}
