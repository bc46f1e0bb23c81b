import { AppError } from '../domain/errors.js';

export const BUSY_MESSAGE = '服务器繁忙，请稍后再试';

/**
 * Runs costly work (password hashing) a few at a time, in arrival order, with a bounded wait list.
 * scrypt runs on the libuv thread pool that SQLite and file reads also use; keeping only
 * `concurrency` hashes on it leaves the other threads to ordinary requests during a login flood.
 * A full wait list is refused at once with 503 and a Retry-After estimate, never left to hang.
 */
export class HashQueue {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private started = 0;
  /** Moving average of one task's duration, for Retry-After. */
  private averageMs = 200;

  constructor(
    readonly concurrency: number,
    readonly maxWaiting: number,
  ) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running < this.concurrency) {
      this.running++;
    } else {
      if (this.waiting.length >= this.maxWaiting) {
        throw new AppError('unavailable', BUSY_MESSAGE, { code: 'BUSY', headers: { 'Retry-After': String(this.retryAfterSeconds()) } });
      }
      // the finishing task hands its slot over: `running` stays as it is
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    const begin = performance.now();
    this.started++;
    try {
      return await task();
    } finally {
      this.averageMs = this.averageMs * 0.8 + (performance.now() - begin) * 0.2;
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }

  /** Seconds until the wait list has room again, roughly. */
  retryAfterSeconds(): number {
    return Math.max(1, Math.ceil(((this.waiting.length / this.concurrency + 1) * this.averageMs) / 1000));
  }

  /** How many tasks have started (ever), run now and wait now. */
  stats(): { started: number; running: number; waiting: number } {
    return { started: this.started, running: this.running, waiting: this.waiting.length };
  }
}
