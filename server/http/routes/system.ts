import type { RouteModule } from './types.js';
import { requireActor } from '../middleware/auth.js';
import { route } from '../route-policy.js';
import { KB } from '../limits.js';
import { buildOpenApi } from '../openapi.js';

export const systemRoutes: RouteModule = (router, { config, system }) => {
  /** Public: monitors and reverse proxies call it without a token (and a token sent along is ignored). */
  router.get('/health', route({ summary: '健康检查（纯文本 OK）', access: 'public' }), (ctx) => {
    ctx.type = 'text/plain';
    ctx.body = 'OK';
  });

  router.get('/version', route({ summary: '服务器版本' }), async (ctx) => {
    ctx.body = await system.version();
  });

  router.get('/config/shared', route({ summary: '所有用户可见的共享设置' }), (ctx) => {
    ctx.body = { sharedConfig: config.shared() };
  });

  router.get('/config/admin', route({ summary: '读取管理配置', admin: '只有 admin 账号能读取管理配置文件.' }), (ctx) => {
    const actor = requireActor(ctx);
    ctx.body = { config: config.adminView(actor), paths: config.effectivePaths(actor) };
  });

  router.put('/config/admin', route({ summary: '修改管理配置', admin: '只有 admin 账号能修改配置文件.', bodyLimit: 256 * KB }), (ctx) => {
    const actor = requireActor(ctx);
    const { config: next, message, restartRequired } = config.update(actor, ctx.request.body);
    ctx.body = { config: next, message, restartRequired, paths: config.effectivePaths(actor) };
  });

  /** This API as an OpenAPI 3.1 document, built from the router once (its routes are fixed after start). */
  let openApi: string | undefined;
  router.get('/openapi.json', route({ summary: 'API 文档（OpenAPI 3.1，由路由表生成）' }), async (ctx) => {
    openApi ??= JSON.stringify(buildOpenApi(router, { version: (await system.version()).current }));
    ctx.type = 'application/json';
    ctx.body = openApi;
  });
};
