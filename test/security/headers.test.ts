/**
 * Issue 17 item 10: `X-Content-Type-Options: nosniff` and `Referrer-Policy: no-referrer` on every
 * response (API, web app files, errors, 404s, node's own answers to broken requests), no X-Powered-By,
 * and a Content-Security-Policy with a fresh nonce on the web app's HTML whose nonce is on every script
 * and style element of the page. (The e2e suite runs the real app under that policy: the browser helper
 * fails a test on any violation.)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, tempDir, type TestServer } from '../helpers/app.js';

const INDEX = `<!doctype html>
<html lang="zh-CN">
  <head>
    <meta charset="utf-8" />
    <script>document.documentElement.dataset.x = '1';</script>
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
    <link rel="stylesheet" href="/assets/index-abc.css">
    <style>body { margin: 0 }</style>
  </head>
  <body><div id="root"></div></body>
</html>
`;

function expectCommonHeaders(headers: Headers, what: string): void {
  expect(headers.get('x-content-type-options'), what).toBe('nosniff');
  expect(headers.get('referrer-policy'), what).toBe('no-referrer');
  expect(headers.get('x-powered-by'), what).toBeNull();
}

describe('security headers', () => {
  let t: TestServer;
  let token: string;

  beforeAll(async () => {
    const webRoot = tempDir('kikoplay-web-');
    mkdirSync(path.join(webRoot, 'assets'));
    writeFileSync(path.join(webRoot, 'index.html'), INDEX);
    writeFileSync(path.join(webRoot, 'assets', 'index-abc.js'), 'console.log(1);\n');
    writeFileSync(path.join(webRoot, 'assets', 'index-abc.css'), 'body{}\n');
    writeFileSync(path.join(webRoot, 'sw.js'), 'self.addEventListener("fetch", () => undefined);\n');
    t = await startTestServer({ webRoot });
    await t.addUser('admin', 'adminpass', 'admin');
    token = await t.login('admin', 'adminpass');
  });

  afterAll(async () => {
    await t?.close();
  });

  it('are on API answers, errors and 404s', async () => {
    const cases: [string, string, { token?: string; body?: unknown }, number][] = [
      ['GET', '/api/health', {}, 200],
      ['GET', '/api/works', { token }, 200],
      ['GET', '/api/works', {}, 401],
      ['GET', '/api/no-such-route', { token }, 404],
      ['POST', '/api/auth/me', { body: '{not json' }, 400],
      ['PUT', '/api/config/admin', { token, body: { config: { pageSize: 'many' } } }, 400],
    ];
    for (const [method, p, opts, status] of cases) {
      const res = await t.request(method, p, opts);
      expect(res.status, `${method} ${p}`).toBe(status);
      expectCommonHeaders(res.headers, `${method} ${p}`);
      await res.arrayBuffer();
    }
  });

  it('are on the web app files, the service worker and missing files', async () => {
    for (const [p, status] of [
      ['/assets/index-abc.js', 200],
      ['/assets/index-abc.css', 200],
      ['/sw.js', 200],
      ['/assets/missing.js', 404],
      ['/favicon-missing.png', 404],
    ] as const) {
      const res = await t.request('GET', p);
      expect(res.status, p).toBe(status);
      expectCommonHeaders(res.headers, p);
      // only the page has a policy: a policy on sw.js would bind the service worker's own requests
      expect(res.headers.get('content-security-policy'), p).toBeNull();
      await res.arrayBuffer();
    }
  });

  it('are on the answers node gives to requests it cannot parse', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(t.server.port, '127.0.0.1');
      let text = '';
      socket.on('data', (c) => (text += c.toString()));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
      socket.write('NOT A REQUEST\r\n\r\n');
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toMatch(/\r\nX-Content-Type-Options: nosniff\r\n/i);
    expect(answer).toMatch(/\r\nReferrer-Policy: no-referrer\r\n/i);
  });

  it('put a policy with a fresh nonce on the web app, and that nonce on its scripts and styles', async () => {
    const nonces: string[] = [];
    for (const p of ['/', '/works', '/work/RJ123456']) {
      const res = await t.request('GET', p, { headers: { Accept: 'text/html' } });
      expect(res.status, p).toBe(200);
      expectCommonHeaders(res.headers, p);
      const csp = res.headers.get('content-security-policy') ?? '';
      const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(csp)?.[1];
      expect(nonce, csp).toBeTruthy();
      nonces.push(nonce!);
      const directives = Object.fromEntries(csp.split(/;\s*/).map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]));
      expect(directives).toMatchObject({
        'default-src': "'self'",
        'script-src': `'self' 'nonce-${nonce}'`,
        'style-src': `'self' 'nonce-${nonce}'`,
        'img-src': "'self' blob: data:",
        'media-src': "'self' blob:",
        'object-src': "'none'",
        'base-uri': "'self'",
        'frame-ancestors': "'none'",
      });
      expect(csp).not.toContain('unsafe-eval');
      expect(csp).not.toContain('unsafe-inline');
      const html = await res.text();
      expect(html).toContain(`<meta name="csp-nonce" nonce="${nonce}" />`);
      const tags = html.match(/<(script|style)\b[^>]*>/g) ?? [];
      expect(tags).toHaveLength(3);
      for (const tag of tags) expect(tag).toContain(`nonce="${nonce}"`);
      // the service worker finds the shell's assets by their src/href
      expect(html).toContain('src="/assets/index-abc.js"');
    }
    expect(new Set(nonces).size).toBe(nonces.length);
  });
});
