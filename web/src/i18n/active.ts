/**
 * The active interface language and the tag dates and numbers are formatted with. Kept apart from the
 * catalogues so the formatters (format.ts), which the catalogues use, can read it. Set by setLocale()
 * in index.ts.
 */
import type { Locale } from './locale.js';

let active: Locale = 'zh-CN';
let formatTag = 'zh-CN';

export const activeLocale = (): Locale => active;
export const activeFormatTag = (): string => formatTag;

export function setActive(locale: Locale, tag: string): void {
  active = locale;
  formatTag = tag;
}
