import Koa from 'koa';
import type { Router } from '@koa/router';
import compress from 'koa-compress';
import type { AppContext } from '../app/services.js';
import { errorMiddleware } from './middleware/errors.js';
import { requestLog } from './middleware/request-log.js';
import { createApiRouter, enforceRoutePolicies, registerArea, type GuardDeps } from './api-router.js';
import { subsonicErrors, subsonicRoutes } from './routes/subsonic/index.js';
import { subsonicCors } from './middleware/subsonic-cors.js';
import { WritePace } from './write-pace.js';
import { BodyBudget, hasBody } from './body.js';
import { httpLimits, type HttpLimits } from './limits.js';
import { spaMiddleware } from './spa.js';
import { notFound } from '../domain/errors.js';
import { sessionRoutes } from './routes/session.js';
import { userRoutes } from './routes/users.js';
import { systemRoutes } from './routes/system.js';
import type { RouteModule } from './routes/types.js';
import { worksRoutes } from './routes/works.js';
import { labelRoutes } from './routes/labels.js';
import { mediaRoutes } from './routes/media.js';
import { libraryRoutes } from './routes/library.js';
import { userDataRoutes } from './routes/user-data.js';
import { aiLyricsRoutes } from './routes/ai-lyrics.js';
import { lyricsRoutes } from './routes/lyrics.js';
import { editRoutes } from './routes/edit.js';
import { userListRoutes, favouritesApiAlias } from './routes/user-lists.js';
import { folderRoutes } from './routes/folders.js';
import { importRoutes } from './routes/import.js';
import { subsonicAccountRoutes } from './routes/subsonic-account.js';
import { securityHeaders } from './middleware/security-headers.js';
import { sameOriginGuard } from './middleware/same-origin.js';
import { OriginPolicy } from './origin-policy.js';

/** The route modules by area (the API reference's groups, `GET /api/openapi.json`), in registration order. */
const ROUTES: Record<string, RouteModule> = {
  system: systemRoutes,
  session: sessionRoutes,
  users: userRoutes,
  'user-data': userDataRoutes,
  library: libraryRoutes,
  'ai-lyrics': aiLyricsRoutes,
  works: worksRoutes,
  labels: labelRoutes,
  media: mediaRoutes,
  lyrics: lyricsRoutes,
  edit: editRoutes,
  'user-lists': userListRoutes,
  folders: folderRoutes,
  import: importRoutes,
  subsonic: subsonicAccountRoutes,
};

/** The areas' names, in registration order: each needs a heading in the web's API page (dashboard.api.areas). */
export const API_AREAS: readonly string[] = Object.keys(ROUTES);

export interface HttpAppOptions {
  webRoot?: string;
  /** Overrides of the HTTP limits (timeouts, connections, body bytes in flight); tests use small ones. */
  limits?: Partial<HttpLimits>;
  /** The Host / Origin policy (shared with the admin socket); made from the config when absent. */
  originPolicy?: OriginPolicy;
}

/**
 * The API router with every route module registered and each route's policy enforced (access check
 * first, then its body). Exported for the route-table test, which walks `router.stack`.
 */
export function createApiRoutes(app: AppContext, limits: HttpLimits, deps: GuardDeps = guardDeps(app, limits)): Router {
  const router = createApiRouter();
  for (const [area, register] of Object.entries(ROUTES)) registerArea(router, area, () => register(router, app.services));
  enforceRoutePolicies(router, deps);
  return router;
}

/** What the routes' guards share (one body budget and write pace for both routers). */
function guardDeps(app: AppContext, limits: HttpLimits): GuardDeps {
  return {
    users: app.services.users,
    authEnabled: () => app.store.get().auth,
    workers: app.services.workerTokens,
    bodies: new BodyBudget(limits.maxBodyBytesInFlight),
    bodyTimeoutMs: limits.bodyTimeoutMs,
    writePace: new WritePace({ bytesPerSecond: limits.userWriteBytesPerSecond, burstBytes: limits.userWriteBurstBytes, maxWaitMs: limits.userWriteMaxWaitMs }),
  };
}

/**
 * The Subsonic API router (`/rest`, docs/API.md#subsonic-api): every method declared with Subsonic
 * access, enforced like the API's routes. Exported for the route-table test.
 */
export function createSubsonicRoutes(app: AppContext, deps: GuardDeps): Router {
  const router = subsonicRoutes(app.services);
  enforceRoutePolicies(router, { ...deps, subsonic: app.services.subsonicAuth });
  return router;
}

/**
 * Whether an unmatched path is one an API client may have meant (`/API/…`, `//api/…`, `/%61pi/…`,
 * `/./api/…`): those get the API's JSON 404 rather than the web server's.
 */
function looksLikeApi(path: string): boolean {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // a malformed escape: judged as sent
  }
  const segments = decoded.split('/').filter((s) => s !== '' && s !== '.' && s !== '..');
  return segments[0]?.toLowerCase() === 'api';
}

/**
 * A request answered before its body was read (a 401, a 413, a 404) closes its connection: node would
 * otherwise keep receiving and discarding the rest of the body for as long as the client sends it.
 */
async function closeUnreadBodies(ctx: Koa.Context, next: Koa.Next) {
  await next();
  if (hasBody(ctx.req) && !ctx.req.complete) ctx.set('Connection', 'close');
}

export function createHttpApp(app: AppContext, opts: HttpAppOptions = {}): Koa {
  const limits = httpLimits(opts.limits);
  const { behindProxy, trustedProxyHops } = app.store.get();
  // behind proxies the client is the first address from the right of X-Forwarded-For that the
  // trusted proxies did not write themselves; anything further left is the client's own say
  const koa = new Koa({ proxy: behindProxy, maxIpsCount: behindProxy ? trustedProxyHops : 0 });
  koa.silent = true;
  koa.on('error', (err) => app.logger.debug({ err }, 'koa error'));

  koa.use(securityHeaders());
  koa.use(requestLog(app.logger));
  koa.use(closeUnreadBodies);
  koa.use(errorMiddleware(app.logger));
  koa.use(subsonicCors);
  koa.use(sameOriginGuard(opts.originPolicy ?? new OriginPolicy(() => app.store.get()), () => app.store.get().auth));
  if (app.store.get().enableGzip) koa.use(compress({ threshold: 1024 }));
  koa.use(favouritesApiAlias());
  if (opts.webRoot) koa.use(spaMiddleware(opts.webRoot));

  // Each route checks access itself (deny by default) and then reads its body; a path no route
  // matches in its exact spelling is a JSON 404 (or 405) whether or not the caller is logged in.
  const deps = guardDeps(app, limits);
  const router = createApiRoutes(app, limits, deps);
  const rest = createSubsonicRoutes(app, deps);
  koa.use(subsonicErrors);
  koa.use(rest.routes());
  koa.use(router.routes());
  koa.use(router.allowedMethods({ throw: false }));
  koa.use((ctx) => {
    if (looksLikeApi(ctx.path)) {
      if (ctx.status === 405) {
        ctx.body = { error: `方法 ${ctx.method} 不适用于此接口`, code: 'METHOD_NOT_ALLOWED' };
        return;
      }
      throw notFound('接口不存在', { code: 'ROUTE_NOT_FOUND' });
    }
  });
  return koa;
}
