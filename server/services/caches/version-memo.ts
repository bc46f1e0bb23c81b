/**
 * Values per key for one library version, filled as keys are asked for, many keys per load: a key
 * missing from the answer of `load` is remembered as absent too. Unlike `VersionedCache` (an LRU map
 * by weight, one key per lookup, where entries of several versions may sit side by side), a memo holds
 * one version only and starts over when the version moves or it holds more than `max` keys: it suits
 * small per-item facts asked for in batches (a page of albums), where the loader answers a batch in
 * one query and an LRU order would cost more than it saves.
 */
export class VersionMemo<V> {
  private version = -1;
  private map = new Map<number, V | null>();

  constructor(private readonly max: number) {}

  async getMany(version: number, keys: number[], load: (missing: number[]) => Promise<Map<number, V>>): Promise<Map<number, V>> {
    if (version !== this.version || this.map.size > this.max) {
      this.version = version;
      this.map = new Map();
    }
    const map = this.map;
    const missing = [...new Set(keys.filter((k) => !map.has(k)))];
    if (missing.length) {
      const loaded = await load(missing);
      for (const k of missing) map.set(k, loaded.get(k) ?? null);
    }
    const out = new Map<number, V>();
    for (const k of keys) {
      const v = map.get(k);
      if (v != null) out.set(k, v);
    }
    return out;
  }
}
