import { describe, expect, it } from 'vitest';
import { VersionMemo } from '../../server/services/caches/version-memo.js';

/** A loader that knows even keys only and records each batch it was asked for. */
function evensLoader() {
  const batches: number[][] = [];
  const load = async (missing: number[]) => {
    batches.push(missing);
    return new Map(missing.filter((k) => k % 2 === 0).map((k) => [k, `v${k}`]));
  };
  return { batches, load };
}

describe('VersionMemo', () => {
  it('loads only the keys it does not hold, once each, in one batch', async () => {
    const memo = new VersionMemo<string>(100);
    const { batches, load } = evensLoader();
    expect([...(await memo.getMany(1, [2, 4, 2], load))]).toEqual([
      [2, 'v2'],
      [4, 'v4'],
    ]);
    expect([...(await memo.getMany(1, [4, 6, 2], load))]).toEqual([
      [4, 'v4'],
      [6, 'v6'],
      [2, 'v2'],
    ]);
    expect(batches).toEqual([[2, 4], [6]]);
  });

  it('remembers a key the loader did not answer as absent', async () => {
    const memo = new VersionMemo<string>(100);
    const { batches, load } = evensLoader();
    expect((await memo.getMany(1, [3], load)).size).toBe(0);
    expect((await memo.getMany(1, [3], load)).size).toBe(0);
    expect(batches).toEqual([[3]]);
  });

  it('starts over under another version', async () => {
    const memo = new VersionMemo<string>(100);
    const { batches, load } = evensLoader();
    await memo.getMany(1, [2], load);
    await memo.getMany(2, [2], load);
    expect(batches).toEqual([[2], [2]]);
  });

  it('starts over once it holds more than its limit', async () => {
    const memo = new VersionMemo<string>(2);
    const { batches, load } = evensLoader();
    await memo.getMany(1, [2, 4, 6], load);
    await memo.getMany(1, [2], load);
    expect(batches).toEqual([[2, 4, 6], [2]]);
  });
});
