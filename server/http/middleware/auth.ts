import type { Context } from 'koa';
import type { Actor } from '../../auth/roles.js';
import { isAdmin, canWrite } from '../../auth/roles.js';
import { forbidden, unauthorized } from '../../domain/errors.js';
import type { UsersService } from '../../services/users-service.js';
import { isWorkerToken, type WorkerIdentity } from '../../services/worker-tokens-service.js';
import type { RoutePolicy } from '../route-policy.js';

declare module 'koa' {
  interface DefaultState {
    requestId?: string;
    actor?: Actor | null;
    authEnabled?: boolean;
    /** Set when a worker token authenticated one of the worker endpoints. */
    worker?: WorkerIdentity | null;
  }
}

export interface WorkerAuthenticator {
  authenticate(token: string): Promise<WorkerIdentity>;
}

/** Checks the credentials of a Subsonic request (the `/rest` routes). */
export interface SubsonicAuthenticator {
  authenticate(credentials: Record<string, string | undefined>, address: string): Promise<Actor>;
}

export interface AccessDeps {
  users: UsersService;
  authEnabled: () => boolean;
  workers: WorkerAuthenticator;
  /** Only on the `/rest` router. */
  subsonic?: SubsonicAuthenticator;
}

/** A parameter of a Subsonic request: the query string's, else the form body's (first value). */
export function subsonicParam(ctx: Context, name: string): string | undefined {
  const pick = (v: unknown) => (Array.isArray(v) ? (v[0] as unknown) : v);
  const q = pick(ctx.query[name]);
  if (typeof q === 'string') return q;
  const body = ctx.request.body;
  const b = body && typeof body === 'object' ? pick((body as Record<string, unknown>)[name]) : undefined;
  return typeof b === 'string' ? b : undefined;
}

/**
 * The token of a request: the Authorization header, or `?token=` where the route allows it (media
 * elements, images, downloads, lyric lookups — the only routes that also take a media-scope token).
 */
export function bearerToken(ctx: Context, allowQuery: boolean): string | null {
  const header = ctx.get('Authorization');
  const m = /^Bearer\s+(.+)$/i.exec(header);
  if (m && m[1].trim() && m[1].trim() !== 'null' && m[1].trim() !== 'undefined') return m[1].trim();
  if (allowQuery && typeof ctx.query.token === 'string' && ctx.query.token) return ctx.query.token;
  return null;
}

/**
 * The access check of one route, by the policy it declared (run before its body is read). Sets
 * `ctx.state.actor` (and `ctx.state.worker` on worker routes); anything the policy does not let in is a
 * 401. With auth off every request acts as the admin. Public routes never look at a token:
 * a stale or malformed one must not refuse a login or a health check.
 */
export async function checkAccess(ctx: Context, policy: RoutePolicy, deps: AccessDeps): Promise<void> {
  ctx.state.authEnabled = deps.authEnabled();
  ctx.state.actor = null;
  ctx.state.worker = null;
  if (policy.access === 'public') return;
  if (!ctx.state.authEnabled) {
    ctx.state.actor = await deps.users.anonymousAdmin();
    return;
  }
  if (policy.access === 'subsonic') {
    // only Subsonic credentials here: a login token or worker token is not looked at
    if (!deps.subsonic) throw new Error('a subsonic route outside the /rest router');
    const credentials = Object.fromEntries(['apiKey', 'u', 'p', 't', 's'].map((k) => [k, subsonicParam(ctx, k)]));
    ctx.state.actor = await deps.subsonic.authenticate(credentials, ctx.ip);
    return;
  }
  // Token kinds a route accepts follow from its policy: worker tokens only where `access` is
  // 'worker'; a token scoped to media (for URLs) belongs with `policy.queryToken`.
  const token = bearerToken(ctx, policy.queryToken);
  if (!token) throw unauthorized('No authorization token was found', { code: 'TOKEN_MISSING' });
  if (isWorkerToken(token)) {
    const worker = await deps.workers.authenticate(token);
    if (policy.access !== 'worker') {
      throw unauthorized('工作节点令牌只能用于转写任务接口 (/api/lyric/translate/acquire|status|get|download|finish)', { code: 'WORKER_TOKEN_ONLY' });
    }
    ctx.state.worker = worker;
    return;
  }
  // a media-scope token (short-lived, for URLs) only where `?token=` is accepted
  ctx.state.actor = await deps.users.authenticate(token, { allowMediaScope: policy.queryToken });
}

export function requireActor(ctx: Context): Actor {
  const actor = ctx.state.actor;
  if (!actor) throw unauthorized('No authorization token was found', { code: 'TOKEN_MISSING' });
  return actor;
}

export function requireAdmin(ctx: Context, message = '只有管理员能进行此操作.'): Actor {
  const actor = requireActor(ctx);
  if (!isAdmin(actor)) throw forbidden(message, { code: 'ADMIN_ONLY' });
  return actor;
}

export function requireWriter(ctx: Context): Actor {
  const actor = requireActor(ctx);
  if (!canWrite(actor)) throw forbidden('游客账号只能浏览和播放，不能进行此操作.', { code: 'GUEST_READ_ONLY' });
  return actor;
}
