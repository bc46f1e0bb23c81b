import type { Context, Next } from 'koa';
import type { OriginPolicy } from '../origin-policy.js';

/**
 * Every request: the Host check (DNS rebinding); requests that change something: the Origin /
 * Sec-Fetch-Site check (cross-site forms and scripts), in every mode, auth on or off. The policy is
 * shared with the admin socket's upgrade (origin-policy.ts).
 */
export function sameOriginGuard(policy: OriginPolicy) {
  return async (ctx: Context, next: Next) => {
    const refusal = policy.check({ method: ctx.method, headers: ctx.headers });
    if (refusal) throw refusal;
    await next();
  };
}
