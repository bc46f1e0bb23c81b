import type { RouteModule } from './types.js';
import { requireActor } from '../middleware/auth.js';

type Body = Record<string, unknown>;
const bodyOf = (body: unknown): Body => (body && typeof body === 'object' && !Array.isArray(body) ? (body as Body) : {});

/**
 * Library folders of the admin dashboard: list, add (alias + absolute path), delete, cover folder.
 * Admin only; every bad input is a 4xx `{ error }` and changes nothing.
 */
export const folderRoutes: RouteModule = (router, { folders }) => {
  router.get('/config/folders', async (ctx) => {
    ctx.body = await folders.view(requireActor(ctx));
  });

  router.post('/config/folders', async (ctx) => {
    ctx.body = await folders.add(requireActor(ctx), bodyOf(ctx.request.body));
  });

  router.delete('/config/folders', async (ctx) => {
    const body = bodyOf(ctx.request.body);
    const name = body.name ?? ctx.query.name;
    ctx.body = await folders.remove(requireActor(ctx), { name });
  });

  router.put('/config/folders/cover', async (ctx) => {
    ctx.body = await folders.setCover(requireActor(ctx), bodyOf(ctx.request.body));
  });
};
