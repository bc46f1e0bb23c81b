import { describe, expect, it } from 'vitest';
import { SingleFlight } from '../../server/services/caches/single-flight.js';

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('SingleFlight', () => {
  it('runs one computation per key; concurrent callers share its result', async () => {
    const flight = new SingleFlight();
    const d = deferred<number>();
    let runs = 0;
    const fn = () => {
      runs++;
      return d.promise;
    };
    const a = flight.run('k', fn);
    const b = flight.run('k', fn);
    const other = flight.run('other', async () => 2);
    d.resolve(1);
    expect(await Promise.all([a, b, other])).toEqual([1, 1, 2]);
    expect(runs).toBe(1);
  });

  it('runs again once the computation has settled, also after a failure', async () => {
    const flight = new SingleFlight();
    let runs = 0;
    await expect(
      flight.run('k', async () => {
        runs++;
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await flight.run('k', async () => ++runs)).toBe(2);
    expect(await flight.run('k', async () => ++runs)).toBe(3);
  });

  it('shares a failure with every concurrent caller', async () => {
    const flight = new SingleFlight();
    const d = deferred<number>();
    const a = flight.run('k', () => d.promise);
    const b = flight.run('k', async () => 5);
    d.reject(new Error('down'));
    await expect(a).rejects.toThrow('down');
    await expect(b).rejects.toThrow('down');
  });
});
