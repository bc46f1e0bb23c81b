import { AppError, badRequest } from '../../domain/errors.js';
import { isIndexableTerm, type WorkFilter } from '../../contract/works-query.js';

/**
 * A search whose substring tests run over the whole library: short terms (under 3 characters, which the
 * trigram index cannot serve) and nothing that narrows the candidates — no indexable term, circle, tag,
 * voice actor or product code.
 */
export function isCostlySearch(filter: WorkFilter): boolean {
  return filter.terms.length > 0 && !filter.terms.some(isIndexableTerm) && filter.codeId === null && !filter.circleIds.length && !filter.tagIds.length && !filter.vaIds.length;
}

export interface CostlyRunner {
  /**
   * Run `fn`'s reads on the costly connection, one call at a time, interrupted after `timeoutMs`; `admit`
   * is called at the first read (a call answered from caches reads nothing) and may refuse by throwing; a
   * call whose turn does not come within `waitMs` rejects with an error named `CostlyBusyError`.
   */
  costly<T>(timeoutMs: number, fn: () => Promise<T>, admit?: () => void, waitMs?: number): Promise<T>;
}

export interface CostlySearchLimits {
  /** Time one costly search may run (from its turn) before it is interrupted. */
  timeoutMs: number;
  /** Costly searches one user may have waiting or running at once. */
  perUser: number;
  /** Costly searches waiting or running at once, all users together. */
  total: number;
  /** The longest a costly search waits for its turn; then it is a 429 (so no request waits for ever in line). */
  waitMs: number;
}

export const DEFAULT_COSTLY_LIMITS: CostlySearchLimits = { timeoutMs: 2000, perUser: 10, total: 24, waitMs: 5000 };

/**
 * Fairness for costly searches: they run one at a time on a connection of their own (so the readers of
 * every other request stay free), a user may have only a few queued, the queue is bounded in length and
 * in waiting time (429 with Retry-After beyond either), and a search that runs too long is interrupted
 * with a 400 that says how to narrow it.
 */
export class CostlySearchGate {
  private readonly byUser = new Map<string, number>();
  private inFlight = 0;

  constructor(
    private readonly runner: CostlyRunner,
    private readonly limits: CostlySearchLimits = DEFAULT_COSTLY_LIMITS,
  ) {}

  /**
   * Run a costly search. It counts against the limits from its first database read: a search answered from
   * the caches (the same search a moment ago) is neither queued nor refused.
   */
  async run<T>(userKey: string, fn: () => Promise<T>): Promise<T> {
    let admitted = false;
    const admit = () => {
      const mine = this.byUser.get(userKey) ?? 0;
      if (mine >= this.limits.perUser) throw tooMany('你的上一个搜索还在进行中，请稍后再试');
      if (this.inFlight >= this.limits.total) throw tooMany('搜索请求过多，请稍后再试');
      this.byUser.set(userKey, mine + 1);
      this.inFlight++;
      admitted = true;
    };
    try {
      return await this.runner.costly(this.limits.timeoutMs, fn, admit, this.limits.waitMs);
    } catch (err) {
      if ((err as Error).name === 'CostlyBusyError') throw tooMany('搜索请求过多，请稍后再试');
      if ((err as Error).name === 'QueryTimeoutError') {
        throw badRequest('搜索耗时过长已中止：请使用至少 3 个字符的关键词，或加上社团、标签、声优等筛选条件', { code: 'SEARCH_TOO_SLOW' });
      }
      throw err;
    } finally {
      if (admitted) {
        this.inFlight--;
        const left = (this.byUser.get(userKey) ?? 1) - 1;
        if (left > 0) this.byUser.set(userKey, left);
        else this.byUser.delete(userKey);
      }
    }
  }
}

const tooMany = (message: string) => new AppError('too_many_requests', message, { code: 'SEARCH_BUSY', headers: { 'Retry-After': '2' } });
