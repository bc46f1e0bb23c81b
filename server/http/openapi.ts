import type { Layer, Router } from '@koa/router';
import { z } from 'zod';
import { API_ERROR_CODES } from '../domain/error-codes.js';
import { routeAreaOf, routeDocOf, routePolicyOf } from './api-router.js';
import { DEFAULT_ROUTE_POLICY, type RouteDoc, type RoutePolicy } from './route-policy.js';

/**
 * The API reference as an OpenAPI 3.1 document, built from the API router itself: every route on it
 * (path, methods, area), its policy (who may call it, `?token=`, body limit, forms) and what it
 * declared in `route({...})` (summary, admin only, the zod schemas of its params, query and body).
 * A route registered without a summary still appears (with `x-undocumented`); the route-docs test
 * refuses that. Served at `GET /api/openapi.json` (docs/API.md#api-reference).
 */

/** Who may call a route: `admin` is a `login` route whose service lets only admins through. */
export type RouteAccess = 'public' | 'login' | 'admin' | 'worker' | 'subsonic';

export type JsonSchema = Record<string, unknown>;

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  description?: string;
  schema: JsonSchema;
}

export interface OpenApiOperation {
  operationId: string;
  summary: string;
  tags: string[];
  'x-access': RouteAccess;
  'x-query-token': boolean;
  'x-body-limit'?: number;
  /** The body is stored for the caller and counts against the per-user write pace. */
  'x-write-paced'?: true;
  'x-undocumented'?: true;
  security: Record<string, string[]>[];
  parameters: OpenApiParameter[];
  requestBody?: { required: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: JsonSchema }> }>;
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  tags: { name: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, JsonSchema> };
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** The error body: the text (kikoeru clients show it), the stable code (docs/API.md "Errors"), the field and sentence parameters. */
const ERROR_SCHEMA = {
  type: 'object',
  properties: {
    error: { type: 'string' },
    code: { type: 'string', enum: API_ERROR_CODES },
    field: { type: 'string' },
    params: { type: 'object', additionalProperties: { oneOf: [{ type: 'string' }, { type: 'number' }] } },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        properties: { msg: { type: 'string' }, param: { type: 'string' }, location: { type: 'string' }, code: { type: 'string', enum: API_ERROR_CODES } },
        required: ['msg', 'param', 'location'],
      },
    },
  },
  required: ['error', 'code'],
};
const ERROR_REF = { $ref: '#/components/schemas/Error' };
const UNDESCRIBABLE: JsonSchema = { description: '此结构无法用 JSON Schema 描述' };

/** A Koa path (`/api/work/:id`) in OpenAPI's spelling (`/api/work/{id}`), with its parameter names. */
export function openApiPath(path: string): { path: string; params: string[] } {
  const params: string[] = [];
  const out = path.replace(/[:*](\w+)/g, (_m, name: string) => {
    params.push(name);
    return `{${name}}`;
  });
  return { path: out, params };
}

/**
 * The JSON Schema of what a client sends for `schema` (zod's input side: `"12"` for a path id the
 * handler turns into 12). Never throws: what JSON Schema cannot say (a transform's output, a date, a
 * custom check) is left open, and a schema zod refuses to convert (a recursive one) is described as such.
 */
export function inputSchema(schema: z.ZodType): JsonSchema {
  try {
    const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12', cycles: 'throw', reused: 'inline' }) as JsonSchema;
    delete json.$schema;
    return json;
  } catch {
    return { ...UNDESCRIBABLE };
  }
}

const isSchemaList = (s: z.ZodType | readonly z.ZodType[]): s is readonly z.ZodType[] => Array.isArray(s);

/** The parameters of an object schema (path or query), one per property; other shapes give none. */
function parametersOf(schema: z.ZodType | readonly z.ZodType[] | undefined, where: 'path' | 'query'): OpenApiParameter[] {
  if (!schema) return [];
  if (isSchemaList(schema)) return schema.flatMap((s) => parametersOf(s, where));
  const json = inputSchema(schema);
  const properties = json.properties;
  if (json.type !== 'object' || !properties || typeof properties !== 'object') return [];
  const required = new Set(Array.isArray(json.required) ? (json.required as string[]) : []);
  return Object.entries(properties as Record<string, JsonSchema>).map(([name, property]) => {
    const param: OpenApiParameter = { name, in: where, required: where === 'path' || required.has(name), schema: property };
    if (typeof property.description === 'string') param.description = property.description;
    return param;
  });
}

