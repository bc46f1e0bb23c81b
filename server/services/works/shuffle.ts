function mix32(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

/**
 * A pseudo-random permutation of [0, n) chosen by `seed` (a 4-round Feistel network with cycle
 * walking): position i of the shuffled list is `permute(i)` of the base list, so any page of a
 * shuffle is computed without materialising it, and the order is the same for every page of a seed.
 */
export function shuffler(n: number, seed: number): (i: number) => number {
  let bits = 2;
  while (2 ** bits < n) bits += 2;
  const size = 2 ** (bits / 2);
  const keys = [0, 1, 2, 3].map((r) => mix32(mix32(seed ^ 0x9e3779b9) + r * 0x632be5ab));
  return (i: number) => {
    let x = i;
    do {
      let left = Math.floor(x / size);
      let right = x % size;
      for (const k of keys) {
        const f = mix32(right ^ k) % size;
        const next = (left + f) % size;
        left = right;
        right = next;
      }
      x = left * size + right;
    } while (x >= n);
    return x;
  };
}
