import type { Middleware } from 'koa';
import type { z } from 'zod';
import { DEFAULT_BODY_LIMIT } from './limits.js';

/**
 * Who may call a route and what body it takes. Every API route has one: a plain
 * `router.get(path, handler)` gets the default (a valid login token when auth is on, JSON bodies up to
 * 16 KB); a route that needs anything else says so at registration with `route({...})` as its first
 * handler. The access check runs before any byte of the body is read.
 */
export interface RoutePolicy {
  /**
   * - `login` (default): a valid login token when auth is on; anything else is a 401.
   * - `public`: answered without a token; a token sent along is not looked at.
   * - `worker`: a login token or a worker token (the AI worker endpoints, the only place worker tokens work).
   * - `subsonic`: Subsonic credentials in the query or form body (`apiKey`, or `u` with the user's
   *   Subsonic password); only the `/rest` routes. The body is read (within `bodyLimit`) before the check.
   */
  access: 'login' | 'public' | 'worker' | 'subsonic';
  /** `?token=` may stand in for the Authorization header (for elements that cannot send headers: media, covers). */
  queryToken: boolean;
  /** The largest body the route reads, in bytes (JSON; POST, PUT, PATCH, DELETE only). */
  bodyLimit: number;
  /** The route also takes `application/x-www-form-urlencoded` bodies (only where kikoeru clients send forms). */
  form: boolean;
  /**
   * The body is stored for the calling user (play states, reviews): its size counts against the user's
   * write pace (http/write-pace.ts), booked after the access check and before a byte is read.
   */
  writePaced: boolean;
  /** The 403 text for anyone but an admin (from the declaration's `admin`), or null when anyone may call. */
  adminOnly: string | null;
}

/** The 403 text of an admin-only route that declares none of its own. */
export const ADMIN_ONLY_MESSAGE = '只有管理员能进行此操作.';

export const DEFAULT_ROUTE_POLICY: RoutePolicy = { access: 'login', queryToken: false, bodyLimit: DEFAULT_BODY_LIMIT, form: false, writePaced: false, adminOnly: null };

/**
 * What the API reference says about a route (`GET /api/openapi.json`, built by `openapi.ts` from the
 * router). Declared with the policy in `route({...})`; the schemas are the ones the handler validates
 * with (`server/contract/requests/<module>.ts`).
 */
export interface RouteDoc {
  /** One line in Chinese, shown on the admin API page. */
  summary: string;
  /**
   * Only admins get through: the route's guard answers everyone else 403 — after the access check and
   * before a byte of the body is read or any input is validated — with this text (`true`: a general one).
   * The service keeps its own check (the CLI calls it directly); `test/security/route-docs.test.ts`
   * holds every route to it.
   */
  admin?: boolean | string;
  /** Path parameters (`:id` …), query (several schemas when the handler checks it with more than one) and JSON body, as the handler validates them. */
  params?: z.ZodType;
  query?: z.ZodType | readonly z.ZodType[];
  body?: z.ZodType;
}

export type RouteDeclaration = Partial<RoutePolicy> & Partial<RouteDoc>;

/** The policy part of a declaration (the rest documents the route). */
export function policyOf(declaration: RouteDeclaration | undefined): RoutePolicy {
  const d: RouteDeclaration = declaration ?? {};
  const p = DEFAULT_ROUTE_POLICY;
  const adminOnly = d.admin ? (typeof d.admin === 'string' ? d.admin : ADMIN_ONLY_MESSAGE) : null;
  return { access: d.access ?? p.access, queryToken: d.queryToken ?? p.queryToken, bodyLimit: d.bodyLimit ?? p.bodyLimit, form: d.form ?? p.form, writePaced: d.writePaced ?? p.writePaced, adminOnly };
}

/** The documentation part of a declaration, when it has a summary. */
export function docOf(declaration: RouteDeclaration | undefined): RouteDoc | undefined {
  if (!declaration?.summary) return undefined;
  const { summary, admin, params, query, body } = declaration;
  return { summary, admin, params, query, body };
}

const DECLARATION = Symbol('kikoplay.routeDeclaration');

type DeclarationMarker = Middleware & { [DECLARATION]: RouteDeclaration };

/**
 * Declare a route's policy and what the API reference says about it: pass it as the first handler, e.g.
 * `router.post('/auth/me', route({ summary: '登录', access: 'public', form: true, bodyLimit: 8 * KB }), handler)`.
 * The API router replaces it with the guard that enforces it (see `enforceRoutePolicies`).
 */
export function route(declaration: RouteDeclaration): Middleware {
  const marker = (() => {
    throw new Error('route() declarations only work as the first handler of a route on the API router');
  }) as unknown as DeclarationMarker;
  marker[DECLARATION] = declaration;
  return marker;
}

/** The declaration a handler carries, if it is a `route({...})` marker. */
export function declarationOf(handler: unknown): RouteDeclaration | undefined {
  return typeof handler === 'function' ? (handler as Partial<DeclarationMarker>)[DECLARATION] : undefined;
}
