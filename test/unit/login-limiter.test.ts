import { describe, expect, it } from 'vitest';
import { clientKey, LoginLimiter } from '../../server/auth/login-limiter.js';

describe('login limiter', () => {
  const clock = () => {
    let now = 1_000_000;
    return { now: () => now, advance: (ms: number) => (now += ms) };
  };

  it('counts an attempt from its start: in flight ones use up the budget, released ones give it back', () => {
    const c = clock();
    const limiter = new LoginLimiter({ perName: 3, perAddress: 100, windowMs: 60_000 }, c.now);
    const attempts = [1, 2, 3].map(() => limiter.begin('10.0.0.1', 'alice'));
    expect(attempts.every((a) => !('retryAfter' in a))).toBe(true);
    expect(limiter.begin('10.0.0.2', 'ALICE')).toEqual({ retryAfter: 60 });
    (attempts[0] as { release(): void }).release();
    const next = limiter.begin('10.0.0.3', 'alice');
    expect('retryAfter' in next).toBe(false);
  });

  it('keeps failures for the window, per name and per address', () => {
    const c = clock();
    const limiter = new LoginLimiter({ perName: 100, perAddress: 2, windowMs: 60_000 }, c.now);
    for (const name of ['alice', 'bobby']) {
      const a = limiter.begin('10.0.0.1', name);
      if ('retryAfter' in a) throw new Error('limited too early');
      a.failed();
      a.release(); // ending twice changes nothing
      c.advance(10_000);
    }
    expect(limiter.begin('10.0.0.1', 'carol')).toEqual({ retryAfter: 40 });
    expect('retryAfter' in limiter.begin('10.0.0.9', 'carol')).toBe(false);
    c.advance(40_001);
    expect('retryAfter' in limiter.begin('10.0.0.1', 'carol')).toBe(false);
  });

  it('takes IPv4 as it is and IPv6 by its /64', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:0DB8:0001:0002:ffff:1:2:3')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKey('[fe80::1%eth0]')).toBe('fe80:0:0:0::/64');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
    expect(clientKey('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
  });
});
