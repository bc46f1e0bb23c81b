import type { Context } from 'koa';
import { SUBSONIC_CODES, SubsonicError, missingParameter } from '../../../services/subsonic/subsonic-error.js';

/** The parameters of a /rest request: the query string and the form body (formPost), query first. */
export class SubsonicParams {
  constructor(private readonly ctx: Context) {}

  /** Every value of a parameter (ids of star/unstar, repeated `id` of savePlayQueue). */
  all(name: string): string[] {
    const out: string[] = [];
    const add = (v: unknown) => {
      for (const x of Array.isArray(v) ? v : [v]) if (typeof x === 'string') out.push(x);
    };
    add(this.ctx.query[name]);
    const body = this.ctx.request.body;
    if (body && typeof body === 'object' && !Array.isArray(body)) add((body as Record<string, unknown>)[name]);
    return out;
  }

  str(name: string): string | undefined {
    return this.all(name)[0];
  }

  required(name: string): string {
    const v = this.str(name);
    if (v === undefined || v === '') throw missingParameter(name);
    return v;
  }

  /** An integer parameter within [min, max] (values above max count as max), or the default. */
  int(name: string, fallback: number, min: number, max: number): number {
    const v = this.str(name);
    if (v === undefined || v === '') return fallback;
    if (!/^-?\d{1,15}$/.test(v)) throw new SubsonicError(SUBSONIC_CODES.generic, `Parameter ${name} is not an integer`);
    const n = Number(v);
    if (n < min) throw new SubsonicError(SUBSONIC_CODES.generic, `Parameter ${name} must be at least ${min}`);
    return Math.min(n, max);
  }

  optionalInt(name: string, min: number, max: number): number | undefined {
    return this.str(name) === undefined ? undefined : this.int(name, 0, min, max);
  }
}
