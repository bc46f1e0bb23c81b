/**
 * The interface language: the catalogues (en, ja, zh-CN; the shape is `Messages`), the active one as
 * `t`, and switching.
 *
 * `t` is one object for the life of the page; setLocale() writes the chosen catalogue into it, section
 * by section, so a section held at module level (`const M = t.library.works`) follows the switch too.
 * Components read `t` while rendering; <LocaleRoot> (LocaleRoot.tsx) renders the tree again on a switch.
 *
 * The first visit follows the browser's languages (ja* → ja, zh* → zh-CN, en* → en, else en); a
 * choice is remembered in local storage, and on the account once logged in (account.ts).
 */
import { setActive } from './active.js';
import { en } from './en.js';
import { ja } from './ja.js';
import { detectLocale, formatTagFor, isLocale, type Locale } from './locale.js';
import { browserLanguages, readRemembered, setDocumentLang, writeRemembered } from './remembered.js';
import { zhCN, type Messages } from './zh-CN.js';

export type { Messages, Locale };
export { LOCALES, LANGUAGE_NAMES, isLocale } from './locale.js';

export const CATALOGUES: Record<Locale, Messages> = { en, ja, 'zh-CN': zhCN };

type Entry = Record<string, unknown>;
const isSection = (v: unknown): v is Entry => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A copy whose sections (nested objects) are new objects; strings, functions and arrays are shared. */
function copy(section: Entry): Entry {
  const out: Entry = {};
  for (const [k, v] of Object.entries(section)) out[k] = isSection(v) ? copy(v) : v;
  return out;
}

/** Write `from` into `into` keeping `into`'s section objects (the catalogues have the same shape). */
function overwrite(into: Entry, from: Entry): void {
  for (const [k, v] of Object.entries(from)) {
    const current = into[k];
    if (isSection(v) && isSection(current)) overwrite(current, v);
    else into[k] = isSection(v) ? copy(v) : v;
  }
}

/** The active catalogue. */
export const t: Messages = copy(zhCN as unknown as Entry) as unknown as Messages;

let current: Locale = 'zh-CN';
const listeners = new Set<() => void>();

export const locale = (): Locale => current;

/** Called on every switch (LocaleRoot re-renders the tree). */
export function subscribeLocale(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/**
 * Switch the interface language: the catalogue, `<html lang>`, the date and number formats, and (unless
 * `remember` is false) the choice in local storage. Saving it on the account is account.ts's part.
 */
export function setLocale(next: Locale, opts: { remember?: boolean } = {}): void {
  if (!isLocale(next)) return;
  if (opts.remember !== false) writeRemembered(next);
  if (next === current) return;
  current = next;
  overwrite(t as unknown as Entry, CATALOGUES[next] as unknown as Entry);
  setActive(next, formatTagFor(next, browserLanguages()));
  setDocumentLang(next);
  for (const fn of listeners) fn();
}

/** The language to start with: the one chosen before, else the browser's. */
export const initialLocale = (): Locale => readRemembered() ?? detectLocale(browserLanguages());

/** The choice made on this browser, if any (a new login saves it on an account that has none). */
export const rememberedLocale = (): Locale | null => readRemembered();

// start in the initial language (zh-CN needs no copy: `t` starts as zh-CN)
{
  const first = initialLocale();
  if (first !== current) setLocale(first, { remember: false });
  else {
    setActive(first, formatTagFor(first, browserLanguages()));
    setDocumentLang(first);
  }
}
