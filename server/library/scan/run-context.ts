/**
 * What a scan job works with: config, paths, repositories, the metadata source, the abort signal,
 * and helpers that emit typed events (main log, per-work tasks, counted results, throttled progress).
 */
import type { Config } from '../../config/schema.js';
import type { Paths } from '../../config/load.js';
import type { LibraryRepo } from '../../db/repos/library-repo.js';
import type { MetadataSource } from '../scrapers/metadata-types.js';
import type { Limiter } from './limiter.js';
import { textFields, type ScanText } from './scan-messages.js';
import { emptyCounts, emptyMetadataCounts, type LogLevel, type MetadataCounts, type ScanCounts, type ScanEvent, type ScanKind, type ScanPhase } from '../../contract/scan-events.js';

export interface ScanOptions {
  /** Metadata requests in flight at once. */
  metadataConcurrency: number;
  /** Minimum spacing between the starts of two metadata requests (rate limit). */
  metadataIntervalMs: number;
  /** Consecutive metadata failures (no answer) after which a run stops fetching metadata. */
  metadataFailureLimit: number;
  /** Spacing of progress events. */
  progressIntervalMs: number;
  /** Retry delay of a work DLsite does not know. */
  notFoundRetryMs: number;
}

export const DEFAULT_SCAN_OPTIONS: ScanOptions = {
  metadataConcurrency: 2,
  metadataIntervalMs: 500,
  metadataFailureLimit: 5,
  progressIntervalMs: 250,
  notFoundRetryMs: 7 * 24 * 3600_000,
};

export interface TaskHandle {
  readonly code: string;
  log(level: LogLevel, message: string | ScanText): void;
  done(result: 'added' | 'updated' | 'skipped'): void;
  failed(error: string | ScanText): void;
}

export interface WorkMemo {
  duration: Record<string, number>;
  isContainLyric: boolean;
  mtime: Record<string, number>;
  totalDuration: number;
}

export class RunContext {
  readonly counts: ScanCounts = emptyCounts();
  readonly metadataCounts: MetadataCounts = emptyMetadataCounts();
  readonly stoppedRoots: string[] = [];
  /** The memo of a single-work scan (POST /api/work/scan/:id). */
  workMemo: WorkMemo | null = null;
  private lastProgress = 0;
  private readonly openTasks = new Set<string>();

  constructor(
    readonly runId: number,
    readonly kind: ScanKind,
    readonly config: Config,
    readonly paths: Paths,
    readonly library: LibraryRepo,
    readonly metadata: MetadataSource | null,
    readonly signal: AbortSignal,
    readonly options: ScanOptions,
    readonly probeLimiter: Limiter,
    private readonly emit: (e: ScanEvent) => void,
  ) {}

  get aborted(): boolean {
    return this.signal.aborted;
  }

  /**
   * Works in flight at once in the per-work stage. More than maxParallelism: probes are bounded by
   * probeLimiter and listing is synchronous, so the extra works are ones waiting for their write,
   * which group commit (LibraryRepo.saveLocalWork) takes together — with only maxParallelism in
   * flight, the folder walk would stall while a batch is written.
   */
  get worksInFlight(): number {
    return Math.max(64, this.config.maxParallelism * 4);
  }

  main(level: LogLevel, message: string | ScanText): void {
    this.emit({ type: 'main-log', level, ...textFields(message) });
  }

  /** A per-work task; it appears (task-started) with its first log line. Handles of one code share state. */
  task(code: string, workId: number): TaskHandle {
    const start = () => {
      if (!this.openTasks.has(code)) {
        this.openTasks.add(code);
        this.emit({ type: 'task-started', code, workId });
      }
    };
    return {
      code,
      log: (level, message) => {
        start();
        this.emit({ type: 'task-log', code, level, ...textFields(message) });
      },
      done: (result) => {
        if (!this.openTasks.delete(code)) return;
        this.emit({ type: 'task-done', code, result });
      },
      failed: (error) => {
        start();
        this.openTasks.delete(code);
        const { message, ...ref } = textFields(error);
        this.emit({ type: 'task-failed', code, error: message, ...ref });
      },
    };
  }

  /** Count a work's outcome; added/updated/failed also emit a `result` event with the running total. */
  count(code: string, result: keyof ScanCounts): number {
    const n = ++this.counts[result];
    if (result !== 'skipped') this.emit({ type: 'result', code, result, count: n });
    return n;
  }

  progress(phase: ScanPhase, done: number, total: number, force = false): void {
    const now = Date.now();
    if (!force && done !== total && now - this.lastProgress < this.options.progressIntervalMs) return;
    this.lastProgress = now;
    this.emit({ type: 'progress', phase, done, total, counts: { ...this.counts } });
  }
}

/** Sleep that ends early (resolving) when the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0 || signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
