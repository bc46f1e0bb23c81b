import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import { redactUrl } from './redact-url.js';

/** Request id (X-Request-Id) and one pino access line per API request, tokens redacted. */
export function requestLog(logger: Logger) {
  return async (ctx: Context, next: Next) => {
    const incoming = ctx.get('X-Request-Id');
    const id = /^[\w-]{1,64}$/.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = id;
    ctx.set('X-Request-Id', id);
    const start = process.hrtime.bigint();
    try {
      await next();
    } finally {
      if (ctx.path.startsWith('/api/')) {
        const ms = Number(process.hrtime.bigint() - start) / 1e6;
        // 503 is load shed on purpose (busy hash queue, costly-search gate): worth a warning, not an error
        const level = ctx.status === 503 ? 'warn' : ctx.status >= 500 ? 'error' : 'debug';
        logger[level]({ reqId: id, method: ctx.method, url: redactUrl(ctx.url), status: ctx.status, ms: Math.round(ms * 10) / 10 }, 'request');
      }
    }
  };
}
