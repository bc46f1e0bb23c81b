import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../server/app/logger.js';
import { AppError } from '../../server/domain/errors.js';
import { errorMiddleware } from '../../server/http/middleware/errors.js';
import { requestLog } from '../../server/http/middleware/request-log.js';

/**
 * The error renderer on a real Koa app: whatever a handler throws, the answer is JSON with a
 * request id, never Koa's plain-text fallback, and never the input that caused it.
 */
describe('error rendering', () => {
  let server: Server;
  let url: string;
  const thrown = new Map<string, () => unknown>([
    [
      '/hostile-getters',
      () =>
        new Proxy(
          {},
          {
            get: () => {
              throw new Error('getter');
            },
            has: () => {
              throw new Error('has');
            },
          },
        ),
    ],
    ['/null', () => null],
    ['/string', () => 'a string'],
    ['/bad-header', () => new AppError('too_many_requests', '稍后再试', { headers: { 'Retry-After': 'x\r\nSet-Cookie: a=b' } })],
    [
      '/deep-field',
      () => {
        let deep: unknown = [];
        for (let i = 0; i < 200_000; i++) deep = [deep];
        return new AppError('validation', '用户名长度至少为 5', { fields: [{ msg: '用户名长度至少为 5', param: 'name', location: 'body', value: deep } as never] });
      },
    ],
    ['/parser-echo', () => Object.assign(new SyntaxError('Unexpected token, "echo-me" is not valid JSON'), { status: 400, body: 'echo-me' })],
  ]);

  beforeAll(async () => {
    const koa = new Koa();
    koa.silent = true;
    const logger = createLogger({ level: 'silent' });
    koa.use(requestLog(logger));
    koa.use(errorMiddleware(logger));
    koa.use((ctx) => {
      const make = thrown.get(ctx.path);
      if (make) throw make();
      ctx.body = { ok: true };
    });
    server = createServer(koa.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const get = async (path: string) => {
    const res = await fetch(url + path);
    const text = await res.text();
    expect(res.headers.get('content-type'), path).toMatch(/^application\/json/);
    return { status: res.status, text, body: JSON.parse(text) as { error: string; errors?: unknown }, id: res.headers.get('x-request-id') };
  };

  it('answers a thrown value it cannot even inspect with a JSON 500 naming the request id', async () => {
    for (const path of ['/hostile-getters', '/null', '/string']) {
      const res = await get(path);
      expect(res.status, path).toBe(500);
      expect(res.body.error, path).toBe(`服务器错误 (request ${res.id})`);
    }
  });

  it('keeps the 4xx and a JSON body when setting the error headers fails', async () => {
    const res = await get('/bad-header');
    expect(res.status).toBe(429);
    expect(res.body.error).toBe(`请求无效 (request ${res.id})`);
  });

  it('renders validation errors as msg, param and location only, whatever the fields hold', async () => {
    const res = await get('/deep-field');
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: '用户名长度至少为 5', code: 'FIELD_INVALID', field: 'name', errors: [{ msg: '用户名长度至少为 5', param: 'name', location: 'body' }] });
  });

  it('does not pass on a parser message that quotes the request', async () => {
    const res = await get('/parser-echo');
    expect(res.status).toBe(400);
    expect(res.text).not.toContain('echo-me');
    expect(res.body).toEqual({ error: '请求体不是有效的 JSON', code: 'INVALID_JSON' });
  });
});
