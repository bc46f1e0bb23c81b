/**
 * Answers kept while the database's change stamp (`Database.changeStamp`) stays the same, and for at
 * most `maxAgeMs` (a second by default): while no process has committed anything a read would give
 * the same answer again, and the age limit covers file systems whose file times are coarse. Hot paths
 * use it for what every request reads (who a token is, a user's ratings or stars, the library
 * version). With no stamp (an in-memory database) nothing is kept. At most `maxEntries` keys; the one
 * stored longest ago goes first.
 */
export class StampedCache<K, V> {
  private readonly entries = new Map<K, { stamp: string; at: number; value: V }>();

  constructor(
    private readonly stampOf: () => string | null,
    private readonly limits: { maxEntries?: number; maxAgeMs?: number } = {},
  ) {}

  /**
   * The kept value of `key`, or else `load()`'s, kept for later when `keep` (default: always) allows.
   * A kept value is used only while `usable` (default: always) says so, e.g. before a token's expiry.
   * The stamp is read before `load`, so a commit during the load makes its answer stale at once.
   */
  async get(key: K, load: () => Promise<V>, opts: { keep?: (value: V) => boolean; usable?: (value: V, now: number) => boolean } = {}): Promise<V> {
    const stamp = this.stampOf();
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && stamp !== null && hit.stamp === stamp && now - hit.at < (this.limits.maxAgeMs ?? 1000) && (opts.usable?.(hit.value, now) ?? true)) return hit.value;
    const value = await load();
    if (stamp !== null && (opts.keep?.(value) ?? true)) {
      this.entries.delete(key);
      if (this.entries.size >= (this.limits.maxEntries ?? 1000)) this.entries.delete(this.entries.keys().next().value as K);
      this.entries.set(key, { stamp, at: now, value });
    }
    return value;
  }

  /** Forget everything (after a change this process knows of that the stamp may not show yet). */
  clear(): void {
    this.entries.clear();
  }
}