export function routeAccess(policy: RoutePolicy, doc: RouteDoc | undefined): RouteAccess {
  if (policy.access === 'login' && doc?.admin) return 'admin';
  return policy.access;
}

function securityOf(policy: RoutePolicy): Record<string, string[]>[] {
  if (policy.access === 'public') return [];
  const out: Record<string, string[]>[] = [{ bearer: [] }];
  if (policy.queryToken) out.push({ queryToken: [] });
  return out;
}

/** Whether the handler gets by without a body (it reads a missing body as `{}`). */
function acceptsEmpty(schema: z.ZodType): boolean {
  try {
    return schema.safeParse({}).success;
  } catch {
    return false;
  }
}

const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: ERROR_REF } } });

function operation(layer: Layer, method: string, path: string): OpenApiOperation {
  const policy = routePolicyOf(layer) ?? DEFAULT_ROUTE_POLICY;
  const doc = routeDocOf(layer);
  const access = routeAccess(policy, doc);
  const { params: pathParams } = openApiPath(path);
  const declared = parametersOf(doc?.params, 'path');
  const parameters: OpenApiParameter[] = pathParams.map((name) => declared.find((p) => p.name === name) ?? { name, in: 'path', required: true, schema: { type: 'string' } });
  parameters.push(...parametersOf(doc?.query, 'query'));
  const takesBody = BODY_METHODS.has(method);
  const op: OpenApiOperation = {
    operationId: `${method.toLowerCase()}${path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
    summary: doc?.summary ?? `${method} ${path}`,
    tags: [routeAreaOf(layer) ?? 'other'],
    'x-access': access,
    'x-query-token': policy.queryToken,
    security: securityOf(policy),
    parameters,
    responses: { '200': { description: '成功' } },
  };
  if (!doc) op['x-undocumented'] = true;
  if (takesBody) op['x-body-limit'] = policy.bodyLimit;
  if (takesBody && policy.writePaced) op['x-write-paced'] = true;
  if (takesBody && doc?.body) {
    const schema = inputSchema(doc.body);
    const content: Record<string, { schema: JsonSchema }> = { 'application/json': { schema } };
    if (policy.form) content['application/x-www-form-urlencoded'] = { schema };
    op.requestBody = { required: !acceptsEmpty(doc.body), content };
  }
  if (doc?.params || doc?.query || doc?.body) op.responses['400'] = errorResponse('参数无效');
  if (access !== 'public') op.responses['401'] = errorResponse('未登录或令牌无效');
  if (access === 'admin') op.responses['403'] = errorResponse('只有管理员能调用');
  if (takesBody) op.responses['413'] = errorResponse('请求体超过上限');
  op.responses['4XX'] = errorResponse('其他错误（如 404 不存在、409 冲突、429 请求过多）');
  return op;
}

/**
 * Build the document from `router` (after `enforceRoutePolicies`). Bounded by the routes and their
 * schemas; never throws for any schema (see `inputSchema`).
 */
export function buildOpenApi(router: Router, info: { version: string }): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  const tags: string[] = [];
  for (const layer of router.stack) {
    const { path } = openApiPath(String(layer.path));
    const area = routeAreaOf(layer) ?? 'other';
    if (!tags.includes(area)) tags.push(area);
    for (const method of layer.methods) {
      // HEAD is answered by every GET route
      if (method === 'HEAD' && layer.methods.includes('GET')) continue;
      (paths[path] ??= {})[method.toLowerCase()] = operation(layer, method, String(layer.path));
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'kikoplay API',
      version: info.version,
      description: 'kikoplay 的 HTTP 接口，由服务器的路由表和请求结构生成。x-access：public 无需登录，login 需要登录，admin 仅管理员，worker 登录或工作节点令牌。',
    },
    tags: tags.map((name) => ({ name })),
    paths,
    components: {
      schemas: { Error: ERROR_SCHEMA },
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: '登录令牌（Authorization: Bearer …）；worker 接口也接受工作节点令牌' },
        queryToken: { type: 'apiKey', in: 'query', name: 'token', description: '媒体令牌或登录令牌，仅用于媒体、封面、下载和歌词查询地址' },
      },
    },
  };
}
