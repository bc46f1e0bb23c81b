/**
 * The web app (and the terminal) say every API error code in each interface language
 * (server/contract/error-text), with the same placeholders in every language, and fall back to the
 * server's `error` text when they cannot.
 */
import { describe, expect, it } from 'vitest';
import { API_ERROR_CODES } from '../../server/domain/error-codes.js';
import { ERROR_MESSAGES, ERROR_PARAM_WORDS, type ErrorLocale } from '../../server/contract/error-text/index.js';
import { errorSentence } from '../../web/src/api/error-sentence.js';
import { ApiError } from '../../web/src/api/client.js';

const LOCALES: ErrorLocale[] = ['en', 'ja', 'zh-CN'];
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('API error sentences', () => {
  it('every code has a sentence in every language, with the same placeholders', () => {
    for (const locale of LOCALES) {
      const catalogue = ERROR_MESSAGES[locale];
      expect(Object.keys(catalogue).sort(), locale).toEqual([...API_ERROR_CODES].sort());
      for (const code of API_ERROR_CODES) {
        expect(catalogue[code].trim(), `${locale} ${code}`).not.toBe('');
        expect(placeholders(catalogue[code]), `${locale} ${code}`).toEqual(placeholders(ERROR_MESSAGES['zh-CN'][code]));
      }
      expect(Object.keys(ERROR_PARAM_WORDS[locale]).sort()).toEqual(['circles', 'tags', 'vas']);
    }
  });

  it('fills field and params, and names label kinds in the language', () => {
    expect(errorSentence({ code: 'USERNAME_TOO_SHORT', params: { min: 5 } }, '用户名长度至少为 5', 'en')).toBe('Username must be at least 5 characters.');
    expect(errorSentence({ code: 'FIELD_INVALID', field: 'page' }, '参数 page 无效: …', 'ja')).toBe('page の値が無効です。');
    expect(errorSentence({ code: 'LABEL_NOT_FOUND', params: { kind: 'tags' } }, '标签9不存在', 'en')).toBe('Tag not found.');
    expect(errorSentence({ code: 'WORK_NOT_FOUND', params: { work: 'RJ01234567' } }, '作品 RJ01234567 不存在', 'ja')).toBe('作品 RJ01234567 は存在しません。');
    expect(errorSentence({ code: 'INTERNAL' }, '服务器错误 (request abc-1)', 'en')).toBe('Server error (request abc-1)');
  });

  it("keeps the server's text for an unknown code, a missing parameter, and in Chinese", () => {
    expect(errorSentence({ code: 'SOMETHING_NEW' }, 'server says', 'en')).toBe('server says');
    expect(errorSentence({}, 'server says', 'ja')).toBe('server says');
    expect(errorSentence({ code: 'WORK_NOT_FOUND' }, '下载翻译音频文件失败 作品不存在', 'en')).toBe('下载翻译音频文件失败 作品不存在');
    expect(errorSentence({ code: 'USER_NOT_FOUND' }, '用户 bob 不存在.', 'zh-CN')).toBe('用户 bob 不存在.');
    // an English kikoeru text is said in Chinese for a Chinese reader
    expect(errorSentence({ code: 'TOKEN_MISSING' }, 'No authorization token was found', 'zh-CN')).toBe('未登录，请先登录');
  });

  it('ApiError speaks the language of <html lang> (zh-CN outside a browser) and keeps the server text', () => {
    const body = {
      error: '用户名长度至少为 5',
      code: 'USERNAME_TOO_SHORT',
      field: 'name',
      params: { min: 5 },
      errors: [{ msg: '密码长度至少为 5', param: 'password', location: 'body', code: 'PASSWORD_TOO_SHORT', params: { min: 5 } }],
    };
    const zh = new ApiError(422, 'Unprocessable Entity', body);
    expect([zh.message, zh.serverText, zh.code, zh.field]).toEqual(['用户名长度至少为 5', '用户名长度至少为 5', 'USERNAME_TOO_SHORT', 'name']);
    const g = globalThis as { document?: unknown };
    g.document = { documentElement: { lang: 'en' } };
    try {
      const en = new ApiError(422, 'Unprocessable Entity', body);
      expect(en.message).toBe('Username must be at least 5 characters.');
      expect(en.serverText).toBe('用户名长度至少为 5');
      expect(en.fieldErrors).toEqual([{ msg: 'Password must be at least 5 characters.', param: 'password', code: 'PASSWORD_TOO_SHORT' }]);
    } finally {
      delete g.document;
    }
  });
});
