/** Runs one computation per key at a time; concurrent callers share its promise. */
export class SingleFlight {
  private readonly running = new Map<string, Promise<unknown>>();

  run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const existing = this.running.get(key);
    if (existing) return existing as Promise<T>;
    const p = fn().finally(() => this.running.delete(key));
    this.running.set(key, p);
    return p;
  }
}
