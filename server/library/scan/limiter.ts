/** At most `max` async functions at once; the rest wait in FIFO order. */
export interface Limiter {
  run<T>(fn: () => Promise<T>): Promise<T>;
  readonly active: number;
}

export function createLimiter(max: number): Limiter {
  let active = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    active--;
    const next = waiting.shift();
    if (next) next();
  };
  return {
    get active() {
      return active;
    },
    async run<T>(fn: () => Promise<T>): Promise<T> {
      if (active >= max) await new Promise<void>((resolve) => waiting.push(resolve));
      active++;
      try {
        return await fn();
      } finally {
        release();
      }
    },
  };
}

/** Run `worker` over `items` with at most `concurrency` in flight; stops taking new items once `signal` aborts. */
export async function forEachConcurrent<T>(items: Iterable<T>, concurrency: number, worker: (item: T, index: number) => Promise<void>, signal?: AbortSignal): Promise<void> {
  const it = items[Symbol.iterator]();
  let index = 0;
  const lanes = Array.from({ length: Math.max(1, concurrency) }, async () => {
    for (;;) {
      if (signal?.aborted) return;
      const next = it.next();
      if (next.done) return;
      await worker(next.value, index++);
    }
  });
  await Promise.all(lanes);
}
