import { describe, expect, it } from 'vitest';
import { shuffler } from '../../server/services/works/shuffle.js';

/** The whole shuffled order of [0, n) for a seed. */
function order(n: number, seed: number): number[] {
  const at = shuffler(n, seed);
  return Array.from({ length: n }, (_, i) => at(i));
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('shuffler', () => {
  it.each([1, 2, 3, 4, 5, 15, 16, 17, 63, 64, 65, 100, 1000, 4097])('is a permutation of [0, %d)', (n) => {
    for (const seed of [0, 7, -1, 2147483647, -2147483648]) {
      const o = order(n, seed);
      expect([...o].sort((a, b) => a - b)).toEqual(range(n));
    }
  });

  it('is a permutation at library size', () => {
    const n = 100_003;
    const seen = new Uint8Array(n);
    const at = shuffler(n, 12345);
    let bad = 0;
    for (let i = 0; i < n; i++) {
      const j = at(i);
      if (!(j >= 0 && j < n) || seen[j]) bad++;
      else seen[j] = 1;
    }
    expect(bad).toBe(0);
  });

  it('gives the same order for the same seed', () => {
    expect(order(500, 42)).toEqual(order(500, 42));
  });

  it('gives different orders for different seeds, and actually shuffles', () => {
    const orders = new Set([0, 1, 2, 3, 7, 42, -5].map((seed) => order(200, seed).join(',')));
    expect(orders.size).toBe(7);
    for (const seed of [0, 1, 7]) expect(order(200, seed)).not.toEqual(range(200));
  });

  it('pages computed independently (one request each) join into the whole order without overlap', () => {
    const n = 347;
    const pageSize = 12;
    const pages: number[] = [];
    for (let offset = 0; offset < n; offset += pageSize) {
      const at = shuffler(n, 99); // a fresh shuffler per page, as each request builds its own
      for (let i = offset; i < Math.min(offset + pageSize, n); i++) pages.push(at(i));
    }
    expect(pages).toEqual(order(n, 99));
    expect(new Set(pages).size).toBe(n);
  });

  it('keeps its order (a change reorders the shuffles clients are paging through)', () => {
    expect(order(10, 7)).toEqual(PINNED_10_SEED_7);
    expect(order(20, 1).slice(0, 8)).toEqual(PINNED_20_SEED_1);
  });
});

// orders this shuffle gives; any change to the permutation changes them
const PINNED_10_SEED_7 = [4, 6, 9, 5, 1, 3, 2, 0, 8, 7];
const PINNED_20_SEED_1 = [3, 18, 5, 13, 8, 14, 11, 2];
