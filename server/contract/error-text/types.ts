import type { ApiErrorCode } from '../../domain/error-codes.js';

/** The languages the error sentences are written in (the web app's and the terminal's). */
export type ErrorLocale = 'en' | 'ja' | 'zh-CN';

/** One sentence per API error code; `{name}` stands for `params.name` (`{field}` for `field`). */
export type ErrorCatalogue = Record<ApiErrorCode, string>;

/** Words a parameter value stands for (`params.kind` of LABEL_NOT_FOUND). */
export type ParamWords = Record<string, string>;
