import { describe, expect, it } from 'vitest';
import { jsonTextTooDeep, MAX_JSON_DEPTH, valueDepth } from '../../server/domain/json-depth.js';
import { decode } from '../../server/contract/realtime.js';

const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

describe('JSON nesting depth', () => {
  it('counts arrays and objects, not brackets inside strings or after escapes', () => {
    expect(jsonTextTooDeep(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonTextTooDeep(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonTextTooDeep('{"a":{"b":[1]}}', 3)).toBe(false);
    expect(jsonTextTooDeep('{"a":{"b":[1]}}', 2)).toBe(true);
    expect(jsonTextTooDeep(JSON.stringify({ s: '[[[[{{{{' }), 1)).toBe(false);
    expect(jsonTextTooDeep(JSON.stringify({ s: 'a\\"[[[[', t: '"' }), 1)).toBe(false);
  });

  it('measures a text far deeper than the stack without overflowing', () => {
    expect(jsonTextTooDeep(nested(1_000_000))).toBe(true);
    expect(valueDepth(JSON.parse(nested(100_000)))).toBe(MAX_JSON_DEPTH + 1);
  });

  it('valueDepth gives the levels of a parsed value', () => {
    expect(valueDepth('x')).toBe(0);
    expect(valueDepth(null)).toBe(0);
    expect(valueDepth({ a: 1 })).toBe(1);
    expect(valueDepth({ a: [{ b: 1 }], c: {} })).toBe(3);
  });

  it('the admin socket refuses a frame nested deeper than the bound', () => {
    expect(decode(JSON.stringify({ event: 'ON_SCANNER_PAGE', payload: {} }))).toEqual({ event: 'ON_SCANNER_PAGE', payload: {} });
    expect(decode(`{"event":"ON_SCANNER_PAGE","payload":${nested(5000)}}`)).toBeNull();
  });
});
