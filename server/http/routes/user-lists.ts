import type { Context, Next } from 'koa';
import type { RouteModule } from './types.js';
import { requireActor } from '../middleware/auth.js';
import { validate } from '../validate.js';
import { historyListQuery, reviewListQuery } from '../../contract/requests/user-lists.js';
import { route } from '../route-policy.js';

/** "My ratings / my progress" and play history lists (docs/API.md#reviews-ratings-and-progress, docs/API.md#play-history). */
export const userListRoutes: RouteModule = (router, { userLists }) => {
  router.get('/review', route({ summary: '我的评价与收听进度', query: reviewListQuery }), async (ctx) => {
    const actor = requireActor(ctx);
    ctx.body = await userLists.reviews(actor, validate(reviewListQuery, ctx.query));
  });

  router.get('/histroy', route({ summary: '我的播放历史', query: historyListQuery }), async (ctx) => {
    const actor = requireActor(ctx);
    ctx.body = await userLists.history(actor, validate(historyListQuery, ctx.query));
  });
};

/** `/favourites/api/review`, `/favourites/progress/listening/api/histroy`, … */
const RELATIVE_FAVOURITES_API = /^\/favourites(?:\/[^/]+)*\/api\/(review|histroy)\/?$/;

/**
 * The favourites pages of the kikoeru web client request the relative URL `api/review` (and
 * `api/histroy`), which resolves under the page's own path (docs/API.md#play-history). Such GETs are answered as `/api/review` / `/api/histroy`. Mounted before the SPA fallback, which
 * would otherwise answer them with the app's HTML.
 */
export function favouritesApiAlias() {
  return async (ctx: Context, next: Next) => {
    if (ctx.method === 'GET' || ctx.method === 'HEAD') {
      const m = RELATIVE_FAVOURITES_API.exec(ctx.path);
      if (m) ctx.path = `/api/${m[1]}`;
    }
    return next();
  };
}
