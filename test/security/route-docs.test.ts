import type { Layer, Router } from '@koa/router';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/app.js';
import { createApiRoutes } from '../../server/http/app.js';
import { createApiRouter, enforceRoutePolicies, registerArea, routeDocOf, routePolicyOf } from '../../server/http/api-router.js';
import { WritePace } from '../../server/http/write-pace.js';
import { BodyBudget } from '../../server/http/body.js';
import { httpLimits } from '../../server/http/limits.js';
import { route } from '../../server/http/route-policy.js';
import { buildOpenApi, inputSchema, openApiPath, routeAccess, type OpenApiDocument, type OpenApiOperation } from '../../server/http/openapi.js';

/** `:id`, `:index`, `:keyword`… filled with sample values a handler would accept. */
const fill = (path: string) => path.replace(/:(\w+)/g, (_m, name: string) => (name === 'keyword' ? 'abc' : name === 'isAI' || name === 'index' ? '0' : '1'));

/** The forbidden messages of the services' admin checks ("只有管理员能…", "只有 admin 账号能…"). */
const ADMIN_ONLY = /^只有\s*(管理员|admin 账号)能/;

interface Op {
  layer: Layer;
  method: string;
  path: string;
}

/** Every (route, method) of the router the document must hold; HEAD goes with its GET. */
function operationsOf(router: Router): Op[] {
  return router.stack.flatMap((layer: Layer) => layer.methods.filter((m) => !(m === 'HEAD' && layer.methods.includes('GET'))).map((method) => ({ layer, method, path: String(layer.path) })));
}

const find = (doc: OpenApiDocument, method: string, koaPath: string): OpenApiOperation | undefined => doc.paths[openApiPath(koaPath).path]?.[method.toLowerCase()];

