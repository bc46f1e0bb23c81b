import type { Context, Next } from 'koa';
import type { Actor } from '../../auth/roles.js';
import { isAdmin, canWrite } from '../../auth/roles.js';
import { forbidden, unauthorized } from '../../domain/errors.js';
import type { UsersService } from '../../services/users-service.js';

declare module 'koa' {
  interface DefaultState {
    requestId?: string;
    actor?: Actor | null;
    authEnabled?: boolean;
  }
}

/** Paths where `?token=` may stand in for the Authorization header (media elements, images, downloads). */
const QUERY_TOKEN_PATHS = /^\/api\/(media|cover)\//;

export function bearerToken(ctx: Context, allowQuery: boolean): string | null {
  const header = ctx.get('Authorization');
  const m = /^Bearer\s+(.+)$/i.exec(header);
  if (m && m[1].trim() && m[1].trim() !== 'null' && m[1].trim() !== 'undefined') return m[1].trim();
  if (allowQuery && typeof ctx.query.token === 'string' && ctx.query.token) return ctx.query.token;
  return null;
}

/**
 * Resolves `ctx.state.actor`. With auth off every request acts as the admin (spec §6).
 * With auth on, a missing token leaves the actor null (routes decide); a bad token is a 401.
 */
export function authContext(users: UsersService, authEnabled: () => boolean) {
  return async (ctx: Context, next: Next) => {
    ctx.state.authEnabled = authEnabled();
    if (!ctx.path.startsWith('/api/')) return next();
    if (!ctx.state.authEnabled) {
      ctx.state.actor = await users.anonymousAdmin();
      return next();
    }
    const token = bearerToken(ctx, QUERY_TOKEN_PATHS.test(ctx.path));
    ctx.state.actor = token ? await users.authenticate(token) : null;
    return next();
  };
}

export function requireActor(ctx: Context): Actor {
  const actor = ctx.state.actor;
  if (!actor) throw unauthorized('No authorization token was found');
  return actor;
}

export function requireAdmin(ctx: Context, message = '只有管理员能进行此操作.'): Actor {
  const actor = requireActor(ctx);
  if (!isAdmin(actor)) throw forbidden(message);
  return actor;
}

export function requireWriter(ctx: Context): Actor {
  const actor = requireActor(ctx);
  if (!canWrite(actor)) throw forbidden('游客账号只能浏览和播放，不能进行此操作.');
  return actor;
}

/** Guard for every /api route except the public ones: a token is needed when auth is on. */
export function requireLogin(publicPaths: (path: string, method: string) => boolean) {
  return async (ctx: Context, next: Next) => {
    if (ctx.path.startsWith('/api/') && !publicPaths(ctx.path, ctx.method)) requireActor(ctx);
    return next();
  };
}
