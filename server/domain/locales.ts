/**
 * The interface languages of the web app (docs/API.md#session): a user's saved choice is one of these.
 * Not the metadata language (`tagLanguage`, the language DLsite tags are fetched in). Pure.
 */
export const LOCALES = ['en', 'ja', 'zh-CN'] as const;
export type Locale = (typeof LOCALES)[number];

export const isLocale = (value: unknown): value is Locale => typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
