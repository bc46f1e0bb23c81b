import type { IncomingMessage } from 'node:http';
import type { Context } from 'koa';
import { AppError, badRequest } from '../domain/errors.js';
import { KB } from './limits.js';
import { jsonTextTooDeep, MAX_JSON_DEPTH } from '../domain/json-depth.js';

declare module 'koa' {
  interface Request {
    /** The parsed body of a route that reads one (`{}` when none was sent). */
    body?: unknown;
  }
}

/** What a route accepts as its body: JSON up to `limit` bytes; with `form`, also urlencoded forms. */
export interface BodyRule {
  limit: number;
  form: boolean;
}

/** Methods whose body a route reads; on any other method a body is never looked at. */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const unsupported = (message: string) => new AppError('bad_request', message, { code: 'UNSUPPORTED_MEDIA_TYPE', status: 415 });
const tooLarge = (limit: number) => new AppError('payload_too_large', `请求体过大（此接口上限 ${formatBytes(limit)}）`, { params: { limit: formatBytes(limit) } });

function formatBytes(n: number): string {
  return n >= 1024 * KB ? `${Math.round(n / (1024 * KB))} MB` : `${Math.round(n / KB)} KB`;
}

/**
 * The body bytes every request together is receiving. A read reserves the size it may reach (its
 * Content-Length, or the route's limit for a chunked body) before the first byte is read, and gives
 * it back when it ends however it ends; a reservation that does not fit is a 503.
 */
export class BodyBudget {
  private used = 0;
  constructor(private readonly max: number) {}

  get inFlight(): number {
    return this.used;
  }

  reserve(bytes: number): boolean {
    if (this.used + bytes > this.max) return false;
    this.used += bytes;
    return true;
  }

  release(bytes: number): void {
    this.used = Math.max(0, this.used - bytes);
  }
}

/** Whether the request carries a body at all (RFC 9112 §6.3: Transfer-Encoding, or a non-zero Content-Length). */
export function hasBody(req: IncomingMessage): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = req.headers['content-length'];
  return length !== undefined && length !== '0' && length.trim() !== '0';
}

const isJsonType = (mime: string) => mime === 'application/json' || /^application\/[\w.+-]+\+json$/.test(mime);
const FORM_TYPE = 'application/x-www-form-urlencoded';

/** The media type of the request, lower case without parameters ('' when there is no Content-Type). */
function mediaType(ctx: Context): { mime: string; charset: string | null } {
  const header = ctx.get('Content-Type');
  const [mime, ...params] = header.split(';');
  const charset = params.map((p) => /^\s*charset\s*=\s*"?([^";\s]*)"?\s*$/i.exec(p)?.[1]).find(Boolean);
  return { mime: mime.trim().toLowerCase(), charset: charset ? charset.toLowerCase() : null };
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return {};
  const first = /\S/.exec(text)?.[0];
  if (first !== '{' && first !== '[') throw badRequest('请求体不是有效的 JSON: 需要对象或数组', { code: 'INVALID_JSON' });
  // measured without recursion before anything (JSON.stringify, zod) recurses over the parsed value
  if (jsonTextTooDeep(text, MAX_JSON_DEPTH)) throw badRequest(`请求体的 JSON 嵌套过深（最多 ${MAX_JSON_DEPTH} 层）`, { code: 'JSON_TOO_DEEP', params: { max: MAX_JSON_DEPTH } });
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // the parser's own message quotes the body: never echoed
    throw badRequest('请求体不是有效的 JSON', { code: 'INVALID_JSON' });
  }
}

/** A form as an object of strings; a name given twice becomes an array (as `qs` does), never a prototype key. */
function parseForm(text: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const prev = Object.prototype.hasOwnProperty.call(out, key) ? out[key] : undefined;
    const next = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
    Object.defineProperty(out, key, { value: next, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** Receive the raw body: at most `limit` bytes, within `timeoutMs`, failing fast when the client leaves. */
function collect(req: IncomingMessage, limit: number, timeoutMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (err: Error | null, body?: Buffer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('close', onClose);
      req.off('error', onClose);
      if (err) {
        chunks.length = 0;
        req.pause();
        reject(err);
      } else resolve(body!);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) settle(tooLarge(limit));
      else chunks.push(chunk);
    };
    const onEnd = () => settle(null, Buffer.concat(chunks, size));
    const onClose = () => settle(badRequest('请求体未完整接收', { code: 'BODY_INCOMPLETE' }));
    const timer = setTimeout(() => settle(new AppError('bad_request', '请求体接收超时', { code: 'REQUEST_TIMEOUT', status: 408 })), timeoutMs);
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('close', onClose);
    req.once('error', onClose);
  });
}

/**
 * Read and parse the body of a request to a route that takes one (called after the route's access
 * check). JSON always, urlencoded forms only where the rule allows them; anything else is a 415. The
 * declared size is checked before a byte is read, and reserved against the budget of bytes in flight.
 */
export async function readBody(ctx: Context, rule: BodyRule, budget: BodyBudget, timeoutMs: number): Promise<unknown> {
  if (!BODY_METHODS.has(ctx.method)) return {};
  const { mime, charset } = mediaType(ctx);
  const form = mime === FORM_TYPE && rule.form;
  if (mime && !isJsonType(mime) && !form) {
    throw unsupported(rule.form ? `不支持的请求体类型 ${mime.slice(0, 100)}：此接口只接受 JSON 或表单` : `不支持的请求体类型 ${mime.slice(0, 100)}：此接口只接受 JSON`);
  }
  if (!hasBody(ctx.req)) return {};
  if (!mime) throw unsupported('请求体缺少 Content-Type（此接口只接受 JSON）');
  if (charset && charset !== 'utf-8' && charset !== 'utf8') throw unsupported(`不支持的字符集 ${charset.slice(0, 40)}：请使用 UTF-8`);
  const encoding = ctx.get('Content-Encoding').trim().toLowerCase();
  if (encoding && encoding !== 'identity') throw unsupported('不接受压缩的请求体');

  const declared = ctx.req.headers['content-length'] !== undefined ? Number(ctx.req.headers['content-length']) : null;
  if (declared !== null && !(declared <= rule.limit)) throw tooLarge(rule.limit);
  const reserved = declared ?? rule.limit;
  if (!budget.reserve(reserved)) {
    throw new AppError('unavailable', '服务器正忙于接收其他请求，请稍后重试', { code: 'BUSY', headers: { 'Retry-After': '5' } });
  }
  try {
    // a client that asked to wait (Expect: 100-continue) sends its body only now that the route let it in
    if (/100-continue/i.test(ctx.get('Expect'))) ctx.res.writeContinue();
    const raw = await collect(ctx.req, rule.limit, timeoutMs);
    const text = raw.toString('utf8');
    return form ? parseForm(text) : parseJson(text);
  } finally {
    budget.release(reserved);
  }
}
