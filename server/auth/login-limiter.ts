/**
 * Counts failed logins per (address, name) in a sliding window; blocks after `max` failures.
 * In memory: a restart clears it, which is fine for a brute-force brake.
 */
export class LoginLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly max = 10,
    private readonly windowMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  private key(address: string, name: string) {
    return `${address}\u0000${name.toLowerCase()}`;
  }

  private recent(key: string): number[] {
    const cutoff = this.now() - this.windowMs;
    const list = (this.failures.get(key) ?? []).filter((t) => t > cutoff);
    if (list.length) this.failures.set(key, list);
    else this.failures.delete(key);
    return list;
  }

  /** Seconds to wait before another attempt, or 0 when allowed. */
  retryAfter(address: string, name: string): number {
    const list = this.recent(this.key(address, name));
    if (list.length < this.max) return 0;
    return Math.max(1, Math.ceil((list[0] + this.windowMs - this.now()) / 1000));
  }

  fail(address: string, name: string): void {
    const key = this.key(address, name);
    const list = this.recent(key);
    list.push(this.now());
    this.failures.set(key, list);
    if (this.failures.size > 10_000) this.failures.delete(this.failures.keys().next().value as string);
  }

  succeed(address: string, name: string): void {
    this.failures.delete(this.key(address, name));
  }
}
