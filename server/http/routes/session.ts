import type { RouteModule } from './types.js';
import { groupOfRole } from '../../auth/roles.js';
import { bearerToken } from '../middleware/auth.js';
import { unauthorized } from '../../domain/errors.js';

export const sessionRoutes: RouteModule = (router, { users }) => {
  /** Login. Works whether auth is on or off; 422 on short fields, 401 on wrong credentials, 429 when rate limited. */
  router.post('/auth/me', async (ctx) => {
    const body = (ctx.request.body ?? {}) as Record<string, unknown>;
    const { token, user } = await users.login(body.name, body.password, ctx.ip);
    ctx.body = { token, user: { name: user.name, group: user.group, role: user.role } };
  });

  /** Who am I, and is auth on. Only the Authorization header counts here (api-contract §4.2). */
  router.get('/auth/me', async (ctx) => {
    if (!ctx.state.authEnabled) {
      const actor = ctx.state.actor!;
      ctx.body = { user: { name: actor.name, group: groupOfRole(actor.role), role: actor.role }, auth: false };
      return;
    }
    const token = bearerToken(ctx, false);
    if (!token) throw unauthorized('No authorization token was found');
    const actor = await users.authenticate(token);
    ctx.body = { user: { name: actor.name, group: groupOfRole(actor.role), role: actor.role }, auth: true };
  });

  /** Legacy PWA path. */
  router.get('/me', (ctx) => {
    ctx.redirect('/api/auth/me');
  });
};
