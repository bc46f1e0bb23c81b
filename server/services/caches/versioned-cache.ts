interface CacheEntry<T> {
  version: number;
  value: T;
  weight: number;
}

/**
 * LRU map whose entries belong to one library version: a lookup under another version misses (and
 * drops the stale entry). Bounded by total weight (ids held, for id lists).
 */
export class VersionedCache<T> {
  private readonly map = new Map<string, CacheEntry<T>>();
  private total = 0;

  constructor(private readonly maxWeight: number) {}

  get(key: string, version: number): T | undefined {
    const e = this.map.get(key);
    if (!e) return undefined;
    this.map.delete(key);
    if (e.version !== version) {
      this.total -= e.weight;
      return undefined;
    }
    this.map.set(key, e);
    return e.value;
  }

  set(key: string, version: number, value: T, weight = 1): void {
    const old = this.map.get(key);
    if (old) {
      this.total -= old.weight;
      this.map.delete(key);
    }
    if (weight > this.maxWeight) return;
    this.map.set(key, { version, value, weight });
    this.total += weight;
    for (const [k, e] of this.map) {
      if (this.total <= this.maxWeight) break;
      this.map.delete(k);
      this.total -= e.weight;
    }
  }
}
