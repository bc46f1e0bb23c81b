import type { Context, Next } from 'koa';
import type { OriginPolicy } from '../origin-policy.js';
import { isSubsonicPath } from './subsonic-cors.js';

/**
 * Every request: the Host check (DNS rebinding); requests that change something: the Origin /
 * Sec-Fetch-Site check (cross-site forms and scripts), in every mode, auth on or off. The policy is
 * shared with the admin socket's upgrade (origin-policy.ts).
 *
 * The Subsonic API (`/rest`) differs: each request carries its own credentials as parameters (no
 * cookie, no stored token a page elsewhere could ride on), so with auth on browser Subsonic apps may
 * call it from any origin (docs/SECURITY.md#the-subsonic-api). With auth off every request acts as the
 * admin and Subsonic changes things with GET, so there every `/rest` request gets the Origin check.
 */
export function sameOriginGuard(policy: OriginPolicy, authEnabled: () => boolean) {
  return async (ctx: Context, next: Next) => {
    const facts = { method: ctx.method, headers: ctx.headers };
    const refusal = isSubsonicPath(ctx.path) ? (authEnabled() ? policy.checkHost(ctx.headers) : policy.check(facts, { always: true })) : policy.check(facts);
    if (refusal) throw refusal;
    await next();
  };
}
