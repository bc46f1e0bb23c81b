/**
 * Typed events of a scan job. The ScanController publishes them; the CLI printers, the Ink TUI, the
 * logger and the ws hub subscribe. They are also persisted (scan_runs / scan_events) so a run started
 * by another process can be followed. Work codes are full display codes (RJ123456, BJ…, VJ…).
 */
export type ScanKind = 'scan' | 'refresh' | 'files' | 'work' | 'purge';
export type LogLevel = 'info' | 'warn' | 'error' | 'debug';
export type WorkResult = 'added' | 'updated' | 'skipped' | 'failed';
export type RunStatus = 'finished' | 'error' | 'cancelled';

export interface ScanCounts {
  added: number;
  updated: number;
  skipped: number;
  failed: number;
}

export interface MetadataCounts {
  ok: number;
  /** Works whose metadata could not be fetched or saved (a work no site knows is not counted: it stays pending). */
  failed: number;
  /** Works still waiting for metadata after this run (offline, not yet due, or stopped early). */
  pending: number;
}

export type ScanPhase = 'discover' | 'local' | 'metadata' | 'cleanup' | 'refresh' | 'files' | 'purge';

/** A parameter of a keyed scan message (a count object for the summaries). */
export type ScanParam = string | number | boolean | ScanCounts;

/**
 * A line's message key and parameters (server/library/scan/scan-messages.ts), beside its Chinese text:
 * the terminal prints the line in its own language from them. Absent on lines with no key (older runs).
 */
export interface ScanMessageRef {
  key?: string;
  params?: ScanParam[];
}

export type ScanEvent =
  | { type: 'started'; runId: number; kind: ScanKind; pid: number; at: string }
  | ({ type: 'main-log'; level: LogLevel; message: string } & ScanMessageRef)
  | { type: 'task-started'; code: string; workId: number }
  | ({ type: 'task-log'; code: string; level: LogLevel; message: string } & ScanMessageRef)
  | { type: 'task-done'; code: string; result: Exclude<WorkResult, 'failed'> }
  | ({ type: 'task-failed'; code: string; error: string } & ScanMessageRef)
  /** A counted result (never for skipped works): `count` = running total of that kind. */
  | { type: 'result'; code: string; result: 'added' | 'updated' | 'failed'; count: number }
  | { type: 'progress'; phase: ScanPhase; done: number; total: number; counts: ScanCounts }
  | ({ type: 'finished'; status: RunStatus; message: string; counts: ScanCounts; metadata: MetadataCounts; exitCode: number } & ScanMessageRef)
  /** A fatal error: the job stopped. A 'finished' event with status 'error' follows. */
  | ({ type: 'error'; message: string } & ScanMessageRef);

export type ScanListener = (event: ScanEvent) => void;

export const emptyCounts = (): ScanCounts => ({ added: 0, updated: 0, skipped: 0, failed: 0 });
export const emptyMetadataCounts = (): MetadataCounts => ({ ok: 0, failed: 0, pending: 0 });
