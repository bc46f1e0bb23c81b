import { setTimeout as sleep } from 'node:timers/promises';
import type { Context } from 'koa';
import { AppError } from '../domain/errors.js';
import { hasBody } from './body.js';

export const WRITE_PACE_MESSAGE = '保存过于频繁，请稍后再试';

/** Users remembered at most; the one that wrote longest ago goes first (its pace is long back to rest). */
const MAX_KEYS = 10_000;

export interface WritePaceLimits {
  /** Steady rate at which one user's stored bytes are accepted. */
  bytesPerSecond: number;
  /** What a user at rest may store at once before the rate applies. */
  burstBytes: number;
  /** The longest a write waits for its turn; one that would wait longer is refused after waiting this long. */
  maxWaitMs: number;
}

/**
 * How fast each user may have the server store bytes (play states, reviews): a burst, then a steady rate
 * (the generic cell rate algorithm: one "due" time per user, nothing per request). A write over the pace
 * waits its turn; one that would wait more than `maxWaitMs` is answered 429 after waiting that long. So a
 * client that waits for its answers is slowed to the pace whatever it sends, and refusals cannot be asked
 * for faster than one per `maxWaitMs` per connection.
 */
export class WritePace {
  private readonly due = new Map<number, number>();

  constructor(
    private readonly limits: WritePaceLimits,
    private readonly now: () => number = Date.now,
  ) {}

  /** Book a write of `bytes` for `user`: how long to wait before it goes ahead, or a refusal (`retryAfterMs`). */
  book(user: number, bytes: number): { waitMs: number } | { refused: true; retryAfterMs: number } {
    const { bytesPerSecond, burstBytes, maxWaitMs } = this.limits;
    const now = this.now();
    const cost = (bytes / bytesPerSecond) * 1000;
    const tolerance = (burstBytes / bytesPerSecond) * 1000;
    const next = Math.max(this.due.get(user) ?? now, now) + cost;
    const wait = next - tolerance - now;
    if (wait > maxWaitMs) return { refused: true, retryAfterMs: wait - maxWaitMs };
    this.due.delete(user);
    this.due.set(user, next);
    if (this.due.size > MAX_KEYS) this.due.delete(this.due.keys().next().value as number);
    return { waitMs: Number.isFinite(wait) ? Math.max(0, wait) : 0 };
  }

  /**
   * The HTTP side: before a byte of the request's body is read, book its declared size (or the route's
   * limit for a chunked body; an oversized one is left to the body reader's 413) and wait the turn.
   */
  async admit(ctx: Context, user: number, bodyLimit: number): Promise<void> {
    if (!hasBody(ctx.req)) return;
    const length = ctx.req.headers['content-length'];
    const declared = length !== undefined ? Number(length) : bodyLimit;
    if (!(declared <= bodyLimit)) return;
    const booked = this.book(user, declared);
    if ('refused' in booked) {
      await sleep(this.limits.maxWaitMs);
      throw new AppError('too_many_requests', WRITE_PACE_MESSAGE, { code: 'WRITE_PACE', headers: { 'Retry-After': String(Math.max(1, Math.ceil(booked.retryAfterMs / 1000))) } });
    }
    if (booked.waitMs > 0) await sleep(booked.waitMs);
  }
}
