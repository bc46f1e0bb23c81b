import type { Context, Next } from 'koa';
import { Router } from '@koa/router';
import type { Services } from '../../../app/services.js';
import { requireActor } from '../../middleware/auth.js';
import { route, type RouteDeclaration } from '../../route-policy.js';
import { SUBSONIC_CODES, SubsonicError, toSubsonicError } from '../../../services/subsonic/subsonic-error.js';
import { renderSubsonic, renderSubsonicError, type Payload } from './render.js';
import { SubsonicParams } from './params.js';
import { isSubsonicPath } from '../../middleware/subsonic-cors.js';
import type { Actor } from '../../../auth/roles.js';

/** The Subsonic API router: `/rest/<method>` and `/rest/<method>.view`, GET and POST (form). */
export function createSubsonicRouter(): Router {
  return new Router({ prefix: '/rest', sensitive: true, strict: true });
}

/**
 * Errors of /rest requests in the Subsonic form (`status="failed"` with a Subsonic code, HTTP 200 as
 * clients expect; a refused credential check keeps its 429 and Retry-After). Anything else (a Range
 * outside a streamed file: 416) goes on to the API's error handling.
 */
export async function subsonicErrors(ctx: Context, next: Next): Promise<void> {
  if (!isSubsonicPath(ctx.path)) return next();
  try {
    await next();
    if (ctx.status === 404 && ctx.body == null) throw new SubsonicError(SUBSONIC_CODES.notFound, 'Unknown API method', {}, 404);
    if (ctx.status === 405) throw new SubsonicError(SUBSONIC_CODES.generic, `Method ${ctx.method} is not allowed`, {}, 405);
  } catch (err) {
    const e = toSubsonicError(err);
    if (!e) throw err;
    for (const [k, v] of Object.entries(e.headers)) ctx.set(k, v);
    renderSubsonicError(ctx, e.code, e.message);
    ctx.status = e.status;
  }
}

export interface SubsonicRequest {
  /** The caller (an anonymous guest on a method declared `open`). */
  actor: Actor;
  params: SubsonicParams;
}

/** A method handler: returns the payload to answer with, or nothing when it sent the answer itself (media). */
export type SubsonicHandler = (req: SubsonicRequest, ctx: Context) => Promise<Payload | void>;

/** The caller of an open method: no one (such a method reads nothing of a user). */
const ANONYMOUS: Actor = { id: 0, name: '', role: 'guest' };

/** Methods that change what a user stores: guests get error 50. */
const GUEST_REFUSED = 'A guest account can only browse and play';

/**
 * Register one Subsonic method as `/name` and `/name.view`, GET and POST (formPost). Every method
 * is declared with Subsonic access (credentials in the query or form body, checked before anything
 * else); `write: true` refuses guests, `admin` everyone but admins. `open: true` (only
 * getOpenSubsonicExtensions, which clients ask before they know how to log in) takes no credentials.
 */
export function subsonicMethod(router: Router, name: string, decl: Omit<RouteDeclaration, 'access' | 'form'> & { write?: boolean; open?: boolean }, handler: SubsonicHandler): void {
  const { write, open, ...rest } = decl;
  for (const path of [`/${name}`, `/${name}.view`]) {
    for (const method of ['get', 'post'] as const) {
      router[method](path, route({ bodyLimit: 16 * 1024, ...rest, access: open ? 'public' : 'subsonic', form: true }), async (ctx) => {
        const actor = open ? ANONYMOUS : requireActor(ctx);
        if (write && actor.role === 'guest') throw new SubsonicError(SUBSONIC_CODES.notAuthorized, GUEST_REFUSED);
        const payload = await handler({ actor, params: new SubsonicParams(ctx) }, ctx);
        if (payload) renderSubsonic(ctx, payload);
      });
    }
  }
}

/** Every Subsonic method module registers its methods with the app's services. */
export type SubsonicModule = (router: Router, services: Services) => void;
