import type { z } from 'zod';
import type { ApiErrorCode, ErrorParams } from '../domain/error-codes.js';
import { AppError, badRequest, notFound } from '../domain/errors.js';
import { formatWorkCode } from '../domain/work-code.js';
import type { Progress } from '../contract/works.js';
import { historyState, reviewBody, workIdInput } from '../contract/requests/user-data.js';
import { canWrite, type Actor } from '../auth/roles.js';
import { forbidden } from '../domain/errors.js';
import type { ReviewsRepo, ReviewRow } from '../db/repos/reviews-repo.js';
import type { HistoryRepo, HistoryRow } from '../db/repos/history-repo.js';

export type ReviewMode = 'star' | 'progress' | 'full';

/**
 * What one user may store (each past its cap is a 413 and nothing is written): a play state per work,
 * all of the user's play states together, a review text, and all of the user's review texts together.
 */
export const USER_DATA_LIMITS = {
  stateBytes: 256 * 1024,
  historyBytesPerUser: 16 * 1024 * 1024,
  reviewTextChars: 20_000,
  reviewTextBytesPerUser: 4 * 1024 * 1024,
} as const;

const MiB = 1024 * 1024;
const MB = (bytes: number) => `${bytes / MiB} MB`;
export const USER_DATA_MSG = {
  stateTooLarge: `播放状态过大（上限 ${USER_DATA_LIMITS.stateBytes / 1024} KB）`,
  historyFull: `播放历史已达上限（每个用户 ${MB(USER_DATA_LIMITS.historyBytesPerUser)}），请删除部分播放历史后再试`,
  reviewTooLong: `评价内容过长（上限 ${USER_DATA_LIMITS.reviewTextChars} 个字符）`,
  reviewsFull: `评价内容已达上限（每个用户 ${MB(USER_DATA_LIMITS.reviewTextBytesPerUser)}），请删除或缩短部分评价后再试`,
} as const;

const tooLarge = (message: string, code: ApiErrorCode, params: ErrorParams) => new AppError('payload_too_large', message, { code, params });

function text(message: string, reason: string): string {
  return `${message}: ${reason}`;
}

export class UserDataService {
  constructor(
    private readonly reviews: ReviewsRepo,
    private readonly history: HistoryRepo,
  ) {}

  private writer(actor: Actor): Actor {
    if (!canWrite(actor)) throw forbidden('游客账号只能浏览和播放，不能进行此操作.', { code: 'GUEST_READ_ONLY' });
    return actor;
  }

  private async existingWork(id: number): Promise<void> {
    if (!(await this.reviews.workExists(id))) throw notFound(`作品 ${formatWorkCode(id)} 不存在`, { code: 'WORK_NOT_FOUND', params: { work: formatWorkCode(id) } });
  }

  /** Mode from the query flags, as the kikoeru clients send them. */
  static mode(query: { starOnly?: unknown; progressOnly?: unknown }): ReviewMode {
    const starOnly = String(query.starOnly ?? '').toLowerCase();
    const progressOnly = String(query.progressOnly ?? '').toLowerCase();
    if (starOnly !== 'false') return 'star';
    return progressOnly === 'true' ? 'progress' : 'full';
  }

