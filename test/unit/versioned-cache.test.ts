import { describe, expect, it } from 'vitest';
import { VersionedCache } from '../../server/services/caches/versioned-cache.js';

describe('VersionedCache', () => {
  it('answers an entry under the version it was stored at', () => {
    const cache = new VersionedCache<string>(10);
    cache.set('a', 1, 'alpha');
    expect(cache.get('a', 1)).toBe('alpha');
    expect(cache.get('a', 1)).toBe('alpha');
    expect(cache.get('b', 1)).toBeUndefined();
  });

  it('keeps falsy values as hits (a count of 0 is an answer)', () => {
    const cache = new VersionedCache<number>(10);
    cache.set('empty', 3, 0);
    expect(cache.get('empty', 3)).toBe(0);
  });

  it('misses under another version and drops the stale entry', () => {
    const cache = new VersionedCache<string>(10);
    cache.set('a', 1, 'alpha');
    expect(cache.get('a', 2)).toBeUndefined();
    // dropped: not even the old version finds it again
    expect(cache.get('a', 1)).toBeUndefined();
  });

  it('frees the weight of a dropped stale entry', () => {
    const cache = new VersionedCache<string>(10);
    cache.set('old', 1, 'x', 6);
    expect(cache.get('old', 2)).toBeUndefined();
    cache.set('b', 2, 'bravo', 6);
    cache.set('c', 2, 'charlie', 4);
    expect(cache.get('b', 2)).toBe('bravo');
    expect(cache.get('c', 2)).toBe('charlie');
  });

  it('replaces an entry stored again, under its new version and weight', () => {
    const cache = new VersionedCache<string>(5);
    cache.set('a', 1, 'first', 4);
    cache.set('a', 2, 'second', 1);
    expect(cache.get('a', 2)).toBe('second');
    cache.set('b', 2, 'bravo', 4);
    expect(cache.get('a', 2)).toBe('second');
    expect(cache.get('b', 2)).toBe('bravo');
    expect(cache.get('a', 1)).toBeUndefined();
  });

  it('evicts the least recently used entries when the total weight is exceeded', () => {
    const cache = new VersionedCache<string>(3);
    cache.set('a', 1, 'alpha');
    cache.set('b', 1, 'bravo');
    cache.set('c', 1, 'charlie');
    expect(cache.get('a', 1)).toBe('alpha'); // a is now the most recently used
    cache.set('d', 1, 'delta');
    expect(cache.get('b', 1)).toBeUndefined();
    expect(cache.get('a', 1)).toBe('alpha');
    expect(cache.get('c', 1)).toBe('charlie');
    expect(cache.get('d', 1)).toBe('delta');
  });

  it('bounds by weight, not by the number of entries', () => {
    const cache = new VersionedCache<number[]>(100);
    cache.set('small-1', 1, [1], 10);
    cache.set('small-2', 1, [2], 10);
    cache.set('big', 1, [3], 85);
    // 105 > 100: the oldest entry goes, the rest fit
    expect(cache.get('small-1', 1)).toBeUndefined();
    expect(cache.get('small-2', 1)).toEqual([2]);
    expect(cache.get('big', 1)).toEqual([3]);
  });

  it('does not store an entry heavier than the bound, and drops the one it replaces', () => {
    const cache = new VersionedCache<string>(10);
    cache.set('keep', 1, 'kept', 5);
    cache.set('a', 1, 'small', 2);
    cache.set('a', 1, 'huge', 11);
    expect(cache.get('a', 1)).toBeUndefined();
    expect(cache.get('keep', 1)).toBe('kept');
    // the replaced entry's weight was given back: 5 + 5 fits
    cache.set('b', 1, 'bravo', 5);
    expect(cache.get('keep', 1)).toBe('kept');
    expect(cache.get('b', 1)).toBe('bravo');
  });
});
