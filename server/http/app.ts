import Koa from 'koa';
import { Router } from '@koa/router';
import { bodyParser } from '@koa/bodyparser';
import compress from 'koa-compress';
import type { AppContext } from '../app/services.js';
import { errorMiddleware } from './middleware/errors.js';
import { requestLog } from './middleware/request-log.js';
import { authContext, requireLogin } from './middleware/auth.js';
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
import { securityHeaders } from './middleware/security-headers.js';
import { sameOriginGuard } from './middleware/same-origin.js';
import { OriginPolicy } from './origin-policy.js';

const ROUTES: RouteModule[] = [systemRoutes, sessionRoutes, userRoutes, userDataRoutes, libraryRoutes, aiLyricsRoutes, worksRoutes, labelRoutes, mediaRoutes, lyricsRoutes, editRoutes, userListRoutes, folderRoutes];

/** Routes that answer without a token even when auth is on. */
const isPublic = (path: string, method: string) =>
  path === '/api/health' || (path === '/api/auth/me' && (method === 'POST' || method === 'GET'));

export interface HttpAppOptions {
  webRoot?: string;
  /** The Host / Origin policy (shared with the admin socket); made from the config when absent. */
  originPolicy?: OriginPolicy;
}

export function createHttpApp(app: AppContext, opts: HttpAppOptions = {}): Koa {
  const koa = new Koa({ proxy: app.store.get().behindProxy });
  koa.silent = true;
  koa.on('error', (err) => app.logger.debug({ err }, 'koa error'));

  koa.use(securityHeaders());
  koa.use(requestLog(app.logger));
  koa.use(errorMiddleware(app.logger));
  koa.use(sameOriginGuard(opts.originPolicy ?? new OriginPolicy(() => app.store.get())));
  if (app.store.get().enableGzip) koa.use(compress({ threshold: 1024 }));
  koa.use(favouritesApiAlias());
  if (opts.webRoot) koa.use(spaMiddleware(opts.webRoot));

  koa.use(
    bodyParser({
      enableTypes: ['json', 'form'],
      jsonLimit: '1mb',
      formLimit: '1mb',
      parsedMethods: ['POST', 'PUT', 'PATCH', 'DELETE'],
      onError: (err: Error & { status?: number }) => {
        throw Object.assign(err, { status: err.status === 413 ? 413 : 400, expose: true });
      },
    }),
  );
  const router = new Router({ prefix: '/api' });
  for (const register of ROUTES) register(router, app.services);

  // Unknown API paths are a JSON 404 whether or not the caller is logged in.
  koa.use(async (ctx, next) => {
    if (ctx.path.startsWith('/api') && router.match(ctx.path, ctx.method).path.length === 0) {
      throw notFound(`接口不存在: ${ctx.method} ${ctx.path}`);
    }
    return next();
  });
  koa.use(authContext(app.services.users, () => app.store.get().auth, app.services.workerTokens));
  koa.use(requireLogin(isPublic));
  koa.use(router.routes());
  koa.use(router.allowedMethods({ throw: false }));
  koa.use((ctx) => {
    if (ctx.path.startsWith('/api/') || ctx.path === '/api') {
      if (ctx.status === 405) {
        ctx.body = { error: `方法 ${ctx.method} 不适用于 ${ctx.path}` };
        return;
      }
      throw notFound(`接口不存在: ${ctx.method} ${ctx.path}`);
    }
  });
  return koa;
}
