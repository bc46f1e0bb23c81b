import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/app.js';

describe('HTTP core', () => {
  let t: TestServer;
  let adminToken: string;

  beforeAll(async () => {
    t = await startTestServer();
    await t.addUser('admin', 'adminpass', 'admin');
    adminToken = await t.login('admin', 'adminpass');
  });
  afterAll(() => t.close());

  it('answers /api/health without a token', async () => {
    const res = await t.request('GET', '/api/health');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('OK');
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const res = await t.json('GET', '/api/nope', { token: adminToken });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: '接口不存在', code: 'ROUTE_NOT_FOUND' });
  });

  it('needs a token for API routes when auth is on', async () => {
    const res = await t.json('GET', '/api/config/shared');
    expect(res.status).toBe(401);
    expect(typeof (res.body as { error: string }).error).toBe('string');
  });

  it('rejects malformed JSON with 400', async () => {
    const res = await t.request('PUT', '/api/config/admin', { token: adminToken, raw: '{"config": ', headers: { 'Content-Type': 'application/json' } });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string };
    expect(body.error).toMatch(/JSON/);
  });

  it('rejects bodies over 1 MB with 413', async () => {
    const big = JSON.stringify({ config: { voiceWorkDefaultPath: 'x'.repeat(1_100_000) } });
    const res = await t.request('PUT', '/api/config/admin', { token: adminToken, raw: big, headers: { 'Content-Type': 'application/json' } });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: string }).error).toBeTruthy();
  });

  it('serves the shared config', async () => {
    const res = await t.json('GET', '/api/config/shared', { token: adminToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ sharedConfig: { rewindSeekTime: 5, forwardSeekTime: 30 } });
  });

  it('answers /api/version offline', async () => {
    const res = await t.json<Record<string, unknown>>('GET', '/api/version', { token: adminToken });
    expect(res.status).toBe(200);
    expect(res.body.update_available).toBe(false);
    expect(res.body.lockFileExists).toBe(false);
    expect(res.body.lockReason).toBeNull();
    expect(res.body.lockKind).toBeNull();
    expect(res.body.lockStartedAt).toBeNull();
  });

  it('validates PUT /api/config/admin and names the key', async () => {
    const before = await t.json<{ config: Record<string, unknown> }>('GET', '/api/config/admin', { token: adminToken });
    const res = await t.json<{ error: string }>('PUT', '/api/config/admin', { token: adminToken, body: { config: { pageSize: 'abc' } } });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('pageSize');
    const after = await t.json<{ config: Record<string, unknown> }>('GET', '/api/config/admin', { token: adminToken });
    expect(after.body.config.pageSize).toBe(before.body.config.pageSize);
  });

  it('names each refused config key with a code and its parameters', async () => {
    const res = await t.json<Record<string, unknown>>('PUT', '/api/config/admin', {
      token: adminToken,
      body: { config: { pageSize: 500, listenPort: 1.5, dlsiteBaseUrl: 'http://[bad', tagLanguage: 'fr', publicHosts: ['http://x/'] } },
    });
    expect(res.status).toBe(400);
    // the one-line error and its code stay as they were
    expect(res.body).toMatchObject({ error: expect.stringMatching(/^配置无效: /), code: 'CONFIG_INVALID' });
    const fields = (res.body.errors as { param: string; code: string; params?: unknown; msg: string; location: string }[]).map(({ msg, location, ...f }) => {
      expect(msg.length).toBeGreaterThan(0);
      expect(location).toBe('body');
      return f;
    });
    expect(fields).toEqual(
      expect.arrayContaining([
        { param: 'pageSize', code: 'CONFIG_VALUE_TOO_BIG', params: { max: 100 } },
        { param: 'listenPort', code: 'CONFIG_VALUE_INTEGER' },
        { param: 'dlsiteBaseUrl', code: 'CONFIG_URL_INVALID' },
        { param: 'tagLanguage', code: 'CONFIG_VALUE_CHOICE', params: { values: 'zh-cn, zh-tw, ja-jp' } },
        { param: 'publicHosts.0', code: 'CONFIG_HOST_INVALID' },
      ]),
    );
    expect(fields).toHaveLength(5);
  });

  it('saves a valid config change and returns config and message', async () => {
    const res = await t.json<{ config: Record<string, unknown>; message: string }>('PUT', '/api/config/admin', {
      token: adminToken,
      body: { config: { rewindSeekTime: 10, jwtsecret: 'ignored legacy key' } },
    });
    expect(res.status).toBe(200);
    expect(res.body.message).toMatch(/^保存成功/);
    expect(res.body.config.rewindSeekTime).toBe(10);
    expect(res.body.config).not.toHaveProperty('jwtsecret');
    const shared = await t.json('GET', '/api/config/shared', { token: adminToken });
    expect(shared.body).toEqual({ sharedConfig: { rewindSeekTime: 10, forwardSeekTime: 30 } });
  });

  it('refuses unknown config keys', async () => {
    const res = await t.json<{ error: string }>('PUT', '/api/config/admin', { token: adminToken, body: { config: { nonsense: 1 } } });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('nonsense');
  });

  it('keeps auth locked in production', async () => {
    const p = await startTestServer({ flags: { production: true } });
    try {
      await p.addUser('admin', 'adminpass', 'admin');
      const token = await p.login('admin', 'adminpass');
      const res = await p.json('PUT', '/api/config/admin', { token, body: { config: { auth: false } } });
      expect(res.status).toBe(403);
    } finally {
      await p.close();
    }
  });

  /** What the server sends back on a raw connection given `head` (request line and headers). */
  const rawExchange = (head: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = connect(t.server.port, '127.0.0.1', () => socket.write(`${head}\r\n\r\n`));
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (text += chunk));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
  const statusAndBody = (raw: string) => ({ status: raw.slice(0, raw.indexOf('\r\n')), body: JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) as unknown });

  it('answers a missing Host, an unknown Expect and CONNECT with a JSON { error } and closes', async () => {
    expect(statusAndBody(await rawExchange('GET /api/health HTTP/1.1'))).toEqual({ status: 'HTTP/1.1 400 Bad Request', body: { error: '请求缺少 Host 请求头', code: 'BAD_REQUEST' } });
    expect(statusAndBody(await rawExchange('GET /api/health HTTP/1.1\r\nHost: localhost\r\nExpect: 200-ok'))).toEqual({
      status: 'HTTP/1.1 417 Expectation Failed',
      body: { error: '不支持的 Expect 请求头', code: 'BAD_REQUEST' },
    });
    expect(statusAndBody(await rawExchange('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443'))).toEqual({
      status: 'HTTP/1.1 405 Method Not Allowed',
      body: { error: '不支持 CONNECT 请求', code: 'METHOD_NOT_ALLOWED' },
    });
    // HTTP/1.0 needs no Host, as before
    expect(await rawExchange('GET /api/health HTTP/1.0')).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
  });

  it('answers a URL over 16 KB and a malformed request line with a JSON { error }, not an empty body', async () => {
    const long = await t.request('GET', `/api/work/${'1'.repeat(100_000)}`, { token: adminToken });
    expect(long.status).toBe(431);
    expect(long.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await long.json()).toEqual({ error: '请求的 URL 或请求头过长', code: 'HEADERS_TOO_LARGE' });

    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(t.server.port, '127.0.0.1', () => socket.end('GARBAGE\r\n\r\n'));
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (text += chunk));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(raw).toMatch(/\r\nContent-Type: application\/json; charset=utf-8\r\n/);
    expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).toEqual({ error: '无效的 HTTP 请求', code: 'BAD_REQUEST' });
    // the server still answers
    expect((await t.request('GET', '/api/health')).status).toBe(200);
  });

  it('redacts tokens from the X-Request-Id flow and returns a request id', async () => {
    const res = await t.request('GET', '/api/health');
    expect(res.headers.get('x-request-id')).toMatch(/^[\w-]+$/);
  });
});
