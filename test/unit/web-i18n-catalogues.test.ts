/**
 * The web app's catalogues (web/src/i18n): en and ja have exactly the keys of zh-CN (nothing missing,
 * nothing extra), every message is non-empty, and each function message takes as many parameters as
 * zh-CN's and writes every value zh-CN writes into its text. Switching with setLocale() changes `t`
 * in place, so sections held at module level follow.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it, vi } from 'vitest';
import { catalogue, LOCALES, locale, setLocale, t, type Messages } from '../../web/src/i18n/index.js';
import { en } from '../../web/src/i18n/en.js';
import { ja } from '../../web/src/i18n/ja.js';
import { zhCN } from '../../web/src/i18n/zh-CN.js';
import type { Locale } from '../../web/src/i18n/locale.js';
import { SUBSONIC_CATALOGUES, subsonicText } from '../../web/src/i18n/account-subsonic/index.js';
import { zhCN as subsonicZh } from '../../web/src/i18n/account-subsonic/zh-CN.js';

const CATALOGUES: Record<Locale, Messages> = { en, ja, 'zh-CN': zhCN };

type Entry = Record<string, unknown>;
const isSection = (v: unknown): v is Entry => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every leaf of a catalogue: dotted path → value (array items by index). */
function leaves(value: unknown, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (isSection(value) || Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) for (const [p, leaf] of leaves(v, prefix ? `${prefix}.${k}` : k)) out.set(p, leaf);
  } else out.set(prefix, value);
  return out;
}

/** Sample values: lowercase text and 3-digit numbers (no grouping), each recognisable in the output. */
const sampleString = (i: number) => `xq${i}z`;
const sampleNumber = (i: number) => 417 + 111 * i;

/** The declared parameter types of a zh-CN catalogue's function messages (path → type texts), read from its source. */
function declaredParameters(zhFile = 'zh-CN.ts'): Map<string, string[]> {
  const file = fileURLToPath(new URL(`../../web/src/i18n/${zhFile}`, import.meta.url));
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const out = new Map<string, string[]>();
  const walk = (node: ts.Node, path: string[]) => {
    if (ts.isPropertyAssignment(node)) {
      const key = node.name.getText(sf).replace(/^['"]|['"]$/g, '');
      let init: ts.Expression = node.initializer;
      while (ts.isAsExpression(init) || ts.isParenthesizedExpression(init)) init = init.expression;
      if (ts.isArrowFunction(init))
        out.set(
          [...path, key].join('.'),
          init.parameters.map((p) => p.type?.getText(sf) ?? 'unknown'),
        );
      else ts.forEachChild(init, (child) => walk(child, [...path, key]));
      return;
    }
    ts.forEachChild(node, (child) => walk(child, path));
  };
  walk(sf, []);
  return out;
}
const PARAMETERS = declaredParameters();

/** A sample of a declared type: a number, the first of a union of literals, or text. */
function sampleOf(type: string, i: number): string | number {
  if (type === 'number') return sampleNumber(i);
  const literal = /^'([^']*)'/.exec(type);
  return literal ? literal[1] : sampleString(i);
}

/** The arguments to call a message with, and which of them zh-CN writes into its text. */
function samplesFor(path: string, zh: (...args: never[]) => string, parameters = PARAMETERS): { args: (string | number)[]; shown: string[] } {
  const types = parameters.get(path);
  if (!types || types.length !== zh.length) throw new Error(`${path}: parameters not found in zh-CN.ts`);
  const args = types.map(sampleOf);
  const out = String(zh(...(args as never[])));
  return { args, shown: args.map(String).filter((a) => out.includes(a)) };
}

const reference = leaves(zhCN);
const others = LOCALES.filter((l) => l !== 'zh-CN');

/** en and ja against zh-CN: the same keys, kinds of value and function parameters, every value written. */
function compareWithZh(catalogues: Record<Locale, unknown>, parameters: Map<string, string[]>, minFunctions: number) {
  const zhLeaves = leaves(catalogues['zh-CN']);
  for (const l of others) {
    describe(l, () => {
      const own = leaves(catalogues[l]);

      it('has exactly the keys of zh-CN', () => {
        expect([...own.keys()].filter((k) => !zhLeaves.has(k))).toEqual([]);
        expect([...zhLeaves.keys()].filter((k) => !own.has(k))).toEqual([]);
      });

      it('has the same kind of value for each key, and no empty text where zh-CN has some', () => {
        const wrong: string[] = [];
        for (const [key, zh] of zhLeaves) {
          const mine = own.get(key);
          if (typeof mine !== typeof zh) wrong.push(`${key}: ${typeof mine} instead of ${typeof zh}`);
          else if (typeof zh === 'string' && zh !== '' && (mine as string).trim() === '') wrong.push(`${key}: empty`);
        }
        expect(wrong).toEqual([]);
      });

      it('takes the parameters of zh-CN in each function and writes every value zh-CN writes', () => {
        const wrong: string[] = [];
        let checked = 0;
        for (const [key, zh] of zhLeaves) {
          if (typeof zh !== 'function') continue;
          const mine = own.get(key) as (...args: never[]) => string;
          if (mine.length !== zh.length) {
            wrong.push(`${key}: ${mine.length} parameters instead of ${zh.length}`);
            continue;
          }
          const { args, shown } = samplesFor(key, zh as (...args: never[]) => string, parameters);
          const text = mine(...(args as never[]));
          if (typeof text !== 'string' || !text.trim()) wrong.push(`${key}: no text`);
          for (const a of shown) if (!String(text).includes(a)) wrong.push(`${key}: does not write ${a} (${JSON.stringify(text)})`);
          checked++;
        }
        expect(wrong).toEqual([]);
        expect(checked).toBeGreaterThanOrEqual(minFunctions);
      });
    });
  }
}

