import type { Layer } from '@koa/router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/app.js';
import { createApiRoutes } from '../../server/http/app.js';
import { routePolicyOf } from '../../server/http/api-router.js';
import { httpLimits } from '../../server/http/limits.js';
import type { RoutePolicy } from '../../server/http/route-policy.js';
import { rawRequest, type RawResponse } from './raw-http.js';

/** The only routes that answer without a token. Adding a public route means adding it here, on purpose. */
const PUBLIC_ROUTES = ['GET /api/health', 'HEAD /api/health', 'POST /api/auth/me', 'GET /api/auth/me', 'HEAD /api/auth/me'];

interface RouteCase {
  method: string;
  path: string;
  policy: RoutePolicy;
}

/** `:id`, `:index`, `:keyword`… filled with sample values a handler would accept. */
const fill = (path: string) => path.replace(/:(\w+)/g, (_m, name: string) => (name === 'keyword' ? 'abc' : name === 'isAI' || name === 'index' ? '0' : '1'));

/** Spellings of a path that differ from the canonical one: letter case, percent-encoded letters, doubled slashes, dot segments. */
function variants(path: string): string[] {
  const segments = path.split('/').slice(1);
  const out = new Set<string>([path.toUpperCase(), `${path}/`, `/${path}`, path.replace('/api/', '/api//'), path.replace(/\/([^/]*)$/, '//$1')]);
  segments.forEach((segment, i) => {
    const at = segment.search(/[a-z]/i);
    if (at < 0) return;
    const swap = (s: string) => ['', ...segments.slice(0, i), s, ...segments.slice(i + 1)].join('/');
    const letter = segment[at];
    out.add(swap(segment.slice(0, at) + (letter === letter.toUpperCase() ? letter.toLowerCase() : letter.toUpperCase()) + segment.slice(at + 1)));
    const hex = letter.charCodeAt(0).toString(16);
    out.add(swap(`${segment.slice(0, at)}%${hex}${segment.slice(at + 1)}`));
    out.add(swap(`${segment.slice(0, at)}%${hex.toUpperCase()}${segment.slice(at + 1)}`));
  });
  const rest = path.slice('/api'.length);
  out.add(`/api/.${rest}`);
  out.add(`/api/x/..${rest}`);
  out.add(`/api/%2e${rest}`);
  out.add(`/api/x/%2e%2e${rest}`);
  out.add(`/./api${rest}`);
  out.add(path.replace(/\/([^/]*)$/, '/./$1'));
  out.delete(path);
  return [...out];
}

/** Run `fn` over `items`, `width` at a time. */
async function inBatches<T>(items: T[], width: number, fn: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += width) await Promise.all(items.slice(i, i + width).map(fn));
}

