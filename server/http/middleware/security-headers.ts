import type { Context, Next } from 'koa';

/**
 * Headers on every response (API, web app files, errors, 404s), set before anything else runs so no
 * path can answer without them: browsers never guess a type other than the one sent (a cover or a
 * library file is never run as a script or a page), no address is handed on to other sites (media and
 * cover URLs carry tokens), and no page of this server is shown inside another site's frame. The web
 * app's HTML adds its Content-Security-Policy (spa.ts). Koa sends no X-Powered-By.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
};

export function securityHeaders() {
  return async (ctx: Context, next: Next) => {
    ctx.set(SECURITY_HEADERS);
    await next();
  };
}

/** The same headers as raw header lines, for answers written straight to a socket. */
export const rawSecurityHeaders = (): string =>
  Object.entries(SECURITY_HEADERS)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
