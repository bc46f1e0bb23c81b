/**
 * How deep JSON nests, measured without recursion, so that measuring cannot overflow the stack that
 * the nesting would overflow later (JSON.stringify, structured clones, zod, a client's renderer).
 * Every JSON body the server parses (server/http/body.ts) and every admin socket frame
 * (server/contract/realtime.ts) is refused past MAX_JSON_DEPTH levels. Pure.
 */

/** The most levels of arrays and objects, one inside another, a client's JSON may have. */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether the arrays and objects of the JSON text nest more than `max` levels deep. Brackets inside
 * strings do not count. One pass over the text, no recursion; text that is not JSON gets an answer
 * too (the parser refuses it after).
 */
export function jsonTextTooDeep(text: string, max: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/**
 * The levels of arrays and objects of a parsed value (0 for a string, number, boolean or null),
 * counted without recursion; counting stops once it passes `max` (then `max + 1`).
 */
export function valueDepth(value: unknown, max: number = MAX_JSON_DEPTH): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, level] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (level > deepest) deepest = level;
    if (deepest > max) return max + 1;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (typeof child === 'object' && child !== null) stack.push([child, level + 1]);
  }
  return deepest;
}
