import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import { isApiErrorCode, type ApiErrorCode } from '../../domain/error-codes.js';
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
function clientError(status: number, type: unknown, syntax: boolean): { error: string; code: ApiErrorCode } {
  if (syntax || type === 'entity.parse.failed') return { error: '请求体不是有效的 JSON', code: 'INVALID_JSON' };
  if (type === 'entity.too.large' || status === 413) return { error: '请求体过大', code: 'PAYLOAD_TOO_LARGE' };
  if (status === 415) return { error: '不支持的请求体类型或编码', code: 'UNSUPPORTED_MEDIA_TYPE' };
  return { error: '请求无效', code: 'BAD_REQUEST' };
}

/** A field name from the API (`name`, `tags.2`, `rootFolders.0.path`), else nothing. */
function fieldName(value: unknown): string | undefined {
  return typeof value === 'string' && /^[A-Za-z_][\w.]{0,63}$/.test(value) ? value : undefined;
}

/** The sentence parameters: short strings and finite numbers only. */
function paramsOf(value: unknown): Record<string, string | number> | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const out: Record<string, string | number> = {};
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (!/^[A-Za-z_]\w{0,31}$/.test(key)) continue;
    if ((typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && v.length <= 200)) out[key] = v;
  }
  return Object.keys(out).length ? out : undefined;
}

/** `code`, and `field` / `params` when there are any, added to `target`. */
function addDetail(target: Record<string, unknown>, code: unknown, field: unknown, params: unknown, fallback: ApiErrorCode) {
  target.code = isApiErrorCode(code) ? code : fallback;
  const f = fieldName(field);
  if (f) target.field = f;
  const p = paramsOf(params);
  if (p) target.params = p;
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
    addDetail(body, raw.code, raw.field, raw.params, raw.status >= 500 ? 'INTERNAL' : 'BAD_REQUEST');
    if (Array.isArray(raw.fields)) {
      // exactly the fields the kikoeru clients read (422), as strings, and the code: nothing the client sent
      body.errors = raw.fields.map((f) => {
        const entry: Record<string, unknown> = { msg: String(f.msg), param: String(f.param), location: String(f.location) };
        if (isApiErrorCode(f.code)) entry.code = f.code;
        const params = paramsOf(f.params);
        if (params) entry.params = params;
        return entry;
      });
    }
    return { status: raw.status, body, headers: raw.headers };
  }
  if (raw === null || typeof raw !== 'object') return null;
  const err = raw as HttpishError;
  const status = Number(err.status ?? err.statusCode);
  if (Number.isInteger(status) && status >= 400 && status < 500) return { status, body: clientError(status, err.type, raw instanceof SyntaxError) };
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
 * The one error renderer: AppError → its status and `{ error, code, field?, params? }` (plus `errors`
 * for 422, and for a 400 that names several fields, as a refused config change);
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
        send(ctx, 500, { error: `服务器错误 (request ${requestIdOf(ctx)})`, code: 'INTERNAL' });
      } catch (renderFailure) {
        logError(logger, ctx, renderFailure, 'error while rendering an error');
        const client = status >= 400 && status < 500;
        send(ctx, client ? status : 500, { error: `${client ? '请求无效' : '服务器错误'} (request ${requestIdOf(ctx)})`, code: client ? 'BAD_REQUEST' : 'INTERNAL' });
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
