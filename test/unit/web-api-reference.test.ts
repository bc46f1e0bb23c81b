/** The admin API page's reading of the OpenAPI document: types, limits, nested body fields, areas, the filter. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { apiAreas, bodyFields, constraintsOf, filterAreas, typeOf, type OpenApiDocument } from '../../web/src/features/admin/api-reference.js';
import { inputSchema } from '../../server/http/openapi.js';
import { editWorkBody } from '../../server/contract/requests/edit.js';
import { zhCN } from '../../web/src/i18n/zh-CN.js';

const labels = zhCN.dashboard.api.limits;

describe('API reference fields', () => {
  it('names types, unions and arrays', () => {
    expect(typeOf({ type: 'string' })).toBe('string');
    expect(typeOf({ anyOf: [{ type: 'number' }, { type: 'string' }] })).toBe('number | string');
    expect(typeOf({ type: 'array', items: { type: 'object' } })).toBe('object[]');
    expect(typeOf({})).toBe('any');
  });

  it('states lengths, ranges, item counts, patterns, values and defaults', () => {
    expect(constraintsOf({ type: 'string', minLength: 1, maxLength: 1000 }, labels)).toEqual(['长度 1–1000']);
    expect(constraintsOf({ type: 'integer', minimum: 1 }, labels)).toEqual(['范围 ≥ 1']);
    expect(constraintsOf({ type: 'array', maxItems: 200 }, labels)).toEqual(['项数 ≤ 200']);
    expect(constraintsOf({ type: 'string', enum: ['asc', 'desc'], default: 'desc' }, labels)).toEqual(['可选值 asc, desc', '默认 desc']);
    expect(constraintsOf({ anyOf: [{ type: 'number' }, { type: 'string', pattern: '^\\d+$' }] }, labels)).toEqual(['格式 ^\\d+$']);
  });

  it('flattens a real body schema into nested rows, bounded in depth', () => {
    const rows = bodyFields(inputSchema(editWorkBody), labels);
    expect(rows.map((r) => r.name)).toEqual(['title', 'circle', 'circle.id', 'circle.name', 'tags', 'tags[].id', 'tags[].name', 'vas', 'vas[].id', 'vas[].name']);
    expect(rows.find((r) => r.name === 'tags[].name')).toMatchObject({ in: 'body', type: 'string', required: true, constraints: ['长度 ≤ 100', '格式 ^\\P{Cc}*$'] });
    expect(rows.find((r) => r.name === 'title')).toMatchObject({ required: false, constraints: ['长度 1–1000', '格式 ^\\P{Cc}*$'] });
    type Deep = { next?: Deep };
    const deep: z.ZodType<Deep> = z.object({ next: z.object({ next: z.object({ next: z.object({ next: z.object({}) }) }) }) });
    expect(bodyFields(inputSchema(deep), labels).map((r) => r.name)).toEqual(['next', 'next.next', 'next.next.next']);
  });
});

describe('API reference areas', () => {
  const doc: OpenApiDocument = {
    openapi: '3.1.0',
    info: { title: 'kikoplay API', version: '1.0.0' },
    tags: [{ name: 'works' }, { name: 'system' }, { name: 'empty' }],
    paths: {
      '/api/work/{id}': { get: { summary: '作品详情', tags: ['works'], 'x-access': 'login', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }] } },
      '/api/works': { get: { summary: '作品列表', tags: ['works'], 'x-access': 'login' } },
      '/api/health': { get: { summary: '健康检查', tags: ['system'], 'x-access': 'public' } },
      '/api/config/admin': {
        put: { summary: '修改管理配置', tags: ['system'], 'x-access': 'admin', 'x-body-limit': 262144 },
        get: { summary: '读取管理配置', tags: ['system'], 'x-access': 'admin' },
      },
    },
  };

  it('groups by area in the server order, sorted by path then method, without empty areas', () => {
    const areas = apiAreas(doc, labels);
    expect(areas.map((a) => a.name)).toEqual(['works', 'system']);
    expect(areas[0].endpoints.map((e) => e.path)).toEqual(['/api/work/{id}', '/api/works']);
    expect(areas[1].endpoints.map((e) => `${e.method} ${e.path}`)).toEqual(['GET /api/config/admin', 'PUT /api/config/admin', 'GET /api/health']);
    expect(areas[0].endpoints[0].fields).toEqual([{ name: 'id', in: 'path', type: 'string', required: true, constraints: [], description: undefined }]);
    expect(areas[1].endpoints[1]).toMatchObject({ access: 'admin', bodyLimit: 262144 });
  });

  it('filters by path, summary or method', () => {
    const areas = apiAreas(doc, labels);
    expect(filterAreas(areas, ' ').length).toBe(2);
    expect(filterAreas(areas, '/API/HEALTH').flatMap((a) => a.endpoints.map((e) => e.path))).toEqual(['/api/health']);
    expect(filterAreas(areas, '作品').map((a) => a.name)).toEqual(['works']);
    expect(filterAreas(areas, 'put').flatMap((a) => a.endpoints.map((e) => e.method))).toEqual(['PUT']);
  });
});
