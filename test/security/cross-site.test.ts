/**
 * Issue 17 item 6: requests another site makes a browser send are refused in every mode (auth on and
 * `--no-auth`): state-changing requests from another origin (`Origin`, or `Sec-Fetch-Site` without it)
 * and any request whose Host is not this server (DNS rebinding). The web app's own requests and
 * native clients (no Origin, no Sec-Fetch-*) go on working. Raw node:http requests, so Host and
 * Origin are sent exactly as written.
 */
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, tempDir, type TestServer } from '../helpers/app.js';

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: { error?: string } & Record<string, unknown>;
}

function raw(port: number, method: string, p: string, opts: { headers?: Record<string, string>; body?: string } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: p,
        headers: { Host: `127.0.0.1:${port}`, ...(opts.body === undefined ? {} : { 'Content-Length': String(Buffer.byteLength(opts.body)) }), ...opts.headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => {
          let body: RawResponse['body'];
          try {
            body = JSON.parse(text) as RawResponse['body'];
          } catch {
            body = { text };
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
        });
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

for (const mode of ['auth on', 'auth off'] as const) {
  describe(`cross-site requests (${mode})`, () => {
    let t: TestServer;
    let token: string | undefined;
    let library: string;
    const auth = (): Record<string, string> => (token ? { Authorization: `Bearer ${token}` } : {});
    const folders = () => t.app.store.get().rootFolders.map((f) => f.name);
    const addFolder = (name: string, headers: Record<string, string>, form = false) =>
      raw(t.server.port, 'POST', '/api/config/folders', {
        headers: { ...auth(), 'Content-Type': form ? 'application/x-www-form-urlencoded' : 'application/json', ...headers },
        body: form ? new URLSearchParams({ name, path: path.join(library, name) }).toString() : JSON.stringify({ name, path: path.join(library, name) }),
      });

    beforeAll(async () => {
      library = tempDir('kikoplay-xsite-');
      const { mkdirSync } = await import('node:fs');
      for (const n of ['evil1', 'evil2', 'evil3', 'evil4', 'own1', 'own2', 'native1', 'allowed1', 'proxied1']) mkdirSync(path.join(library, n));
      t = await startTestServer({ flags: { auth: mode === 'auth on' } });
      if (mode === 'auth on') {
        await t.addUser('admin', 'adminpass', 'admin');
        token = await t.login('admin', 'adminpass');
      }
    });

    afterAll(async () => {
      await t?.close();
    });

    it('refuses a form POST from another site that would add a root folder', async () => {
      const res = await addFolder('evil1', { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' }, true);
      expect(res.status).toBe(403);
      expect(res.body.error).toContain('allowedOrigins');
      expect(folders()).not.toContain('evil1');
    });

    it('refuses a JSON POST from another origin, and Origin: null', async () => {
      for (const origin of ['https://evil.example', 'null', `http://127.0.0.1:${t.server.port + 1}`]) {
        const res = await addFolder('evil2', { Origin: origin });
        expect(res.status, origin).toBe(403);
      }
      expect((await addFolder('evil2', { Origin: 'null', 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403);
      expect(folders()).not.toContain('evil2');
    });

    it('refuses a cross-site request that carries no Origin but Sec-Fetch-Site', async () => {
      const res = await addFolder('evil3', { 'Sec-Fetch-Site': 'cross-site' });
      expect(res.status).toBe(403);
      expect(folders()).not.toContain('evil3');
      const del = await raw(t.server.port, 'DELETE', '/api/config/folders', { headers: { ...auth(), 'Sec-Fetch-Site': 'same-site', 'Content-Type': 'application/json' }, body: '{}' });
      expect(del.status).toBe(403);
    });

    it('refuses any request whose Host is not this server (DNS rebinding), naming publicHosts', async () => {
      for (const [method, p] of [
        ['GET', '/api/health'],
        ['GET', '/api/works'],
        ['GET', '/api/config/admin'],
        ['GET', '/'],
      ] as const) {
        const res = await raw(t.server.port, method, p, { headers: { ...auth(), Host: 'attacker.example:8888' } });
        expect(res.status, p).toBe(421);
        expect(res.body.error, p).toContain('publicHosts');
        expect(res.headers['x-content-type-options']).toBe('nosniff');
      }
      const post = await addFolder('evil4', { Host: 'attacker.example', Origin: 'http://attacker.example' });
      expect(post.status).toBe(421);
      expect(folders()).not.toContain('evil4');
    });

    it('serves the web app’s own same-origin requests and native clients without Origin', async () => {
      const own = await addFolder('own1', { Origin: `http://127.0.0.1:${t.server.port}`, 'Sec-Fetch-Site': 'same-origin' });
      expect(own.status, JSON.stringify(own.body)).toBe(200);
      const local = await addFolder('own2', { Host: `localhost:${t.server.port}`, Origin: `http://localhost:${t.server.port}` });
      expect(local.status, JSON.stringify(local.body)).toBe(200);
      // a form post of the app's own page under Referrer-Policy: no-referrer: Origin null, but same-origin
      const nullOwn = await raw(t.server.port, 'PUT', '/api/config/admin', {
        headers: { ...auth(), Origin: 'null', 'Sec-Fetch-Site': 'same-origin', 'Content-Type': 'application/json' },
        body: JSON.stringify({ config: { pageSize: 12 } }),
      });
      expect(nullOwn.status, JSON.stringify(nullOwn.body)).toBe(200);
      const native = await addFolder('native1', {});
      expect(native.status, JSON.stringify(native.body)).toBe(200);
      expect(folders()).toEqual(expect.arrayContaining(['own1', 'own2', 'native1']));
      // reads from another origin are not state-changing: a GET with Origin still answers
      expect((await raw(t.server.port, 'GET', '/api/health', { headers: { Origin: 'https://evil.example' } })).status).toBe(200);
      // IP literals of any kind are this server
      expect((await raw(t.server.port, 'GET', '/api/health', { headers: { Host: `[::1]:${t.server.port}` } })).status).toBe(200);
    });

    it('accepts a configured public host name and an allowed origin', async () => {
      expect((await raw(t.server.port, 'GET', '/api/health', { headers: { Host: 'music.example' } })).status).toBe(421);
      t.app.store.update({ publicHosts: ['music.example'], allowedOrigins: ['https://dashboard.example'] });
      try {
        expect((await raw(t.server.port, 'GET', '/api/health', { headers: { Host: 'Music.Example' } })).status).toBe(200);
        const viaPublic = await addFolder('allowed1', { Host: 'music.example', Origin: 'https://music.example' });
        expect(viaPublic.status, JSON.stringify(viaPublic.body)).toBe(200);
        const res = await raw(t.server.port, 'PUT', '/api/config/admin', {
          headers: { ...auth(), Origin: 'https://dashboard.example', 'Content-Type': 'application/json' },
          body: JSON.stringify({ config: { pageSize: 13 } }),
        });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(t.app.store.get().pageSize).toBe(13);
      } finally {
        t.app.store.update({ publicHosts: [], allowedOrigins: [] });
      }
    });

    it('behind a proxy checks X-Forwarded-Host, and the origin against it', async () => {
      t.app.store.update({ behindProxy: true, publicHosts: ['music.example'] });
      try {
        const rebound = await raw(t.server.port, 'GET', '/api/health', { headers: { 'X-Forwarded-Host': 'attacker.example' } });
        expect(rebound.status).toBe(421);
        const proxied = await addFolder('proxied1', { 'X-Forwarded-Host': 'music.example', 'X-Forwarded-Proto': 'https', Origin: 'https://music.example' });
        expect(proxied.status, JSON.stringify(proxied.body)).toBe(200);
        const foreign = await addFolder('proxied1', { 'X-Forwarded-Host': 'music.example', Origin: 'https://evil.example' });
        expect(foreign.status).toBe(403);
      } finally {
        t.app.store.update({ behindProxy: false, publicHosts: [] });
      }
    });
  });
}

describe('publicHosts and allowedOrigins are validated', () => {
  it('refuses a URL where a host name belongs, and a path in an origin, naming the key', async () => {
    const t = await startTestServer();
    try {
      await t.addUser('admin', 'adminpass', 'admin');
      const token = await t.login('admin', 'adminpass');
      const bad = await t.json('PUT', '/api/config/admin', { token, body: { config: { publicHosts: ['https://music.example/'] } } });
      expect(bad.status).toBe(400);
      expect(JSON.stringify(bad.body)).toContain('publicHosts');
      const badOrigin = await t.json('PUT', '/api/config/admin', { token, body: { config: { allowedOrigins: ['https://dashboard.example/app'] } } });
      expect(badOrigin.status).toBe(400);
      expect(JSON.stringify(badOrigin.body)).toContain('allowedOrigins');
      const ok = await t.json('PUT', '/api/config/admin', { token, body: { config: { publicHosts: ['music.example'], allowedOrigins: ['https://dashboard.example'] } } });
      expect(ok.status).toBe(200);
    } finally {
      await t.close();
    }
  });
});
