import v8 from 'node:v8';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/app.js';
import type { HttpLimits } from '../../server/http/limits.js';
import { jsonOf, rawRequest, slowRequest, statusOf } from './raw-http.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

/** Heap and buffers of this process (the server runs in it), after a full collection. */
function memoryNow(): number {
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

const head = (method: string, path: string, headers: Record<string, string | number>) =>
  [`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)].join('\r\n');

describe('slow and oversized bodies without a login', () => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer();
    await t.addUser('admin', 'adminpass', 'admin');
  });
  afterAll(() => t.close());

  it('answers a big unauthenticated body at once (401, 413 for the login, 404 off the map) and closes the connection', async () => {
    const cases: [string, string, number][] = [
      ['POST', '/api/auth/me', 413],
      ['POST', '/api/work/scan/1', 401],
      ['PUT', '/api/config/admin', 401],
      ['POST', '/api/media/save-lrc/1', 401],
      ['POST', '/api/lyric/translate/finish', 401],
      ['DELETE', '/api/credentials/user', 401],
      ['POST', '/api/nope', 404],
      ['POST', '/API/auth/me', 404],
    ];
    const results = await Promise.all(
      cases.map(([method, path]) => slowRequest(t.server.port, head(method, path, { 'Content-Type': 'application/json', 'Content-Length': 1_048_000 }), 'x'.repeat(1000)).done),
    );
    results.forEach((r, i) => {
      expect(statusOf(r.text), `${cases[i][0]} ${cases[i][1]}`).toBe(cases[i][2]);
      expect(r.closed, `${cases[i][1]} closed`).toBe(true);
      expect(r.ms).toBeLessThan(3000);
      const body = jsonOf(r.text) as Record<string, unknown>;
      expect(body).toMatchObject({ error: expect.any(String), code: expect.any(String) });
      expect(Object.keys(body).every((k) => ['error', 'code', 'params'].includes(k))).toBe(true);
    });
  });

  it('lets hundreds of slow login bodies cost no memory: each is refused before it is read, and closed', async () => {
    const before = memoryNow();
    const sockets = Array.from({ length: 300 }, () =>
      slowRequest(
        t.server.port,
        head('POST', '/api/auth/me', { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': 1_048_000 }),
        'name=admin&password='.padEnd(64 * 1024, 'x'),
        10_000,
      ),
    );
    const results = await Promise.all(sockets.map((s) => s.done));
    expect(results.filter((r) => statusOf(r.text) !== 413 || !r.closed)).toEqual([]);
    const grown = memoryNow() - before;
    expect(grown).toBeLessThan(16 * 1024 * 1024);
    // and the server still logs people in
    expect((await t.json('POST', '/api/auth/me', { body: { name: 'admin', password: 'adminpass' } })).status).toBe(200);
  });

  it('does not invite an unauthenticated body with 100 Continue; a logged-in one gets it', async () => {
    const anonymous = await slowRequest(t.server.port, head('POST', '/api/work/scan/1', { 'Content-Type': 'application/json', 'Content-Length': 2, Expect: '100-continue' })).done;
    expect(anonymous.text).not.toMatch(/100 Continue/);
    expect(statusOf(anonymous.text)).toBe(401);

    const token = await t.login('admin', 'adminpass');
    const body = JSON.stringify({ config: { rewindSeekTime: 7 } });
    const client = slowRequest(
      t.server.port,
      head('PUT', '/api/config/admin', { 'Content-Type': 'application/json', 'Content-Length': body.length, Expect: '100-continue', Authorization: `Bearer ${token}`, Connection: 'close' }),
    );
    for (let i = 0; i < 100 && !client.received().includes('100 Continue'); i++) await new Promise((r) => setTimeout(r, 20));
    expect(client.received()).toMatch(/^HTTP\/1\.1 100 Continue\r\n/);
    client.socket.write(body);
    const done = await client.done;
    expect(done.text).toMatch(/HTTP\/1\.1 200 OK/);
  });
});

/** A server with the given limits, an admin and its token. */
function withServer(limits: Partial<HttpLimits>) {
  const s = { t: undefined as unknown as TestServer, token: '' };
  beforeAll(async () => {
    s.t = await startTestServer({ limits });
    await s.t.addUser('admin', 'adminpass', 'admin');
    s.token = await s.t.login('admin', 'adminpass');
  });
  afterAll(() => s.t.close());
  return s;
}

const putConfig = (token: string, length: number) => head('PUT', '/api/config/admin', { 'Content-Type': 'application/json', 'Content-Length': length, Authorization: `Bearer ${token}` });

describe('limits on logged-in bodies in flight and on connections', () => {
  const s = withServer({ maxBodyBytesInFlight: 64 * 1024, maxConnections: 12 });

  it('caps the body bytes all requests may be receiving at once (503), and frees them when the sockets close', async () => {
    const holding = [1, 2, 3].map(() => slowRequest(s.t.server.port, putConfig(s.token, 20_000), '{"config":', 10_000));
    await new Promise((r) => setTimeout(r, 150));
    const refused = await slowRequest(s.t.server.port, putConfig(s.token, 20_000), '{"config":').done;
    expect(statusOf(refused.text)).toBe(503);
    expect(refused.text).toMatch(/\r\nRetry-After: \d+\r\n/i);
    expect(refused.closed).toBe(true);
    for (const h of holding) h.socket.destroy();
    await Promise.all(holding.map((h) => h.done));
    // the three reservations are given back: three more fit again
    await new Promise((r) => setTimeout(r, 100));
    const again = [1, 2, 3].map(() => slowRequest(s.t.server.port, putConfig(s.token, 20_000), '{"config":', 10_000));
    await new Promise((r) => setTimeout(r, 150));
    expect(again.map((a) => a.received())).toEqual(['', '', '']);
    for (const a of again) a.socket.destroy();
  });

  it('refuses connections beyond the cap and serves again once they close', async () => {
    const held = Array.from({ length: 12 }, () => slowRequest(s.t.server.port, 'GET /api/health HTTP/1.1\r\nHost: 127.0.0.1', '', 10_000));
    await new Promise((r) => setTimeout(r, 200));
    const extra = await slowRequest(s.t.server.port, head('GET', '/api/health', { Connection: 'close' }), '', 3000).done;
    expect(extra.closed).toBe(true);
    expect(extra.text).toBe('');
    for (const h of held) h.socket.destroy();
    await Promise.all(held.map((h) => h.done));
    const res = await rawRequest(s.t.server.port, 'GET', '/api/health');
    expect(res.status).toBe(200);
  });
});

describe('timeouts', () => {
  const s = withServer({ bodyTimeoutMs: 400, headersTimeoutMs: 600, requestTimeoutMs: 1500, keepAliveTimeoutMs: 300 });

  it('answers 408 and closes when a body stops arriving', async () => {
    const r = await slowRequest(s.t.server.port, putConfig(s.token, 100), '{"config":').done;
    expect(statusOf(r.text)).toBe(408);
    expect(jsonOf(r.text)).toEqual({ error: '请求体接收超时', code: 'REQUEST_TIMEOUT' });
    expect(r.closed).toBe(true);
    expect(r.ms).toBeLessThan(3000);
  });

  it('closes connections whose headers stop arriving, and idle keep-alive connections', async () => {
    const slowHeaders = slowRequest(s.t.server.port, 'GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: 1', '', 6000);
    // the server answers node's timeout with its JSON 408 and closes
    const r = await slowHeaders.done;
    expect(r.closed).toBe(true);
    expect(r.ms).toBeLessThan(4000);

    const idle = slowRequest(s.t.server.port, head('GET', '/api/health', {}), '', 6000);
    const done = await idle.done;
    expect(statusOf(done.text)).toBe(200);
    expect(done.closed).toBe(true);
    expect(done.ms).toBeLessThan(3000);
  });
});
