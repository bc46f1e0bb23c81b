/**
 * An API error in the reader's language: the body's `code` (with `field` and `params`) looked up in
 * the catalogues the web app and the terminal share (server/contract/error-text). The server's `error`
 * text is the answer when the code is unknown, when the sentence needs a parameter the body does not
 * carry, and in Chinese, where the server's own text already is the sentence.
 */
import { errorSentence as sentenceIn, type ErrorDetail, type ErrorLocale } from '../../../server/contract/error-text/index.js';

export type { ErrorDetail } from '../../../server/contract/error-text/index.js';

/** The interface language, as `<html lang>` says it; anything but English or Japanese is zh-CN. */
export function errorLocale(): ErrorLocale {
  const lang = typeof document === 'undefined' ? '' : document.documentElement.lang;
  if (/^en\b/i.test(lang)) return 'en';
  if (/^ja\b/i.test(lang)) return 'ja';
  return 'zh-CN';
}

/** The sentence for `detail` in `locale` (the page's language by default), else `serverText`. */
export function errorSentence(detail: ErrorDetail, serverText: string, locale: ErrorLocale = errorLocale()): string {
  return sentenceIn(detail, serverText, locale);
}
