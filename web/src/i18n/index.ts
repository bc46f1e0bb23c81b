/**
 * The interface language: the catalogues (en, ja, zh-CN; the shape is `Messages`), the active one as
 * `t`, and switching.
 *
 * zh-CN (the spec's strings, and what `t` starts as) is part of the first load; en and ja are chunks of
 * their own, loaded when a page starts in them or switches to them, so the first load carries one
 * language. The app renders once `localeReady` has the first language in `t` (main.tsx).
 *
 * `t` is one object for the life of the page; setLocale() writes the chosen catalogue into it, section
 * by section, so a section held at module level (`const M = t.library.works`) follows the switch too.
 * Components read `t` while rendering; <LocaleRoot> (LocaleRoot.tsx) renders the tree again on a switch.
 *
 * The first visit follows the browser's languages (ja* → ja, zh* → zh-CN, en* → en, else en); a
 * choice is remembered in local storage, and on the account once logged in (account.ts).
 */
import { setActive } from './active.js';
import { detectLocale, formatTagFor, isLocale, type Locale } from './locale.js';
import { browserLanguages, readRemembered, setDocumentLang, writeRemembered } from './remembered.js';
import { zhCN, type Messages } from './zh-CN.js';

export type { Messages, Locale };
export { LOCALES, LANGUAGE_NAMES, isLocale } from './locale.js';

const loaders: Record<Locale, () => Promise<Messages>> = {
  'zh-CN': () => Promise.resolve(zhCN),
  en: async () => (await import('./en.js')).en,
  ja: async () => (await import('./ja.js')).ja,
};
const loaded = new Map<Locale, Messages>([['zh-CN', zhCN]]);

/** A language's catalogue, loaded on first use. */
export async function catalogue(l: Locale): Promise<Messages> {
  const known = loaded.get(l);
  if (known) return known;
  const messages = await loaders[l]();
  loaded.set(l, messages);
  return messages;
}

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

/** The language asked for last (a slow catalogue does not win over a later choice). */
let wanted: Locale = 'zh-CN';

/**
 * Switch the interface language: the catalogue, `<html lang>`, the date and number formats, and (unless
 * `remember` is false) the choice in local storage. Saving it on the account is account.ts's part. A
 * language already loaded switches at once; another once its catalogue has arrived (rejects when it
 * cannot be loaded; the page stays in its language).
 */
export async function setLocale(next: Locale, opts: { remember?: boolean } = {}): Promise<void> {
  if (!isLocale(next)) return;
  if (opts.remember !== false) writeRemembered(next);
  wanted = next;
  const messages = loaded.get(next) ?? (await catalogue(next));
  if (next !== wanted || next === current) return;
  current = next;
  overwrite(t as unknown as Entry, messages as unknown as Entry);
  setActive(next, formatTagFor(next, browserLanguages()));
  setDocumentLang(next);
  for (const fn of listeners) fn();
}

/** The language to start with: the one chosen before, else the browser's. */
export const initialLocale = (): Locale => readRemembered() ?? detectLocale(browserLanguages());

/** The choice made on this browser, if any (a new login saves it on an account that has none). */
export const rememberedLocale = (): Locale | null => readRemembered();

/** Resolves once the first language is in `t` (at once for zh-CN; on a failed load the page stays zh-CN). */
export const localeReady: Promise<void> = (async () => {
  const first = initialLocale();
  try {
    if (first !== current) return await setLocale(first, { remember: false });
  } catch (err) {
    console.warn('interface language not loaded', err);
  }
  setActive(current, formatTagFor(current, browserLanguages()));
  setDocumentLang(current);
})();
