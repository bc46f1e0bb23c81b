import { afterEach, describe, expect, it, vi } from 'vitest';
import { StampedCache } from '../../server/db/stamped-cache.js';

/** A cache over a stamp the test moves, and a loader that counts its reads. */
function setup(limits?: { maxEntries?: number; maxAgeMs?: number }) {
  const state = { stamp: 'a' as string | null, reads: 0 };
  const cache = new StampedCache<string, string>(() => state.stamp, limits);
  const load = (key: string) => async () => `${key}#${++state.reads}`;
  return { state, cache, load };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('StampedCache', () => {
  it('answers again from memory while the stamp is unchanged', async () => {
    const { state, cache, load } = setup();
    expect(await cache.get('k', load('k'))).toBe('k#1');
    expect(await cache.get('k', load('k'))).toBe('k#1');
    expect(state.reads).toBe(1);
  });

  it('reads again once the stamp moves (a commit by any process)', async () => {
    const { state, cache, load } = setup();
    await cache.get('k', load('k'));
    state.stamp = 'b';
    expect(await cache.get('k', load('k'))).toBe('k#2');
    expect(await cache.get('k', load('k'))).toBe('k#2');
  });

  it('reads again after the age limit even with the same stamp (coarse file times)', async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const { cache, load } = setup({ maxAgeMs: 1000 });
    await cache.get('k', load('k'));
    vi.setSystemTime(1_000_999);
    expect(await cache.get('k', load('k'))).toBe('k#1');
    vi.setSystemTime(1_001_000);
    expect(await cache.get('k', load('k'))).toBe('k#2');
  });

  it('keeps nothing without a stamp (an in-memory database)', async () => {
    const { state, cache, load } = setup();
    state.stamp = null;
    await cache.get('k', load('k'));
    expect(await cache.get('k', load('k'))).toBe('k#2');
  });

  it('stores under the stamp read before the load, so a commit during the load makes it stale', async () => {
    const { state, cache } = setup();
    await cache.get('k', async () => {
      state.stamp = 'b'; // committed while the answer was being read
      return 'old';
    });
    expect(await cache.get('k', async () => 'new')).toBe('new');
  });

  it('keeps only what `keep` allows and uses a kept value only while `usable` says so', async () => {
    const { cache } = setup();
    await cache.get('missing', async () => '', { keep: (v) => v !== '' });
    expect(await cache.get('missing', async () => 'found')).toBe('found');
    await cache.get('token', async () => 'expiring');
    expect(await cache.get('token', async () => 'fresh', { usable: () => false })).toBe('fresh');
    expect(await cache.get('token', async () => 'unused', { usable: (v) => v === 'fresh' })).toBe('fresh');
  });

  it('holds at most maxEntries keys, dropping the one stored longest ago', async () => {
    const { state, cache, load } = setup({ maxEntries: 2 });
    await cache.get('a', load('a'));
    await cache.get('b', load('b'));
    await cache.get('c', load('c'));
    expect(await cache.get('b', load('b'))).toBe('b#2');
    expect(await cache.get('c', load('c'))).toBe('c#3');
    expect(await cache.get('a', load('a'))).toBe('a#4');
    expect(state.reads).toBe(4);
  });

  it('forgets everything on clear', async () => {
    const { cache, load } = setup();
    await cache.get('k', load('k'));
    cache.clear();
    expect(await cache.get('k', load('k'))).toBe('k#2');
  });
});
