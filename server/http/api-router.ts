import type { Context, Next } from 'koa';
import { Router, type Layer } from '@koa/router';
import { forbidden } from '../domain/errors.js';
import { isAdmin } from '../auth/roles.js';
import { checkAccess, type AccessDeps } from './middleware/auth.js';
import { readBody, type BodyBudget } from './body.js';
import type { WritePace } from './write-pace.js';
import { declarationOf, docOf, policyOf, type RouteDoc, type RoutePolicy } from './route-policy.js';

/**
 * The API router: case-sensitive and strict, so a path reaches a route only in its one canonical
 * spelling (`/API/works`, `/api/works/`, `/api/%77orks`, `//api/works`, `/api/./works` match nothing).
 * A route that answers with and without a trailing slash registers both paths.
 */
export function createApiRouter(): Router {
  return new Router({ prefix: '/api', sensitive: true, strict: true });
}

export interface GuardDeps extends AccessDeps {
  bodies: BodyBudget;
  bodyTimeoutMs: number;
  writePace: WritePace;
}

const policies = new WeakMap<Layer, RoutePolicy>();
const docs = new WeakMap<Layer, RouteDoc>();
const areas = new WeakMap<Layer, string>();

/** The policy a route of the API router enforces (after `enforceRoutePolicies`). */
export function routePolicyOf(layer: Layer): RoutePolicy | undefined {
  return policies.get(layer);
}

/** What a route declared about itself for the API reference (after `enforceRoutePolicies`). */
export function routeDocOf(layer: Layer): RouteDoc | undefined {
  return docs.get(layer);
}

/** The area (route module) that registered a route: the API reference groups routes by it. */
export function routeAreaOf(layer: Layer): string | undefined {
  return areas.get(layer);
}

/** Register one route module's routes, remembering `area` as their group in the API reference. */
export function registerArea(router: Router, area: string, register: () => void): void {
  const before = router.stack.length;
  register();
  for (const layer of router.stack.slice(before)) areas.set(layer, area);
}

/**
 * Put each route's guard in front of its handlers: the access check of its declared policy (the
 * default when it declared none), then — only for a caller it let in — the user's write pace where the
 * route stores what it is sent, and the body, read within the route's limit. Called once, after every route module registered its routes. Router-wide middleware
 * (`router.use`) is refused: it would run before the routes' access checks.
 */
export function enforceRoutePolicies(router: Router, deps: GuardDeps): void {
  for (const layer of router.stack) {
    if (layer.methods.length === 0) throw new Error(`API router: router.use() at ${layer.path} would run before the routes' access checks`);
    if (policies.has(layer)) continue;
    const [first, ...rest] = layer.stack;
    const declared = declarationOf(first);
    const handlers = declared ? rest : layer.stack;
    if (handlers.some((h) => declarationOf(h))) throw new Error(`API router: route(...) must be the first handler of ${layer.methods.join(',')} ${layer.path}`);
    const policy = policyOf(declared);
    const doc = docOf(declared);
    if (doc) docs.set(layer, doc);
    const guard = async (ctx: Context, next: Next) => {
      // Subsonic credentials may come in the form body (formPost): read it first, within the route's limit
      const early = policy.access === 'subsonic';
      if (early) ctx.request.body = await readBody(ctx, { limit: policy.bodyLimit, form: policy.form }, deps.bodies, deps.bodyTimeoutMs);
      await checkAccess(ctx, policy, deps);
      if (policy.adminOnly !== null && !(ctx.state.actor && isAdmin(ctx.state.actor))) throw forbidden(policy.adminOnly, { code: 'ADMIN_ONLY' });
      if (policy.writePaced && ctx.state.actor) await deps.writePace.admit(ctx, ctx.state.actor.id, policy.bodyLimit);
      if (!early) ctx.request.body = await readBody(ctx, { limit: policy.bodyLimit, form: policy.form }, deps.bodies, deps.bodyTimeoutMs);
      return next();
    };
    layer.stack = [guard, ...handlers];
    policies.set(layer, policy);
  }
}
