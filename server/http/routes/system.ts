import type { RouteModule } from './types.js';
import { requireActor } from '../middleware/auth.js';

export const systemRoutes: RouteModule = (router, { config, system }) => {
  router.get('/health', (ctx) => {
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

  router.put('/config/admin', (ctx) => {
    const { config: next, message, restartRequired } = config.update(requireActor(ctx), ctx.request.body);
    ctx.body = { config: next, message, restartRequired };
  });
};