  /** PUT /api/review. Returns the message the clients show. */
  async putReview(actor: Actor, mode: ReviewMode, body: z.infer<typeof reviewBody>): Promise<string> {
    this.writer(actor);
    await this.existingWork(body.work_id);
    const prog = (p: Progress | '' | null | undefined): Progress | null => (p ? p : null);
    if (mode === 'star') {
      if (body.rating === undefined) throw badRequest(text('评价失败', '缺少 rating（1–5 或 null）'), { code: 'RATING_REQUIRED', field: 'rating' });
      await this.reviews.upsert(actor.id, body.work_id, { rating: body.rating });
      return '评价成功';
    }
    if (mode === 'progress') {
      await this.reviews.upsert(actor.id, body.work_id, { progress: prog(body.progress) });
      return '更新进度成功';
    }
    if (body.rating === undefined) throw badRequest(text('评价失败', '缺少 rating（1–5 或 null）'), { code: 'RATING_REQUIRED', field: 'rating' });
    const reviewText = body.review_text ?? '';
    if (reviewText.length > USER_DATA_LIMITS.reviewTextChars) throw tooLarge(USER_DATA_MSG.reviewTooLong, 'REVIEW_TOO_LONG', { chars: USER_DATA_LIMITS.reviewTextChars });
    const stored = await this.reviews.upsert(actor.id, body.work_id, { rating: body.rating, review_text: reviewText, progress: prog(body.progress) }, USER_DATA_LIMITS.reviewTextBytesPerUser);
    if (!stored) throw tooLarge(USER_DATA_MSG.reviewsFull, 'REVIEWS_FULL', { mb: USER_DATA_LIMITS.reviewTextBytesPerUser / MiB });
    return '评价成功';
  }

  async deleteReview(actor: Actor, id: number): Promise<void> {
    this.writer(actor);
    await this.reviews.delete(actor.id, id);
  }

  review(actor: Actor, id: number): Promise<ReviewRow | undefined> {
    return this.reviews.get(actor.id, id);
  }

  reviewPage(actor: Actor, opts: { filter?: Progress; order: string; sort: 'asc' | 'desc'; page: number; pageSize: number }) {
    return this.reviews.page(actor.id, { ...opts, offset: (opts.page - 1) * opts.pageSize, limit: opts.pageSize });
  }

  /** PUT /api/histroy: the state is stored verbatim (as sent) after a shape check. */
  async putHistory(actor: Actor, body: unknown): Promise<void> {
    this.writer(actor);
    const b = (body ?? {}) as { work_id?: unknown; state?: unknown };
    const id = workIdInput.safeParse(b.work_id);
    if (!id.success) throw badRequest('参数 work_id 无效: 需要作品的数字 id', { code: 'FIELD_INVALID', field: 'work_id' });
    const state = historyState.safeParse(b.state);
    if (!state.success) {
      const issue = state.error.issues[0];
      throw badRequest(`参数 state 无效: ${issue.path.length ? `state.${issue.path.join('.')} ` : ''}${issue.message}（需要 { queue: [], index: 整数, seconds: 数字 }）`, {
        code: 'FIELD_INVALID',
        field: 'state',
      });
    }
    const json = JSON.stringify(b.state);
    if (Buffer.byteLength(json) > USER_DATA_LIMITS.stateBytes) throw tooLarge(USER_DATA_MSG.stateTooLarge, 'STATE_TOO_LARGE', { kb: USER_DATA_LIMITS.stateBytes / 1024 });
    await this.existingWork(id.data);
    if (!(await this.history.upsert(actor.id, id.data, json, USER_DATA_LIMITS.historyBytesPerUser)))
      throw tooLarge(USER_DATA_MSG.historyFull, 'HISTORY_FULL', { mb: USER_DATA_LIMITS.historyBytesPerUser / MiB });
  }

  async deleteHistory(actor: Actor, rawId: unknown): Promise<void> {
    this.writer(actor);
    const id = workIdInput.safeParse(rawId);
    if (!id.success) throw badRequest('参数 work_id 无效: 需要作品的数字 id', { code: 'FIELD_INVALID', field: 'work_id' });
    await this.history.delete(actor.id, id.data);
  }

  historyOf(actor: Actor, id: number): Promise<HistoryRow | undefined> {
    return this.history.get(actor.id, id);
  }

  historyPage(actor: Actor, opts: { sort: 'asc' | 'desc'; page: number; pageSize: number }) {
    return this.history.page(actor.id, { sort: opts.sort, offset: (opts.page - 1) * opts.pageSize, limit: opts.pageSize });
  }
}
