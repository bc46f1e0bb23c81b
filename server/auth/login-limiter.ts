import { isIPv6 } from 'node:net';

/**
 * A brake on password guessing: login attempts per client address and per user name in a sliding
 * window. An attempt is counted when it begins, before any hashing, so parallel guesses are counted
 * while in flight; a failed one stays counted for the window, a successful or abandoned one is
 * removed. In memory: a restart clears it, which is fine for a brute-force brake.
 */
export interface LoginLimits {
  /** Attempts (in flight or failed) per user name, whatever the address. */
  perName: number;
  /** Attempts (in flight or failed) per client address (IPv6: per /64), whatever the name. */
  perAddress: number;
  windowMs: number;
  /**
   * A refused attempt is answered after this pause (the limiter only says so; the caller waits). A
   * guesser that waits for each answer, as scripts do, slows to this pace instead of keeping the
   * server busy writing refusals; a person who was refused waits a moment longer for the message.
   */
  refusalPauseMs: number;
}

export const DEFAULT_LOGIN_LIMITS: LoginLimits = { perName: 10, perAddress: 30, windowMs: 60_000, refusalPauseMs: 1000 };

/** One counted attempt; end it exactly once. */
export interface LoginAttempt {
  /** Wrong credentials: stays counted for the window. */
  failed(): void;
  /** Right credentials, or the attempt never reached a verdict (server busy, error): uncounted. */
  release(): void;
}

/**
 * What counts as one client address: an IPv4 address as it is (also when IPv4-mapped), an IPv6
 * address by its /64 prefix, which one host or household usually holds whole.
 */
export function clientKey(address: string): string {
  const a = address
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/%.*$/, '');
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(a);
  if (mapped) return mapped[1];
  if (!isIPv6(a)) return a.slice(0, 64);
  const [head, tail] = a.split('::');
  const groups = (part: string | undefined) => (part ? part.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g])) : []);
  const front = groups(head);
  const back = groups(tail);
  const all = tail === undefined ? front : [...front, ...Array<string>(8 - front.length - back.length).fill('0'), ...back];
  return `${all
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

/** Keys kept per list at most; the oldest list goes first. */
const MAX_KEYS = 10_000;

export class LoginLimiter {
  private readonly byName = new Map<string, number[]>();
  private readonly byAddress = new Map<string, number[]>();
  readonly limits: LoginLimits;

  constructor(
    limits: Partial<LoginLimits> = {},
    private readonly now: () => number = Date.now,
  ) {
    this.limits = { ...DEFAULT_LOGIN_LIMITS, ...limits };
  }

  /**
   * Count an attempt, or refuse it: `{ retryAfter }` in seconds when the name or the address has
   * used its attempts for the window.
   */
  begin(address: string, name: string): LoginAttempt | { retryAfter: number } {
    const nameKey = name.toLowerCase();
    const addressKey = clientKey(address);
    const names = this.recent(this.byName, nameKey);
    const addresses = this.recent(this.byAddress, addressKey);
    const wait = Math.max(this.wait(names, this.limits.perName), this.wait(addresses, this.limits.perAddress));
    if (wait > 0) return { retryAfter: wait };
    const stamp = this.now();
    this.add(this.byName, nameKey, names, stamp);
    this.add(this.byAddress, addressKey, addresses, stamp);
    let ended = false;
    return {
      failed: () => {
        ended = true;
      },
      release: () => {
        if (ended) return;
        ended = true;
        this.remove(this.byName, nameKey, stamp);
        this.remove(this.byAddress, addressKey, stamp);
      },
    };
  }

  private recent(map: Map<string, number[]>, key: string): number[] {
    const cutoff = this.now() - this.limits.windowMs;
    const list = (map.get(key) ?? []).filter((t) => t > cutoff);
    if (list.length) map.set(key, list);
    else map.delete(key);
    return list;
  }

  private wait(list: number[], max: number): number {
    if (list.length < max) return 0;
    return Math.max(1, Math.ceil((list[list.length - max] + this.limits.windowMs - this.now()) / 1000));
  }

  private add(map: Map<string, number[]>, key: string, list: number[], stamp: number) {
    list.push(stamp);
    map.delete(key);
    map.set(key, list);
    if (map.size > MAX_KEYS) map.delete(map.keys().next().value as string);
  }

  private remove(map: Map<string, number[]>, key: string, stamp: number) {
    const list = map.get(key);
    const at = list?.indexOf(stamp) ?? -1;
    if (!list || at < 0) return;
    list.splice(at, 1);
    if (!list.length) map.delete(key);
  }
}
