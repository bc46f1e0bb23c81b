/**
 * A refused config change says per key what is wrong, in the interface language: the schema's issues
 * become field errors with codes (server/config/schema.ts configFieldErrors), and the advanced page
 * puts each under its field (web/src/features/admin/config-fields.ts serverFieldErrors) after
 * ApiError.fieldErrors has said it through the shared error sentences.
 */
import { describe, expect, it } from 'vitest';
import { configFieldErrors, configSchema } from '../../server/config/schema.js';
import { errorSentence } from '../../server/contract/error-text/index.js';
import { serverFieldErrors } from '../../web/src/features/admin/config-fields.js';

const issues = (config: Record<string, unknown>) => {
  const r = configSchema.safeParse(config);
  if (r.success) throw new Error('expected a refusal');
  return configFieldErrors(r.error);
};

describe('config field errors', () => {
  it('gives every issue a code and the parameters of its sentence', () => {
    expect(issues({ listenPort: 70000 })).toMatchObject([{ param: 'listenPort', code: 'CONFIG_VALUE_TOO_BIG', params: { max: 65535 } }]);
    expect(issues({ pageSize: 0 })).toMatchObject([{ param: 'pageSize', code: 'CONFIG_VALUE_TOO_SMALL', params: { min: 1 } }]);
    expect(issues({ retry: 'x' })).toMatchObject([{ param: 'retry', code: 'CONFIG_VALUE_TYPE' }]);
    expect(issues({ allowedOrigins: ['x'] })).toMatchObject([{ param: 'allowedOrigins.0', code: 'CONFIG_ORIGIN_INVALID' }]);
    expect(issues({ publicHosts: Array(65).fill('a') })).toMatchObject([{ param: 'publicHosts', code: 'CONFIG_LIST_TOO_LONG', params: { max: 64 } }]);
    // the folder rules keep their own codes
    expect(issues({ coverUseDefaultPath: false, coverFolderDir: '' })).toMatchObject([{ param: 'coverFolderDir', code: 'COVER_FOLDER_REQUIRED' }]);
    expect(issues({ rootFolders: [{ name: 'a', path: 'rel' }] })).toMatchObject([{ param: 'rootFolders.0.path', code: 'FOLDER_PATH_NOT_ABSOLUTE' }]);
    expect(issues({ scanCron: '61 * * * *' })).toMatchObject([{ param: 'scanCron', code: 'CONFIG_CRON_INVALID' }]);
    expect(issues({ dlsiteBaseUrl: 'javascript:alert(1)' })).toMatchObject([{ param: 'dlsiteBaseUrl', code: 'CONFIG_URL_INVALID' }]);
    expect(issues({ offloadStreamPath: '//elsewhere' })).toMatchObject([{ param: 'offloadStreamPath', code: 'CONFIG_OFFLOAD_INVALID' }]);
    expect(issues({ databaseFolderDir: 'relative/dir' })).toMatchObject([{ param: 'databaseFolderDir', code: 'FOLDER_PATH_NOT_ABSOLUTE' }]);
  });

  it('says each in the interface language, the folder rules keeping their Chinese text in zh-CN', () => {
    const say = (config: Record<string, unknown>, locale: 'zh-CN' | 'en' | 'ja') =>
      serverFieldErrors(issues(config).map((f) => ({ param: f.param, msg: errorSentence({ code: f.code, field: f.param, params: f.params }, f.msg, locale) })));
    expect(say({ pageSize: 500 }, 'zh-CN')).toEqual({ pageSize: '不能大于 100' });
    expect(say({ pageSize: 500 }, 'en')).toEqual({ pageSize: 'Must be at most 100.' });
    expect(say({ pageSize: 500 }, 'ja')).toEqual({ pageSize: '100 以下にしてください。' });
    expect(say({ dlsiteBaseUrl: 'nope' }, 'zh-CN')).toEqual({ dlsiteBaseUrl: '必须是有效的网址' });
    expect(say({ coverUseDefaultPath: false, coverFolderDir: '' }, 'zh-CN').coverFolderDir).toMatch(/封面文件夹/);
    expect(say({ coverUseDefaultPath: false, coverFolderDir: '' }, 'en').coverFolderDir).toBe('Enter a cover folder path, or use the default cover folder.');
  });

  it('keeps the first message of a key and leaves out keys the form does not show', () => {
    expect(serverFieldErrors([{ param: 'publicHosts.0', msg: 'a' }, { param: 'publicHosts.3', msg: 'b' }, { param: 'nope', msg: 'c' }, { msg: 'd' }])).toEqual({ publicHosts: 'a' });
  });
});
