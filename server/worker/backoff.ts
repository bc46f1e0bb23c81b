import { StoppedError } from './errors.js';

/** Wait `ms`, or until `signal` aborts (then throw {@link StoppedError}). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new StoppedError());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new StoppedError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Exponential backoff with jitter: base, 2×base, 4×base … capped at `maxMs`. */
export class Backoff {
  private attempt = 0;

  constructor(
    private readonly baseMs = 1000,
    private readonly maxMs = 60_000,
  ) {}

  get attempts(): number {
    return this.attempt;
  }

  nextDelay(): number {
    const raw = Math.min(this.maxMs, this.baseMs * 2 ** this.attempt);
    this.attempt++;
    return Math.round(raw * (0.75 + Math.random() * 0.5));
  }

  reset(): void {
    this.attempt = 0;
  }
}
