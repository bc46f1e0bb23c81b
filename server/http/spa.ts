import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Context, Next } from 'koa';
import serve from 'koa-static';

/**
 * Serves the prebuilt SPA from `webRoot` (dist/web) with a history fallback: any GET that is not
 * under /api/ and accepts HTML gets index.html. /api/* is never answered here. The build leaves `.br`
 * and `.gz` copies of the larger assets; koa-static (koa-send) sends those to clients that accept them,
 * so scripts are not compressed again on every request.
 */
export function spaMiddleware(webRoot: string) {
  const indexFile = path.join(webRoot, 'index.html');
  const haveBuild = existsSync(indexFile);
  const statics = serve(webRoot, {
    index: false,
    brotli: true,
    gzip: true,
    maxage: 0,
    setHeaders(res, filePath) {
      // Hashed asset names can be cached forever; the shell and the service worker never.
      if (/[\\/]assets[\\/]/.test(filePath)) res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
      else res.setHeader('Cache-Control', 'no-cache');
    },
  });
  let indexHtml: string | null = null;
  return async (ctx: Context, next: Next) => {
    if (ctx.path.startsWith('/api/') || ctx.path === '/api') return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (haveBuild && ctx.path !== '/' && ctx.path !== '/index.html') {
      await statics(ctx, async () => undefined);
      if (ctx.body != null || ctx.status === 304) return;
      // a missing asset is a real 404, not the app shell
      if (/\.[a-z0-9]+$/i.test(ctx.path) && !ctx.path.endsWith('.html')) return next();
    }
    if (!ctx.accepts('html')) return next();
    ctx.type = 'html';
    ctx.set('Cache-Control', 'no-cache');
    if (!haveBuild) {
      ctx.body = '<!doctype html><meta charset="utf-8"><title>kikoplay</title><p>The web app is not built. Run <code>npm run build</code>.</p>';
      return;
    }
    indexHtml ??= readFileSync(indexFile, 'utf8');
    ctx.body = indexHtml;
  };
}