describe('route table: without a token only the declared public routes answer anything but 401', () => {
  let t: TestServer;
  let admin: string;
  let workerToken: string;
  let mediaToken: string;
  let cases: RouteCase[];

  beforeAll(async () => {
    t = await startTestServer();
    await t.addUser('admin', 'adminpass', 'admin');
    admin = await t.login('admin', 'adminpass');
    workerToken = (await t.app.services.workerTokens.create('route-table-worker')).token;
    mediaToken = (await t.json<{ token: string }>('GET', '/api/auth/media-token', { token: admin })).body.token;
    const router = createApiRoutes(t.app, httpLimits());
    cases = router.stack.flatMap((layer: Layer) => {
      const policy = routePolicyOf(layer);
      if (!policy) throw new Error(`route ${layer.methods.join(',')} ${layer.path} has no policy`);
      return layer.methods.map((method) => ({ method, path: String(layer.path), policy }));
    });
  });
  afterAll(() => t.close());

  const send = (c: RouteCase, path: string, headers: Record<string, string> = {}): Promise<RawResponse> =>
    rawRequest(t.server.port, c.method, path, { headers, body: ['POST', 'PUT', 'PATCH', 'DELETE'].includes(c.method) ? '{}' : undefined });

  const describeCase = (c: RouteCase, path: string, res: RawResponse) => `${c.method} ${path} → ${res.status} ${res.body.slice(0, 120)}`;

  it('covers the whole API, and exactly the listed routes are public', () => {
    expect(cases.length).toBeGreaterThan(50);
    const declaredPublic = cases.filter((c) => c.policy.access === 'public').map((c) => `${c.method} ${c.path}`);
    expect(declaredPublic.sort()).toEqual([...PUBLIC_ROUTES].sort());
    // the kikoeru paths that exist in two spellings on purpose
    const paths = new Set(cases.map((c) => `${c.method} ${c.path}`));
    for (const p of ['GET /api/tags/', 'GET /api/tags', 'POST /api/lyric/translate/acquire/', 'GET /api/lyric/translate/get/']) expect(paths).toContain(p);
  });

  it('answers 401 on every non-public route without a token, or with a garbage one', async () => {
    const wrong: string[] = [];
    await inBatches(
      cases.filter((c) => c.policy.access !== 'public'),
      8,
      async (c) => {
        const path = fill(c.path);
        for (const headers of [{}, { Authorization: 'Bearer garbage' }, { Authorization: 'Bearer a.b.c' }] as Record<string, string>[]) {
          const res = await send(c, path, headers);
          if (res.status !== 401 || (c.method !== 'HEAD' && !JSON.parse(res.body).error)) wrong.push(describeCase(c, path, res));
        }
      },
    );
    expect(wrong).toEqual([]);
  });

  it('never reaches a handler through another spelling of a path (case, %-encoding, //, dot segments, trailing slash)', async () => {
    const wrong: string[] = [];
    let sent = 0;
    await inBatches(cases, 8, async (c) => {
      for (const path of variants(fill(c.path))) {
        const res = await send(c, path);
        sent++;
        if (![401, 404, 405].includes(res.status)) wrong.push(describeCase(c, path, res));
        else if (c.method !== 'HEAD' && typeof JSON.parse(res.body).error !== 'string') wrong.push(describeCase(c, path, res));
      }
    });
    expect(sent).toBeGreaterThan(500);
    expect(wrong).toEqual([]);
  });

  it('takes ?token= only where the route declares it, and worker tokens only on the worker routes', async () => {
    const wrong: string[] = [];
    await inBatches(
      cases.filter((c) => c.policy.access !== 'public'),
      8,
      async (c) => {
        const path = fill(c.path);
        const byQuery = await send(c, `${path}?token=${encodeURIComponent(admin)}`);
        if ((byQuery.status === 401) === c.policy.queryToken) wrong.push(`query token: ${describeCase(c, path, byQuery)}`);
        // a media-scope token (short-lived, for URLs) opens exactly the routes that take `?token=`
        const byMedia = await send(c, `${path}?token=${encodeURIComponent(mediaToken)}`);
        if ((byMedia.status === 401) === c.policy.queryToken) wrong.push(`media token: ${describeCase(c, path, byMedia)}`);
        const byWorker = await send(c, path, { Authorization: `Bearer ${workerToken}` });
        if ((byWorker.status === 401) === (c.policy.access === 'worker')) wrong.push(`worker token: ${describeCase(c, path, byWorker)}`);
      },
    );
    expect(wrong).toEqual([]);
    const queryRoutes = cases.filter((c) => c.policy.queryToken && c.method === 'GET').map((c) => c.path);
    expect(queryRoutes.sort()).toEqual(
      [
        '/api/cover/:id',
        '/api/media/check-lrc/:id/:index',
        '/api/media/download-work/:id',
        '/api/media/download/:id/:index',
        '/api/media/download/:id/:index/:name',
        '/api/media/fetch-lrc/:id/:ref/:isAI',
        '/api/media/query-lrc/:id/:index',
        '/api/media/small-img/:id/:index',
        '/api/media/stream/:id/:index',
        '/api/media/stream/:id/:index/:name',
      ].sort(),
    );
  });

  it('answers GET /API/works with Accept: application/json as a 404, not the library', async () => {
    const res = await rawRequest(t.server.port, 'GET', '/API/works');
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body)).toEqual({ error: expect.stringContaining('接口不存在'), code: 'ROUTE_NOT_FOUND' });
  });

  it('keeps the favourites alias of the kikoeru web client behind a login', async () => {
    const anonymous = await rawRequest(t.server.port, 'GET', '/favourites/api/review');
    expect(anonymous.status).toBe(401);
    const res = await rawRequest(t.server.port, 'GET', '/favourites/progress/listening/api/histroy', { headers: { Authorization: `Bearer ${admin}` } });
    expect(res.status).toBe(200);
  });
});
