import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Context, Next } from 'koa';
import serve from 'koa-static';

/** Where index.html gets this response's nonce (a character no HTML file contains). */
const NONCE_SLOT = '\u0000';

/**
 * The web app's Content-Security-Policy: its own files only. Scripts and `<style>` elements need the
 * response's nonce (index.html's inline scripts carry it; Mantine puts it on the styles it adds, see
 * web/src/lib/csp-nonce.ts); style attributes React sets through the CSSOM are not affected. Images
 * may be `blob:`/`data:` (covers, icons in the CSS), media `blob:`; nothing may frame the app.
 */
export function webAppCsp(nonce: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' blob: data:",
    "media-src 'self' blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * index.html split where the nonce goes: a `<meta name="csp-nonce">` the app reads, and every `<script>`
 * and `<style>` element.
 */
export function nonceTemplate(html: string): string[] {
  const withSlots = html
    .replace(/<(script|style)\b(?![^>]*\snonce=)/gi, `<$1 nonce="${NONCE_SLOT}"`)
    .replace(/<head(\s[^>]*)?>/i, (head) => `${head}\n    <meta name="csp-nonce" nonce="${NONCE_SLOT}" />`);
  return withSlots.split(NONCE_SLOT);
}

/**
 * Serves the prebuilt SPA from `webRoot` (dist/web) with a history fallback: any GET that is not
 * under /api/ (or /rest/, the Subsonic API) and accepts HTML gets index.html. /api/* is never answered here. The build leaves `.br`
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
  let indexParts: string[] | null = null;
  return async (ctx: Context, next: Next) => {
    if (ctx.path.startsWith('/api/') || ctx.path === '/api' || ctx.path.startsWith('/rest/')) return next();
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
    const nonce = randomBytes(18).toString('base64');
    ctx.set('Content-Security-Policy', webAppCsp(nonce));
    if (!haveBuild) {
      ctx.body = '<!doctype html><meta charset="utf-8"><title>kikoplay</title><p>The web app is not built. Run <code>npm run build</code>.</p>';
      return;
    }
    indexParts ??= nonceTemplate(readFileSync(indexFile, 'utf8'));
    ctx.body = indexParts.join(nonce);
  };
}
