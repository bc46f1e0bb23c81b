import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import { isAppError } from '../../domain/errors.js';
import { redactUrl } from './redact-url.js';

interface HttpishError extends Error {
  status?: number;
  statusCode?: number;
  expose?: boolean;
  type?: string;
}

/**
 * The one error renderer: AppError → its status and `{ error }` (or `{ errors }` for 422);
 * body-parser errors → 400/413/415; anything else → 500 with the request id, logged, never a hang.
 */
export function errorMiddleware(logger: Logger) {
  return async (ctx: Context, next: Next) => {
    try {
      await next();
    } catch (raw) {
      const err = raw as HttpishError;
      if (isAppError(err)) {
        ctx.status = err.status;
        if (err.headers) ctx.set(err.headers);
        ctx.body = err.code === 'validation' && err.fields ? { errors: err.fields, error: err.message } : { error: err.message };
        return;
      }
      const status = err.status ?? err.statusCode;
      if (status && status >= 400 && status < 500) {
        ctx.status = status;
        let message = err.expose === false ? 'Bad request' : err.message;
        if (err.type === 'entity.parse.failed') message = `请求体不是有效的 JSON: ${err.message}`;
        if (err.type === 'entity.too.large' || status === 413) message = '请求体过大';
        ctx.body = { error: message };
        return;
      }
      const id = String(ctx.state.requestId ?? '');
      logger.error({ err, reqId: id, method: ctx.method, url: redactUrl(ctx.url) }, 'unhandled error');
      ctx.status = 500;
      ctx.body = { error: `服务器错误 (request ${id})` };
    }
  };
}
