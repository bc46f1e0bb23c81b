/**
 * Request values shared by several routes. Pure (zod only).
 */
import { z } from 'zod';
import { NO_CONTROL_CHARS } from '../../domain/text-rules.js';

/**
 * An integer in `min..max`, given as a JSON number (bodies) or as a string of decimal digits, optionally
 * negative (paths, queries, form bodies). Nothing else is read as a number: `true`, `[3]`, `"0x3"` or
 * `"3e0"` would name another record than the one the caller meant. Every failure says `message`.
 */
export function integerInput(min: number, max: number, message: string) {
  return z
    .union(
      [
        z.number(),
        z
          .string()
          .trim()
          .regex(/^-?\d{1,16}$/)
          .transform(Number),
      ],
      { error: message },
    )
    .pipe(z.number({ error: message }).int(message).min(min, message).max(max, message));
}

/** Trimmed text without control characters (server/domain/text-rules.ts): names and titles a client sets. */
export const plainText = () => z.string().trim().regex(NO_CONTROL_CHARS, '不能包含控制字符');
