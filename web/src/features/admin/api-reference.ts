/**
 * The API reference of /admin/api: the server's OpenAPI document (GET /api/openapi.json, built from
 * its route table, docs/API.md#api-reference) read into areas, endpoints and field rows. Pure.
 */

export type JsonSchema = { [key: string]: unknown };
export type RouteAccess = 'public' | 'login' | 'admin' | 'worker';

interface OpenApiParameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  description?: string;
  schema: JsonSchema;
}

interface OpenApiOperation {
  summary: string;
  tags?: string[];
  'x-access'?: RouteAccess;
  'x-query-token'?: boolean;
  'x-body-limit'?: number;
  parameters?: OpenApiParameter[];
  requestBody?: { required: boolean; content: Record<string, { schema: JsonSchema }> };
}

/** The parts of GET /api/openapi.json the page reads. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  tags?: { name: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
}

/** One parameter or body field, flattened (`tags[].name`). */
export interface FieldRow {
  name: string;
  /** `path`, `query` or `body`. */
  in: 'path' | 'query' | 'body';
  type: string;
  required: boolean;
  /** Limits as short texts: length, range, pattern, allowed values, default. */
  constraints: string[];
  description?: string;
}

export interface Endpoint {
  method: string;
  path: string;
  summary: string;
  access: RouteAccess;
  queryToken: boolean;
  bodyLimit?: number;
  formBody: boolean;
  bodyRequired: boolean;
  fields: FieldRow[];
}

export interface ApiArea {
  name: string;
  endpoints: Endpoint[];
}

const METHOD_ORDER = ['get', 'post', 'put', 'patch', 'delete'];
/** Nested bodies are shown this many levels deep; deeper parts are one `object` row. */
const MAX_DEPTH = 3;

const isSchema = (v: unknown): v is JsonSchema => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** `string`, `number | string`, `object[]`, `any`. */
export function typeOf(schema: JsonSchema): string {
  if (Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf)) {
    const parts = ((schema.anyOf ?? schema.oneOf) as unknown[]).filter(isSchema).map(typeOf);
    return [...new Set(parts)].join(' | ') || 'any';
  }
  if (Array.isArray(schema.type)) return schema.type.join(' | ');
  if (schema.type === 'array') return `${isSchema(schema.items) ? typeOf(schema.items) : 'any'}[]`;
  if (typeof schema.type === 'string') return schema.type;
  if ('const' in schema) return typeof schema.const;
  if (Array.isArray(schema.enum)) return 'enum';
  return 'any';
}

const show = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
const range = (min: unknown, max: unknown) => (min !== undefined && max !== undefined ? `${show(min)}–${show(max)}` : min !== undefined ? `≥ ${show(min)}` : `≤ ${show(max)}`);

/** The limits a schema states, as short texts (labels from the page's strings). */
export function constraintsOf(schema: JsonSchema, label: { length: string; range: string; items: string; pattern: string; values: string; default: string }): string[] {
  const out: string[] = [];
  const variants = [schema, ...(Array.isArray(schema.anyOf) ? schema.anyOf.filter(isSchema) : [])];
  for (const s of variants) {
    if (s.minLength !== undefined || s.maxLength !== undefined) out.push(`${label.length} ${range(s.minLength, s.maxLength)}`);
    if (s.minimum !== undefined || s.maximum !== undefined) out.push(`${label.range} ${range(s.minimum, s.maximum)}`);
    if (s.minItems !== undefined || s.maxItems !== undefined) out.push(`${label.items} ${range(s.minItems, s.maxItems)}`);
    if (typeof s.pattern === 'string') out.push(`${label.pattern} ${s.pattern}`);
    if (Array.isArray(s.enum)) out.push(`${label.values} ${s.enum.map(show).join(', ')}`);
    if ('const' in s) out.push(`${label.values} ${show(s.const)}`);
  }
  if ('default' in schema) out.push(`${label.default} ${show(schema.default)}`);
  return [...new Set(out)];
}

type Labels = Parameters<typeof constraintsOf>[1];

/** The rows of a body schema: one per property, nested objects and arrays of objects as `a.b` / `a[].b`. */
export function bodyFields(schema: JsonSchema, labels: Labels, prefix = '', depth = 0): FieldRow[] {
  const properties = isSchema(schema.properties) ? schema.properties : null;
  if (!properties) return prefix ? [] : [{ name: '(body)', in: 'body', type: typeOf(schema), required: true, constraints: constraintsOf(schema, labels), description: str(schema.description) }];
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const rows: FieldRow[] = [];
  for (const [key, raw] of Object.entries(properties)) {
    if (!isSchema(raw)) continue;
    const name = prefix + key;
    rows.push({ name, in: 'body', type: typeOf(raw), required: required.has(key), constraints: constraintsOf(raw, labels), description: str(raw.description) });
    if (depth + 1 >= MAX_DEPTH) continue;
    if (isSchema(raw.properties)) rows.push(...bodyFields(raw, labels, `${name}.`, depth + 1));
    else if (raw.type === 'array' && isSchema(raw.items) && isSchema(raw.items.properties)) rows.push(...bodyFields(raw.items, labels, `${name}[].`, depth + 1));
  }
  return rows;
}

/** The document as areas (in the server's order) of endpoints (by path, then method). */
export function apiAreas(doc: OpenApiDocument, labels: Labels): ApiArea[] {
  const areas = new Map<string, Endpoint[]>((doc.tags ?? []).map((tag) => [tag.name, []]));
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const fields: FieldRow[] = (op.parameters ?? []).map((p) => ({
        name: p.name,
        in: p.in,
        type: typeOf(p.schema),
        required: p.required,
        constraints: constraintsOf(p.schema, labels),
        description: p.description ?? str(p.schema.description),
      }));
      const content = op.requestBody?.content ?? {};
      const body = content['application/json']?.schema;
      if (body) fields.push(...bodyFields(body, labels));
      const area = op.tags?.[0] ?? 'other';
      if (!areas.has(area)) areas.set(area, []);
      areas.get(area)!.push({
        method: method.toUpperCase(),
        path,
        summary: op.summary,
        access: op['x-access'] ?? 'login',
        queryToken: op['x-query-token'] ?? false,
        bodyLimit: op['x-body-limit'],
        formBody: 'application/x-www-form-urlencoded' in content,
        bodyRequired: op.requestBody?.required ?? false,
        fields,
      });
    }
  }
  const methodRank = (m: string) => METHOD_ORDER.indexOf(m.toLowerCase());
  return [...areas]
    .filter(([, endpoints]) => endpoints.length > 0)
    .map(([name, endpoints]) => ({ name, endpoints: endpoints.sort((a, b) => a.path.localeCompare(b.path) || methodRank(a.method) - methodRank(b.method)) }));
}

/** Endpoints whose path or summary contains `text` (case-insensitive); empty text keeps all. */
export function filterAreas(areas: ApiArea[], text: string): ApiArea[] {
  const needle = text.trim().toLowerCase();
  if (!needle) return areas;
  return areas
    .map((area) => ({ ...area, endpoints: area.endpoints.filter((e) => e.path.toLowerCase().includes(needle) || e.summary.toLowerCase().includes(needle) || e.method.toLowerCase() === needle) }))
    .filter((area) => area.endpoints.length > 0);
}
