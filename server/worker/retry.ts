import { Backoff, sleep } from './backoff.js';
import { TaskFailedError, TransientError } from './errors.js';
import type { WorkerLog } from './log.js';
import { WORKER_TEXT, type WorkerText } from './messages.js';

export type Retry = <T>(what: string, fn: () => Promise<T>, maxAttempts?: number) => Promise<T>;

/**
 * Retry on {@link TransientError} with exponential backoff (from `baseMs`, at most a minute apart).
 * After `maxAttempts` (default: forever) the last error becomes a {@link TaskFailedError}.
 * Other errors pass through at once; an abort stops the wait.
 */
export function retrying(log: WorkerLog, signal: AbortSignal, baseMs: number, text: WorkerText = WORKER_TEXT): Retry {
  return async <T>(what: string, fn: () => Promise<T>, maxAttempts = Infinity): Promise<T> => {
    const backoff = new Backoff(baseMs, 60_000);
    for (;;) {
      try {
        return await fn();
      } catch (err) {
        if (!(err instanceof TransientError)) throw err;
        if (backoff.attempts + 1 >= maxAttempts) throw new TaskFailedError(text.gaveUp(err.message, maxAttempts));
        const delay = backoff.nextDelay();
        log.warn(text.retrying(what, err.message, (delay / 1000).toFixed(1)));
        await sleep(delay, signal);
      }
    }
  };
}
