/**
 * An API error in the reader's language: the body's `code` (with `field` and `params`) looked up in
 * the catalogues of i18n/error-messages.ts. The server's `error` text is the answer when the code is
 * unknown (an older or newer server), when the sentence needs a parameter the body does not carry,
 * and in Chinese, where the server's own text already is the sentence (with every detail).
 */
import { isApiErrorCode } from '../../../server/domain/error-codes.js';
import { ERROR_MESSAGES, ERROR_PARAM_WORDS, type ErrorLocale } from '../i18n/error-messages.js';

/** The interface language, as `<html lang>` says it; anything but English or Japanese is zh-CN. */
export function errorLocale(): ErrorLocale {
  const lang = typeof document === 'undefined' ? '' : document.documentElement.lang;
  if (/^en\b/i.test(lang)) return 'en';
  if (/^ja\b/i.test(lang)) return 'ja';
  return 'zh-CN';
}

/** What an error body (or one `errors[]` entry) may say about itself. */
export interface ErrorDetail {
  code?: unknown;
  field?: unknown;
  params?: unknown;
}

const CJK = /[\u3040-\u30ff\u3400-\u9fff]/;
const REQUEST_ID = /\s*\(request [^)]*\)$/;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The sentence for `detail` in `locale`, else `serverText`. */
export function errorSentence(detail: ErrorDetail, serverText: string, locale: ErrorLocale = errorLocale()): string {
  const { code } = detail;
  if (!isApiErrorCode(code)) return serverText;
  if (locale === 'zh-CN' && CJK.test(serverText)) return serverText;
  const values: Record<string, unknown> = { ...(isRecord(detail.params) ? detail.params : {}) };
  if (typeof detail.field === 'string') values.field = detail.field;
  const words = ERROR_PARAM_WORDS[locale];
  let complete = true;
  const text = ERROR_MESSAGES[locale][code].replace(/\{(\w+)\}/g, (_, name: string) => {
    const v = values[name];
    if (typeof v !== 'string' && typeof v !== 'number') {
      complete = false;
      return '';
    }
    return name === 'kind' && Object.hasOwn(words, String(v)) ? words[String(v)] : String(v);
  });
  if (!complete) return serverText;
  // a server fault names its request id for the log: kept
  const id = REQUEST_ID.exec(serverText)?.[0];
  return id ? `${text} ${id.trim()}` : text;
}
