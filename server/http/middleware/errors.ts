import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import { isAppError } from '../../domain/errors.js';
import { redactUrl } from './redact-url.js';

interface HttpishError {
  status?: unknown;
  statusCode?: unknown;
  type?: unknown;
}

/**
 * Fixed texts for the 4xx errors of the body parser (co-body throws JSON.parse's SyntaxError with a
 * status) and Koa: their own messages can quote the request (V8's JSON.parse message quotes the
 * text it could not read), and error bodies never echo input.
 */
function clientErrorMessage(status: number, type: unknown, syntax: boolean): string {
  if (syntax || type === 'entity.parse.failed') return '请求体不是有效的 JSON';
  if (type === 'entity.too.large' || status === 413) return '请求体过大';
  if (status === 415) return '不支持的请求体类型或编码';
  return '请求无效';
}

interface Rendered {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

/** The answer for a thrown value, or null for an unexpected error (a 500). */
function classify(raw: unknown): Rendered | null {
  if (isAppError(raw)) {
    const body: Record<string, unknown> = { error: String(raw.message) };
    if (raw.code === 'validation' && Array.isArray(raw.fields)) {
      // exactly the fields the kikoeru clients read, as strings: nothing the client sent
      body.errors = raw.fields.map((f) => ({ msg: String(f.msg), param: String(f.param), location: String(f.location) }));
    }
    return { status: raw.status, body, headers: raw.headers };
  }
  if (raw === null || typeof raw !== 'object') return null;
  const err = raw as HttpishError;
  const status = Number(err.status ?? err.statusCode);
  if (Number.isInteger(status) && status >= 400 && status < 500) return { status, body: { error: clientErrorMessage(status, err.type, raw instanceof SyntaxError) } };
  return null;
}

const requestIdOf = (ctx: Context) => {
  const id: unknown = ctx.state.requestId;
  return typeof id === 'string' ? id : '';
};

function send(ctx: Context, status: number, body: Record<string, unknown>) {
  ctx.status = status;
  // serialised here, not by Koa after the middleware returned: a failure is still ours to answer
  ctx.body = JSON.stringify(body);
  ctx.type = 'application/json; charset=utf-8';
}

/**
 * The one error renderer: AppError → its status and `{ error }` (or `{ error, errors }` for 422);
 * body-parser errors → 400/413/415 with fixed texts; anything else → 500 with the request id,
 * logged. Rendering cannot fail the response: if it throws, the answer is still a JSON 4xx/500.
 */
export function errorMiddleware(logger: Logger) {
  return async (ctx: Context, next: Next) => {
    try {
      await next();
    } catch (raw) {
      if (ctx.headerSent) throw raw; // too late for a body; Koa ends the response
      let status = 500;
      try {
        const known = classify(raw);
        if (known) {
          status = known.status;
          send(ctx, known.status, known.body);
          if (known.headers) ctx.set(known.headers);
          return;
        }
        logError(logger, ctx, raw, 'unhandled error');
        send(ctx, 500, { error: `服务器错误 (request ${requestIdOf(ctx)})` });
      } catch (renderFailure) {
        logError(logger, ctx, renderFailure, 'error while rendering an error');
        const client = status >= 400 && status < 500;
        send(ctx, client ? status : 500, { error: `${client ? '请求无效' : '服务器错误'} (request ${requestIdOf(ctx)})` });
      }
    }
  };
}

/** Log an error; a value that cannot be logged (hostile getters, cycles pino refuses) is described instead. */
function logError(logger: Logger, ctx: Context, err: unknown, what: string) {
  const context = { reqId: requestIdOf(ctx), method: ctx.method, url: redactUrl(ctx.url) };
  try {
    logger.error({ err, ...context }, what);
  } catch {
    logger.error({ ...context, err: { type: typeof err } }, `${what} (unloggable)`);
  }
}
