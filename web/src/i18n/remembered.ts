/**
 * The interface language chosen on this browser (local storage `kikoplay.locale`, the plain tag), and
 * the browser's own languages and `<html lang>`. Reached through `globalThis` so the catalogues and
 * their tests also load outside a browser; storage that throws (private mode) remembers nothing.
 */
import { isLocale, type Locale } from './locale.js';

export const LOCALE_KEY = 'kikoplay.locale';

interface BrowserGlobals {
  localStorage?: { getItem(key: string): string | null; setItem(key: string, value: string): void };
  navigator?: { languages?: readonly string[]; language?: string };
  document?: { documentElement: { lang: string } };
}
const browser = globalThis as BrowserGlobals;

export function readRemembered(): Locale | null {
  try {
    const value = browser.localStorage?.getItem(LOCALE_KEY) ?? null;
    return isLocale(value) ? value : null;
  } catch {
    return null;
  }
}

export function writeRemembered(value: Locale): void {
  try {
    browser.localStorage?.setItem(LOCALE_KEY, value);
  } catch {
    // not remembered: the choice holds for this page
  }
}

/** `navigator.languages` (or `navigator.language`), in the browser's order of preference. */
export function browserLanguages(): readonly string[] | undefined {
  const nav = browser.navigator;
  if (!nav) return undefined;
  return nav.languages?.length ? nav.languages : nav.language ? [nav.language] : undefined;
}

export function setDocumentLang(value: Locale): void {
  if (browser.document) browser.document.documentElement.lang = value;
}
