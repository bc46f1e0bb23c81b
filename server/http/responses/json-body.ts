import type { Context } from 'koa';

/**
 * Set a JSON response body as text serialized once. (An object body is serialized twice when the
 * compression middleware asks for its length first; list pages are the hottest responses.)
 */
export function sendJson(ctx: Context, value: unknown): void {
  ctx.type = 'application/json; charset=utf-8';
  ctx.body = JSON.stringify(value);
}

/** Set a body that is already JSON text. */
export function sendJsonText(ctx: Context, json: string): void {
  ctx.type = 'application/json; charset=utf-8';
  ctx.body = json;
}
