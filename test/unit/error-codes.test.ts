/**
 * The list of API error codes (server/domain/error-codes.ts) is complete and exact: every code the
 * server can put in an error body is listed with its meaning, and every listed code is used.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_ERROR_CODES, ERROR_CODES } from '../../server/domain/error-codes.js';
import { CLIENT_EVENTS, SERVER_EVENTS } from '../../server/contract/realtime.js';

const SOCKET_EVENTS: ReadonlySet<string> = new Set([...CLIENT_EVENTS, ...SERVER_EVENTS]);
const root = path.resolve(import.meta.dirname, '../..');
const LIST = path.join(root, 'server/domain/error-codes.ts');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return /\.(ts|mts)$/.test(e.name) && p !== LIST ? [p] : [];
  });
}

const files = sources(path.join(root, 'server')).map((p) => ({ p: path.relative(root, p), text: readFileSync(p, 'utf8') }));
/** The files that make errors: they import the error type or the code list. */
const errorMakers = files.filter((f) => /from '[./]*(?:domain\/)?(?:errors|error-codes)\.js'/.test(f.text) && !f.p.startsWith('server/worker/'));

describe('API error codes', () => {
  it('are SCREAMING_SNAKE_CASE, each with a one-line meaning', () => {
    expect(API_ERROR_CODES.length).toBeGreaterThan(20);
    for (const code of API_ERROR_CODES) {
      expect(code).toMatch(/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/);
      const meaning: string = ERROR_CODES[code];
      expect(meaning.trim().length, code).toBeGreaterThan(10);
      expect(meaning, code).not.toMatch(/\n/);
    }
  });

  it('every code the server uses is listed', () => {
    expect(errorMakers.length).toBeGreaterThan(20);
    const unlisted: string[] = [];
    for (const { p, text } of errorMakers) {
      // a code in code position (`code: 'X'`, a ternary after it, the raw-parser table), and any
      // multi-word constant in a file that makes errors
      const inCodePosition = [...text.matchAll(/\bcode:\s*(?:[^,}\n]*\?\s*)?'([A-Z][A-Z0-9_]*)'(?:\s*:\s*'([A-Z][A-Z0-9_]*)')?/g)].flatMap((m) => [m[1], m[2]]);
      const constants = [...text.matchAll(/'([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)'/g)].map((m) => m[1]).filter((c) => !c.startsWith('KIKOPLAY_'));
      for (const c of [...inCodePosition, ...constants]) {
        if (c === undefined || /^E[A-Z]+$/.test(c)) continue; // errno names (ENOENT, …)
        if (SOCKET_EVENTS.has(c)) continue; // the admin socket's event names (its error frames carry codes)
        if (!(API_ERROR_CODES as string[]).includes(c)) unlisted.push(`${p}: ${c}`);
      }
    }
    expect(unlisted).toEqual([]);
  });

  it('docs/API.md lists every code', () => {
    const doc = readFileSync(path.join(root, 'docs/API.md'), 'utf8');
    expect(API_ERROR_CODES.filter((c) => !doc.includes(`| \`${c}\` |`))).toEqual([]);
  });

  it('every listed code is used by the server', () => {
    const all = files.map((f) => f.text).join('\n');
    expect(API_ERROR_CODES.filter((c) => !all.includes(`'${c}'`))).toEqual([]);
  });
});
