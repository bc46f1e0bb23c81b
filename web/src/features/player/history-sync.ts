/**
 * Saving play history: a change of queue,
 * index or play state schedules a save 500 ms later (debounced); a timer checks every 60 s. A save is
 * skipped when nothing changed since the last one, and while a resume from history is still seeking
 * (it would overwrite the saved second with 0). Failures are only logged. No DOM: timers and the
 * request are injected, so it is unit-tested with fake timers.
 */
import type { PlayState } from './queue-entry.js';

export const HISTORY_DEBOUNCE_MS = 500;
export const HISTORY_INTERVAL_MS = 60_000;
/** The log line of a save skipped while resuming. */
export const RESUMING_LOG = '尚处于恢复历史记录的状态，跳过本次历史更新';

export interface HistoryPayload {
  work_id: number;
  state: PlayState;
}

export interface HistorySyncDeps {
  /** What to save now, or null when nothing plays. */
  snapshot(): HistoryPayload | null;
  /** A resume is seeking to the saved second. */
  isResuming(): boolean;
  put(payload: HistoryPayload): Promise<unknown>;
  log(message: string, detail?: unknown): void;
  /** The server refused for good (a guest: 403): stop trying. */
  isFatal?(err: unknown): boolean;
}

export interface HistorySyncTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(id: unknown): void;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(id: unknown): void;
}

const realTimers: HistorySyncTimers = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (id) => globalThis.clearTimeout(id as ReturnType<typeof setTimeout>),
  setInterval: (fn, ms) => globalThis.setInterval(fn, ms),
  clearInterval: (id) => globalThis.clearInterval(id as ReturnType<typeof setInterval>),
};

export class HistorySync {
  private debounce: unknown = null;
  private interval: unknown = null;
  private lastSaved: string | null = null;
  private inFlight: Promise<void> | null = null;
  private disabled = false;

  constructor(
    private readonly deps: HistorySyncDeps,
    private readonly timers: HistorySyncTimers = realTimers,
    private readonly debounceMs = HISTORY_DEBOUNCE_MS,
    private readonly intervalMs = HISTORY_INTERVAL_MS,
  ) {}

  start(): void {
    if (this.interval !== null) return;
    this.interval = this.timers.setInterval(() => void this.save(), this.intervalMs);
  }

  stop(): void {
    if (this.interval !== null) this.timers.clearInterval(this.interval);
    if (this.debounce !== null) this.timers.clearTimeout(this.debounce);
    this.interval = this.debounce = null;
  }

  /** Queue, index or play state changed: save once things settle. */
  schedule(): void {
    if (this.debounce !== null) this.timers.clearTimeout(this.debounce);
    this.debounce = this.timers.setTimeout(() => {
      this.debounce = null;
      void this.save();
    }, this.debounceMs);
  }

  /** Save now unless unchanged or resuming. Resolves when done (never rejects). */
  async save(): Promise<void> {
    if (this.disabled) return;
    if (this.inFlight) await this.inFlight;
    const payload = this.deps.snapshot();
    if (!payload) return;
    if (this.deps.isResuming()) {
      this.deps.log(RESUMING_LOG);
      return;
    }
    const key = JSON.stringify(payload);
    if (key === this.lastSaved) return;
    const run = (async () => {
      try {
        await this.deps.put(payload);
        this.lastSaved = key;
      } catch (err) {
        this.deps.log('更新播放历史失败', err);
        if (this.deps.isFatal?.(err)) this.disabled = true;
      }
    })();
    this.inFlight = run;
    await run;
    if (this.inFlight === run) this.inFlight = null;
  }

  /** The saved state came from the server (a resume): it need not be sent back. */
  markSaved(payload: HistoryPayload): void {
    this.lastSaved = JSON.stringify(payload);
  }
}
