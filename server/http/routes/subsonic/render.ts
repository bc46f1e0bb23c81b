import type { Context } from 'koa';
import { packageVersion } from '../../../services/system-service.js';
import { subsonicParam } from '../../middleware/auth.js';

export const SUBSONIC_API_VERSION = '1.16.1';

/** A response payload: element name → content (an object, a list of them, or scalars). */
export type Payload = Record<string, unknown>;

const escapeXml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '');

const isScalar = (v: unknown): v is string | number | boolean => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/**
 * One element in Subsonic's XML form: scalar fields are attributes, `value` is the text, objects are
 * child elements and lists repeat the element (the JSON form has the same names).
 */
function element(name: string, content: unknown): string {
  if (isScalar(content)) return `<${name}>${escapeXml(String(content))}</${name}>`;
  if (!content || typeof content !== 'object') return '';
  let attrs = '';
  let children = '';
  let text = '';
  for (const [key, value] of Object.entries(content as Record<string, unknown>)) {
    if (value === undefined || value === null) continue;
    if (key === 'value' && isScalar(value)) text = escapeXml(String(value));
    else if (isScalar(value)) attrs += ` ${key}="${escapeXml(String(value))}"`;
    else if (Array.isArray(value)) for (const item of value) children += element(key, item);
    else children += element(key, value);
  }
  return children || text ? `<${name}${attrs}>${text}${children}</${name}>` : `<${name}${attrs}/>`;
}

function envelope(status: 'ok' | 'failed'): Payload {
  return { status, version: SUBSONIC_API_VERSION, type: 'kikoplay', serverVersion: packageVersion(), openSubsonic: true };
}

/** Answer a /rest request: XML unless `f=json`. */
export function renderSubsonic(ctx: Context, payload: Payload, status: 'ok' | 'failed' = 'ok'): void {
  const body = { ...envelope(status), ...payload };
  ctx.set('Cache-Control', 'private, no-store');
  if (wantsJson(ctx)) {
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = JSON.stringify({ 'subsonic-response': body });
    return;
  }
  ctx.type = 'text/xml; charset=utf-8';
  const xml = element('subsonic-response', body).replace('<subsonic-response', '<subsonic-response xmlns="http://subsonic.org/restapi"');
  ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n${xml}`;
}

/** True when the client asked for the JSON form (`f=json`). */
export const wantsJson = (ctx: Context): boolean => subsonicParam(ctx, 'f') === 'json';

/** Answer a `f=json` request whose payload `key` is JSON text already (album lists). */
export function renderSubsonicJson(ctx: Context, key: string, json: string): void {
  ctx.set('Cache-Control', 'private, no-store');
  ctx.type = 'application/json; charset=utf-8';
  ctx.body = `{"subsonic-response":${JSON.stringify(envelope('ok')).slice(0, -1)},${JSON.stringify(key)}:${json}}}`;
}

export function renderSubsonicError(ctx: Context, code: number, message: string): void {
  renderSubsonic(ctx, { error: { code, message } }, 'failed');
}
