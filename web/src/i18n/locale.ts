/**
 * The interface languages and how a first visit picks one from the browser's languages. Pure (no DOM):
 * the caller passes `navigator.languages`. Not the metadata language (`tagLanguage`), which only says
 * in which language DLsite tags are fetched.
 */
import { isLocale, LOCALES, type Locale } from '../../../server/domain/locales.js';

export { isLocale, LOCALES, type Locale };

/** Each language's name in itself, as the language menus list them (never translated). */
export const LANGUAGE_NAMES: Record<Locale, string> = { en: 'English', ja: '日本語', 'zh-CN': '简体中文' };

/** The locale of one BCP 47 tag: ja* → ja, zh* → zh-CN, en* → en; anything else none. */
export function localeOfTag(tag: string): Locale | undefined {
  const lang = tag.trim().toLowerCase().split(/[-_]/)[0];
  if (lang === 'ja') return 'ja';
  if (lang === 'zh') return 'zh-CN';
  if (lang === 'en') return 'en';
  return undefined;
}

/** The first of the browser's languages (in its order of preference) we have; English when none is. */
export function detectLocale(languages: readonly string[] | undefined): Locale {
  for (const tag of languages ?? []) {
    const found = localeOfTag(tag);
    if (found) return found;
  }
  return 'en';
}

/**
 * The tag dates and numbers are formatted with: the browser's own tag when it is of the active
 * language (en-GB writes 25/11/2026, en-US 11/25/2026), else the locale itself.
 */
export function formatTagFor(active: Locale, languages: readonly string[] | undefined): string {
  const own = (languages ?? []).find((tag) => localeOfTag(tag) === active);
  if (!own || active === 'zh-CN') return active; // zh-TW and zh-HK write the traditional script: keep zh-CN
  try {
    return Intl.getCanonicalLocales(own)[0] ?? active;
  } catch {
    return active;
  }
}
