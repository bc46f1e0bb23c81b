import { describe, expect, it } from 'vitest';
import { WritePace } from '../../server/http/write-pace.js';

const KB = 1024;

function clock(start = 1_000_000) {
  const c = { t: start, now: () => c.t };
  return c;
}

describe('WritePace (per-user pace of stored bytes)', () => {
  const limits = { bytesPerSecond: 64 * KB, burstBytes: 1024 * KB, maxWaitMs: 5000 };

  it('lets a burst through at once, then spaces writes at the rate', () => {
    const c = clock();
    const pace = new WritePace(limits, c.now);
    // 4 × 256 KB = the burst: no wait
    for (let i = 0; i < 4; i++) expect(pace.book(1, 256 * KB)).toEqual({ waitMs: 0 });
    // the next 64 KB waits one second, the one after two
    expect(pace.book(1, 64 * KB)).toEqual({ waitMs: 1000 });
    expect(pace.book(1, 64 * KB)).toEqual({ waitMs: 2000 });
  });

  it('refuses a write that would wait longer than maxWaitMs, and does not book it', () => {
    const c = clock();
    const pace = new WritePace(limits, c.now);
    pace.book(1, 1024 * KB);
    // 256 KB after a spent burst would wait 4 s: booked; another 256 KB would wait 8 s: refused
    expect(pace.book(1, 256 * KB)).toEqual({ waitMs: 4000 });
    expect(pace.book(1, 256 * KB)).toEqual({ refused: true, retryAfterMs: 3000 });
    // the refusal booked nothing: 64 KB still fits within the wait
    expect(pace.book(1, 64 * KB)).toEqual({ waitMs: 5000 });
  });

  it('comes back to rest as time passes', () => {
    const c = clock();
    const pace = new WritePace(limits, c.now);
    pace.book(1, 1024 * KB);
    expect(pace.book(1, 64 * KB)).toEqual({ waitMs: 1000 });
    c.t += 17_000; // 16 s for the burst and 1 s for the 64 KB
    expect(pace.book(1, 1024 * KB)).toEqual({ waitMs: 0 });
  });

  it('keeps users apart', () => {
    const c = clock();
    const pace = new WritePace(limits, c.now);
    pace.book(1, 1024 * KB);
    expect(pace.book(1, 256 * KB)).toEqual({ waitMs: 4000 });
    expect(pace.book(2, 256 * KB)).toEqual({ waitMs: 0 });
  });

  it('with an infinite burst never waits', () => {
    const pace = new WritePace({ ...limits, burstBytes: Infinity });
    for (let i = 0; i < 100; i++) expect(pace.book(1, 256 * KB)).toEqual({ waitMs: 0 });
  });
});
