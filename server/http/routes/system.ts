import type { RouteModule } from './types.js';
import { requireActor } from '../middleware/auth.js';
import { route } from '../route-policy.js';
import { KB } from '../limits.js';

export const systemRoutes: RouteModule = (router, { config, system }) => {
  /** Public: monitors and reverse proxies call it without a token (and a token sent along is ignored). */
  router.get('/health', route({ access: 'public' }), (ctx) => {
    ctx.type = 'text/plain';
    ctx.body = 'OK';
  });

  router.get('/version', async (ctx) => {
    ctx.body = await system.version();
  });

  router.get('/config/shared', (ctx) => {
    ctx.body = { sharedConfig: config.shared() };
  });

  router.get('/config/admin', (ctx) => {
    ctx.body = { config: config.adminView(requireActor(ctx)) };
  });

  router.put('/config/admin', route({ bodyLimit: 256 * KB }), (ctx) => {
    const { config: next, message, restartRequired } = config.update(requireActor(ctx), ctx.request.body);
    ctx.body = { config: next, message, restartRequired };
  });
};