describe('API reference: GET /api/openapi.json is built from the router', () => {
  let t: TestServer;
  let alice: string;
  let router: Router;
  let ops: Op[];
  let doc: OpenApiDocument;
  let text: string;

  beforeAll(async () => {
    t = await startTestServer();
    await t.addUser('alice', 'alicepass', 'user');
    alice = await t.login('alice', 'alicepass');
    router = createApiRoutes(t.app, httpLimits());
    ops = operationsOf(router);
    const res = await t.request('GET', '/api/openapi.json', { token: alice });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    text = await res.text();
    doc = JSON.parse(text) as OpenApiDocument;
  });
  afterAll(() => t.close());

  it('holds every route of the router (method, path, area, access) with the summary it declared, and nothing else', () => {
    expect(ops.length).toBeGreaterThan(50);
    expect(doc.openapi).toBe('3.1.0');
    const missing: string[] = [];
    const undocumented: string[] = [];
    for (const { layer, method, path } of ops) {
      const op = find(doc, method, path);
      if (!op) {
        missing.push(`${method} ${path}`);
        continue;
      }
      const declared = routeDocOf(layer);
      if (!declared?.summary || op['x-undocumented']) undocumented.push(`${method} ${path}`);
      else expect(op.summary).toBe(declared.summary);
      expect(op['x-access']).toBe(routeAccess(routePolicyOf(layer)!, declared));
      expect(op.tags).toHaveLength(1);
    }
    expect(missing).toEqual([]);
    // a new route declares what it is: router.get(path, route({ summary: '…', query, body }), handler)
    expect(undocumented).toEqual([]);
    const documented = Object.values(doc.paths).reduce((n, methods) => n + Object.keys(methods).length, 0);
    expect(documented).toBe(ops.length);
    expect(doc.tags.map((x) => x.name)).toEqual(expect.arrayContaining(['system', 'session', 'works', 'labels', 'media', 'ai-lyrics', 'edit', 'folders']));
  });

  it('spells Koa paths the OpenAPI way and gives each path parameter', () => {
    expect(openApiPath('/api/media/fetch-lrc/:id/:ref/:isAI')).toEqual({ path: '/api/media/fetch-lrc/{id}/{ref}/{isAI}', params: ['id', 'ref', 'isAI'] });
    expect(Object.keys(doc.paths).filter((p) => p.includes(':'))).toEqual([]);
    for (const [path, methods] of Object.entries(doc.paths)) {
      const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      for (const op of Object.values(methods)) expect(op.parameters.filter((p) => p.in === 'path').map((p) => p.name)).toEqual(names);
    }
    // a path parameter without a schema (the Flutter file name) is still listed
    expect(doc.paths['/api/media/stream/{id}/{index}/{name}'].get.parameters.map((p) => p.name)).toEqual(['id', 'index', 'name']);
  });

  it('describes known schemas, access and the error body', () => {
    const error = doc.components.schemas.Error as { properties: Record<string, { enum?: string[] }>; required: string[] };
    expect(error.required).toEqual(['error', 'code']);
    expect(Object.keys(error.properties)).toEqual(['error', 'code', 'field', 'params', 'errors']);
    expect(error.properties.code.enum).toContain('WORK_NOT_FOUND');

    const works = doc.paths['/api/works'].get;
    expect(works['x-access']).toBe('login');
    expect(works.security).toEqual([{ bearer: [] }]);
    const order = works.parameters.find((p) => p.name === 'order');
    expect(order).toMatchObject({ in: 'query', required: false, schema: { type: 'string' } });
    expect(order?.description).toContain('betterRandom');
    expect(doc.paths['/api/search'].get.parameters.map((p) => p.name)).toEqual(expect.arrayContaining(['page', 'order', 'keyword', 'isAdvance']));

    const edit = doc.paths['/api/edit/work/{id}'].post;
    expect(edit['x-access']).toBe('admin');
    expect(edit.parameters).toEqual([{ name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^\\d{1,15}$' } }]);
    const body = edit.requestBody?.content['application/json'].schema as { properties: Record<string, Record<string, unknown>> };
    // the reference says what the schema refuses: control characters (server/domain/text-rules.ts)
    expect(body.properties.title).toEqual({ type: 'string', minLength: 1, maxLength: 1000, pattern: '^\\P{Cc}*$' });
    expect(body.properties.tags).toMatchObject({ type: 'array', maxItems: 200 });
    expect(edit['x-body-limit']).toBe(256 * 1024);
    expect(edit.responses['403'].content?.['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });

    const candidates = doc.paths['/api/edit/candidates'].get.parameters;
    expect(candidates.find((p) => p.name === 'type')).toMatchObject({ required: true, schema: { enum: ['tag', 'tags', 'va', 'vas', 'circle', 'circles'] } });
    expect(candidates.find((p) => p.name === 'limit')).toMatchObject({ required: false });

    const deleteUsers = doc.paths['/api/credentials/user'].delete;
    expect(deleteUsers.requestBody?.required).toBe(true);
    expect(deleteUsers.requestBody?.content['application/json'].schema).toMatchObject({ required: ['users'], properties: { users: { type: 'array', minItems: 1 } } });
    // the task ids of a delete may be left out: the body is optional
    expect(doc.paths['/api/lyric/translate/{id}'].delete.requestBody?.required).toBe(false);

    const acquire = doc.paths['/api/lyric/translate/acquire'].post;
    expect(acquire['x-access']).toBe('worker');
    expect(Object.keys(acquire.requestBody?.content ?? {})).toEqual(['application/json', 'application/x-www-form-urlencoded']);

    const health = doc.paths['/api/health'].get;
    expect(health['x-access']).toBe('public');
    expect(health.security).toEqual([]);
    expect(health.responses['401']).toBeUndefined();
    expect(doc.paths['/api/cover/{id}'].get.security).toEqual([{ bearer: [] }, { queryToken: [] }]);
    expect(doc.paths['/api/openapi.json'].get['x-access']).toBe('login');
  });

  it('needs a login, and answers from one build', async () => {
    const anonymous = await t.json('GET', '/api/openapi.json');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ error: expect.any(String), code: 'TOKEN_MISSING' });
    const again = await t.request('GET', '/api/openapi.json', { token: alice });
    expect(await again.text()).toBe(text);
  });

  it('marks admin exactly the routes that refuse non-admins, and they refuse before checking any input', async () => {
    const wrong: string[] = [];
    const candidates = ops.filter(({ layer, method, path }) => {
      const policy = routePolicyOf(layer)!;
      // logging out (here or everywhere) would revoke the token the other requests use
      return policy.access === 'login' && !(method === 'POST' && (path === '/api/auth/logout' || path === '/api/auth/me/logout-all'));
    });
    expect(candidates.length).toBeGreaterThan(30);
    for (let i = 0; i < candidates.length; i += 6) {
      await Promise.all(
        candidates.slice(i, i + 6).map(async ({ layer, method, path }) => {
          const sendsBody = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(method);
          // no query and an empty body: an admin-only route answers a non-admin 403 whatever the input
          const res = await t.json<{ error?: string }>(method, fill(path), { token: alice, body: sendsBody ? {} : undefined });
          const refusedAsNonAdmin = res.status === 403 && ADMIN_ONLY.test(res.body.error ?? '');
          if (Boolean(routeDocOf(layer)?.admin) !== refusedAsNonAdmin) wrong.push(`${method} ${path} (admin: ${Boolean(routeDocOf(layer)?.admin)}) → ${res.status} ${JSON.stringify(res.body)}`);
        }),
      );
    }
    expect(wrong).toEqual([]);
  });

  it('never throws on a schema JSON Schema cannot express, and stays bounded', () => {
    type Tree = { children: Tree[] };
    const tree: z.ZodType<Tree> = z.lazy(() => z.object({ children: z.array(tree) }));
    const awkward: z.ZodType[] = [
      tree,
      z.date(),
      z.bigint(),
      z.custom<string>(() => true),
      z.map(z.string(), z.number()),
      z.set(z.string()),
      z.symbol(),
      z.nan(),
      z.undefined(),
      z.never(),
      z.transform((v) => v),
      z.string().transform(Number).pipe(z.number().int()),
      z.object({ when: z.date(), n: z.bigint() }).transform((o) => o.n),
      z.string().refine(() => {
        throw new Error('a refinement that throws');
      }),
    ];
    for (const schema of awkward) expect(typeof inputSchema(schema)).toBe('object');
    expect(inputSchema(tree)).toEqual({ description: expect.any(String) });

    const weird = createApiRouter();
    registerArea(weird, 'weird', () => {
      awkward.forEach((schema, i) => {
        weird.post(`/weird/${i}/:id`, route({ summary: `怪异结构 ${i}`, params: schema, query: [schema, schema], body: schema }), (ctx) => {
          ctx.body = {};
        });
      });
      weird.get('/undeclared', (ctx) => {
        ctx.body = {};
      });
    });
    enforceRoutePolicies(weird, {
      users: t.app.services.users,
      authEnabled: () => true,
      workers: t.app.services.workerTokens,
      bodies: new BodyBudget(1024 * 1024),
      bodyTimeoutMs: 1000,
      writePace: new WritePace({ bytesPerSecond: 1024, burstBytes: 1024 * 1024, maxWaitMs: 1000 }),
    });
    const built = buildOpenApi(weird, { version: 'test' });
    const json = JSON.stringify(built);
    expect(json.length).toBeLessThan(64 * 1024);
    expect(Object.keys(built.paths)).toHaveLength(awkward.length + 1);
    // an undeclared route is listed all the same, marked so the test above can refuse it
    expect(built.paths['/api/undeclared'].get).toMatchObject({ summary: 'GET /api/undeclared', 'x-undocumented': true, 'x-access': 'login' });
    expect(built.paths['/api/weird/0/{id}'].post.parameters[0]).toEqual({ name: 'id', in: 'path', required: true, schema: { type: 'string' } });
  });
});
