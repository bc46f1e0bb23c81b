import type { Context } from 'koa';
import type { RouteModule } from './types.js';
import { badRequest } from '../../domain/errors.js';
import { validate } from '../validate.js';
import { sendJson, sendJsonText } from '../responses/json-body.js';
import type { ListParams } from '../../contract/works-query.js';
import { listQuerySchema, searchQuerySchema, workIdParams } from '../../contract/requests/works.js';
import { route } from '../route-policy.js';

/**
 * The query as single strings: a parameter given twice (`?page=1&page=2`) is refused instead of
 * guessed. Shared by the work-list routes.
 */
export function singleQuery(ctx: Context): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(ctx.query)) {
    if (Array.isArray(value)) throw badRequest(`参数 ${key} 重复`, { code: 'PARAM_REPEATED' });
    if (value !== undefined) out[key] = value;
  }
  return out;
}

export const listParams = (ctx: Context): ListParams => validate(listQuerySchema, singleQuery(ctx));

/** Work lists, search, detail and file tree (docs/API.md#work-lists-and-search, docs/API.md#work-detail-files-and-covers). */
export const worksRoutes: RouteModule = (router, { works }) => {
  router.get('/works', route({ summary: '作品列表', query: listQuerySchema }), async (ctx) => {
    sendJsonText(ctx, await works.listJson(ctx.state.actor ?? null, listParams(ctx), { kind: 'all' }));
  });

  router.get('/search', route({ summary: '搜索作品（keyword；isAdvance=1 时为 JSON 条件列表）', query: [listQuerySchema, searchQuerySchema] }), async (ctx) => {
    const params = listParams(ctx);
    const q = validate(searchQuerySchema, singleQuery(ctx));
    sendJsonText(ctx, await works.listJson(ctx.state.actor ?? null, params, { kind: 'search', keyword: q.keyword ?? '', advanced: q.isAdvance ?? false }));
  });

  // path form of older kikoeru servers, used by the Android client
  router.get('/search/:keyword', route({ summary: '搜索作品（旧式路径，关键字在路径中）', query: listQuerySchema }), async (ctx) => {
    const params = listParams(ctx);
    sendJsonText(ctx, await works.listJson(ctx.state.actor ?? null, params, { kind: 'search', keyword: String(ctx.params.keyword ?? ''), advanced: false }));
  });

  router.get('/work/:id', route({ summary: '作品详情', params: workIdParams }), async (ctx) => {
    const { id } = validate(workIdParams, ctx.params, 'params');
    sendJson(ctx, await works.detail(ctx.state.actor ?? null, id));
  });

  router.get('/tracks/:id', route({ summary: '作品的文件树', params: workIdParams }), async (ctx) => {
    const { id } = validate(workIdParams, ctx.params, 'params');
    sendJsonText(ctx, await works.tracksJson(id));
  });
};
