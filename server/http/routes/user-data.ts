import type { RouteModule } from './types.js';
import { requireActor } from '../middleware/auth.js';
import { validate } from '../validate.js';
import { USER_DATA_LIMITS, UserDataService } from '../../services/user-data-service.js';
import { deleteReviewQuery, reviewBody } from '../../contract/requests/user-data.js';
import { route } from '../route-policy.js';
import { KB } from '../limits.js';

/** Ratings, reviews, progress and play history (docs/API.md#reviews-ratings-and-progress, docs/API.md#play-history).
 * Spelling `histroy` is kikoeru's. */
export const userDataRoutes: RouteModule = (router, { userData }) => {
  router.put('/review', route({ summary: '设置评分、评价或收听进度', body: reviewBody, bodyLimit: 64 * KB, writePaced: true }), async (ctx) => {
    const body = validate(reviewBody, ctx.request.body ?? {}, 'body');
    ctx.body = { message: await userData.putReview(requireActor(ctx), UserDataService.mode(ctx.query), body) };
  });

  router.delete('/review', route({ summary: '删除评价标记（work_id 也可在请求体中）', query: deleteReviewQuery }), async (ctx) => {
    const { work_id } = validate(deleteReviewQuery, { work_id: ctx.query.work_id ?? (ctx.request.body as { work_id?: unknown } | undefined)?.work_id });
    await userData.deleteReview(requireActor(ctx), work_id);
    ctx.body = { message: '删除标记成功' };
  });

  // the player's whole queue travels in the state: a body over the state's cap (plus the envelope) is
  // refused from its Content-Length, before a byte is read or parsed; what is stored is paced per user
  router.put('/histroy', route({ summary: '保存一部作品的播放状态（work_id、state）', bodyLimit: USER_DATA_LIMITS.stateBytes + 8 * KB, writePaced: true }), async (ctx) => {
    await userData.putHistory(requireActor(ctx), ctx.request.body);
    ctx.body = { message: '更新历史成功' };
  });

  router.delete('/histroy', route({ summary: '删除一部作品的播放历史（work_id）' }), async (ctx) => {
    const body = (ctx.request.body ?? {}) as { work_id?: unknown };
    await userData.deleteHistory(requireActor(ctx), body.work_id ?? ctx.query.work_id);
    ctx.body = { message: '删除历史记录成功' };
  });
};
