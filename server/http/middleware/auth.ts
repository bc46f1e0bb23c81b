import type { Context, Next } from 'koa';
import type { Actor } from '../../auth/roles.js';
import { isAdmin, canWrite } from '../../auth/roles.js';
import { forbidden, unauthorized } from '../../domain/errors.js';
import type { UsersService } from '../../services/users-service.js';
import { isWorkerToken, type WorkerIdentity } from '../../services/worker-tokens-service.js';

declare module 'koa' {
  interface DefaultState {
    requestId?: string;
    actor?: Actor | null;
    authEnabled?: boolean;
    /** Set when a worker token authenticated one of the worker endpoints. */
    worker?: WorkerIdentity | null;
  }
}

/** The five AI worker endpoints: the only routes a worker token reaches (api-contract §4.11). */
export const WORKER_PATHS = /^\/api\/lyric\/translate\/(acquire|status|get|download|finish)\/?$/;

export interface WorkerAuthenticator {
  authenticate(token: string): Promise<WorkerIdentity>;
}

/**
 * A worker token: on a worker endpoint it sets `ctx.state.worker`; `GET /api/auth/me` answers 200 (the
 * Python worker's login check); anywhere else it is a 401. Returns true when the response is complete.
 */
async function workerTokenAuth(ctx: Context, token: string, workers: WorkerAuthenticator | undefined): Promise<boolean> {
  if (!workers) throw unauthorized('工作节点令牌无效或已被撤销');
  if (WORKER_PATHS.test(ctx.path)) {
    ctx.state.worker = await workers.authenticate(token);
    ctx.state.actor = null;
    return false;
  }
  if (ctx.path === '/api/auth/me' && ctx.method === 'GET') {
    const worker = await workers.authenticate(token);
    ctx.body = { user: { name: worker.name, group: 'worker', role: 'worker' }, auth: true };
    return true;
  }
  await workers.authenticate(token);
  throw unauthorized('工作节点令牌只能用于转写任务接口 (/api/lyric/translate/acquire|status|get|download|finish)');
}

/**
 * Paths where `?token=` may stand in for the Authorization header (media elements, images, downloads),
 * and the only ones that accept a media token (in the query or the header).
 */
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
export function authContext(users: UsersService, authEnabled: () => boolean, workers?: WorkerAuthenticator) {
  return async (ctx: Context, next: Next) => {
    ctx.state.authEnabled = authEnabled();
    if (!ctx.path.startsWith('/api/')) return next();
    if (!ctx.state.authEnabled) {
      ctx.state.actor = await users.anonymousAdmin();
      return next();
    }
    const mediaRoute = QUERY_TOKEN_PATHS.test(ctx.path);
    const token = bearerToken(ctx, mediaRoute);
    if (token && isWorkerToken(token)) {
      if (await workerTokenAuth(ctx, token, workers)) return;
      return next();
    }
    ctx.state.actor = token ? await users.authenticate(token, { allowMediaScope: mediaRoute }) : null;
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
    if (ctx.path.startsWith('/api/') && !publicPaths(ctx.path, ctx.method) && !ctx.state.worker) requireActor(ctx);
    return next();
  };
}
