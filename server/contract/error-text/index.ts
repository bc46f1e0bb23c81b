/**
 * The one home of the API error sentences (server/domain/error-codes.ts) in each interface language,
 * read by the web app (web/src/api/error-sentence.ts) and the terminal (cli/i18n/index.ts).
 * `{name}` is replaced by `params.name` of the error (`{field}` by its `field`); a sentence whose
 * placeholders the error does not fill is not used (the server's own `error` text is said instead).
 * zh-CN says what the server says (its `error` texts are Chinese), without the parts that would
 * repeat what the client sent. Pure: no DOM, no Node.
 */
import { isApiErrorCode } from '../../domain/error-codes.js';
import { en } from './en.js';
import { ja } from './ja.js';
import { zhCN } from './zh-CN.js';
import type { ErrorCatalogue, ErrorLocale, ParamWords } from './types.js';

export type { ErrorCatalogue, ErrorLocale, ParamWords } from './types.js';

export const ERROR_MESSAGES: Record<ErrorLocale, ErrorCatalogue> = { en, ja, 'zh-CN': zhCN };

/** What `params.kind` of LABEL_NOT_FOUND names, per language. */
export const ERROR_PARAM_WORDS: Record<ErrorLocale, ParamWords> = {
  en: { circles: 'Circle', tags: 'Tag', vas: 'Voice actor' },
  ja: { circles: 'サークル', tags: 'タグ', vas: '声優' },
  'zh-CN': { circles: '社团', tags: '标签', vas: '声优' },
};

/** What an error body (one `errors[]` entry, or an AppError) says about itself. */
export interface ErrorDetail {
  code?: unknown;
  field?: unknown;
  params?: unknown;
}

const CJK = /[\u3040-\u30ff\u3400-\u9fff]/;
const REQUEST_ID = /\s*\(request [^)]*\)$/;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The sentence for `detail` in `locale`, else `serverText`: when the code is unknown (an older or
 * newer server), when the sentence needs a parameter the error does not carry, and in Chinese, where
 * the server's own text already is the sentence (with every detail).
 */
export function errorSentence(detail: ErrorDetail, serverText: string, locale: ErrorLocale): string {
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