describe('catalogues', () => {
  it('zh-CN is the reference and has hundreds of messages', () => {
    expect(reference.size).toBeGreaterThan(500);
  });

  it('loads each language on demand, once', async () => {
    for (const l of LOCALES) expect(await catalogue(l)).toBe(CATALOGUES[l]);
    expect(await catalogue('ja')).toBe(ja);
  });

  compareWithZh(CATALOGUES, PARAMETERS, 50);

  it('the check itself fails on a missing key, an extra key and a dropped placeholder', () => {
    const nav: Entry = { ...zhCN.nav, extra: 'x' };
    delete nav.works;
    const broken: Entry = { ...zhCN, nav };
    const keys = leaves(broken);
    expect(reference.has('nav.works') && !keys.has('nav.works')).toBe(true);
    expect(keys.has('nav.extra') && !reference.has('nav.extra')).toBe(true);
    const { shown } = samplesFor('library.works.titleCircle', zhCN.library.works.titleCircle);
    expect(shown).toEqual([sampleString(0)]);
    const dropped = () => 'Circle';
    expect(shown.every((a) => dropped().includes(String(a)))).toBe(false);
    expect(samplesFor('library.card.price', zhCN.library.card.price)).toEqual({ args: [sampleNumber(0)], shown: [String(sampleNumber(0))] });
    expect(samplesFor('aiCentre.account', zhCN.aiCentre.account)).toEqual({ args: ['user', sampleString(1)], shown: [sampleString(1)] });
  });
});

describe("the account page's Subsonic catalogue (loaded with that page)", () => {
  it('zh-CN has the section', () => {
    expect(SUBSONIC_CATALOGUES['zh-CN']).toBe(subsonicZh);
    expect(leaves(subsonicZh).size).toBeGreaterThan(20);
  });

  compareWithZh(SUBSONIC_CATALOGUES, declaredParameters('account-subsonic/zh-CN.ts'), 4);

  it('follows the active language', async () => {
    const before = locale();
    try {
      await setLocale('ja', { remember: false });
      expect(subsonicText()).toBe(SUBSONIC_CATALOGUES.ja);
    } finally {
      await setLocale(before, { remember: false });
    }
  });
});

describe('switching', () => {
  it('writes the chosen catalogue into t, so sections held before the switch follow it', async () => {
    const works = t.library.works; // as screens hold it at module level
    const before = locale();
    try {
      await setLocale('ja', { remember: false });
      expect(locale()).toBe('ja');
      expect(t.nav.works).toBe(CATALOGUES.ja.nav.works);
      expect(works.titleAll).toBe(CATALOGUES.ja.library.works.titleAll);
      await setLocale('en', { remember: false });
      expect(works.total(2)).toBe('2 works');
      await setLocale('zh-CN', { remember: false });
      expect(works.total(2)).toBe('共 2 部作品');
      expect(t.nav.works).toBe('媒体库');
      const all: Messages = t;
      expect(leaves(all).size).toBe(reference.size);
    } finally {
      await setLocale(before, { remember: false });
    }
  });
});

describe('switching to a language not loaded yet', () => {
  it('switches once its catalogue has arrived, and a later choice wins over a slower one', async () => {
    vi.resetModules(); // a page of its own: only zh-CN and the start language are loaded
    const page = await import('../../web/src/i18n/index.js');
    await page.localeReady;
    const start = page.locale();
    const target: Locale = start === 'ja' ? 'en' : 'ja';
    const slow = page.setLocale(target, { remember: false });
    expect(page.locale()).toBe(start); // not there yet
    await page.setLocale(start, { remember: false }); // chosen again while the other was on its way
    await slow;
    expect(page.locale()).toBe(start);
    expect(page.t.nav.works).toBe(CATALOGUES[start].nav.works);
    await page.setLocale(target, { remember: false });
    expect(page.locale()).toBe(target);
    expect(page.t.nav.works).toBe(CATALOGUES[target].nav.works);
  });
});
