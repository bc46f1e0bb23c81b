import type { Context, Next } from 'koa';

/** `/rest` and below: the Subsonic API (`/REST/…` is no Subsonic path: the router is case-sensitive). */
export const isSubsonicPath = (path: string): boolean => path === '/rest' || path.startsWith('/rest/');

/**
 * Cross-origin access to the Subsonic API for browser apps served elsewhere (Feishin's web build,
 * Airsonic Refix): any origin may read `/rest` answers, without cookies (`*` never sends them), as
 * every request names its own credentials. A preflight (`OPTIONS`) is answered here: GET and POST with
 * the form and Range headers. See sameOriginGuard for the Origin check with auth off.
 */
export async function subsonicCors(ctx: Context, next: Next): Promise<void> {
  if (!isSubsonicPath(ctx.path)) return next();
  ctx.set('Access-Control-Allow-Origin', '*');
  if (ctx.method === 'OPTIONS') {
    ctx.set('Access-Control-Allow-Methods', 'GET, HEAD, POST');
    ctx.set('Access-Control-Allow-Headers', 'Content-Type, Range');
    ctx.set('Access-Control-Max-Age', '600');
    ctx.status = 204;
    return;
  }
  ctx.set('Access-Control-Expose-Headers', 'Content-Range, Accept-Ranges, Content-Length, Retry-After');
  await next();
}
