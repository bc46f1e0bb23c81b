/**
 * The terminal's languages in-process: how a run's language is chosen, the catalogues' shape, scan
 * lines rendered by key, the Ink scan view and user manager in a non-default language, and service
 * errors in the run's language.
 */
import React from 'react';
import { rmSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { render } from 'ink-testing-library';
import { envLang, matchLang, resolveLang, UnknownLangError } from '../../cli/i18n/lang.js';
import { CATALOGS, cliText, codeSentence, errorText, localizeScanEvent, scanLine, setCliLang } from '../../cli/i18n/index.js';
import { translateCommanderError } from '../../cli/i18n/commander.js';
import { MSG, scanText, textFields } from '../../server/library/scan/scan-messages.js';
import { MSG as USER_MSG } from '../../server/services/users-service.js';
import { AppError, conflict, notFound, validationFailed } from '../../server/domain/errors.js';
import { ConfigFileError } from '../../server/config/load.js';
import { initialScanState, reduceScanState } from '../../server/contract/scan-state.js';
import type { ScanEvent } from '../../server/contract/scan-events.js';
import { ScanView } from '../../cli/tui/scan-view.js';
import { formatScanEventPlain } from '../../cli/output/scan-plain.js';
import { UserManager } from '../../cli/tui/user-manager.js';
import { usersApi } from '../../cli/tui/user-manager-run.js';
import { createAppContext } from '../../server/app/create-app.js';
import { createLogger } from '../../server/app/logger.js';
import type { AppContext } from '../../server/app/services.js';
import { CLI_ACTOR } from '../../cli/context.js';
import { tempDir } from '../helpers/app.js';

afterEach(() => setCliLang('en'));

describe('the language of a run', () => {
  it('reads locale names', () => {
    expect(matchLang('ja_JP.UTF-8')).toBe('ja');
    expect(matchLang('zh_CN.UTF-8')).toBe('zh-CN');
    expect(matchLang('zh_TW')).toBe('zh-CN');
    expect(matchLang('zh')).toBe('zh-CN');
    expect(matchLang('en_US')).toBe('en');
    expect(matchLang('C')).toBeNull();
    expect(matchLang('POSIX')).toBeNull();
    expect(matchLang('de_DE.UTF-8')).toBeNull();
  });

  it('takes --lang, then KIKOPLAY_LANG, then LC_ALL / LC_MESSAGES / LANG, else English', () => {
    const env = { KIKOPLAY_LANG: 'zh-CN', LC_ALL: 'en_US.UTF-8', LANG: 'en_US.UTF-8' };
    expect(resolveLang(['--lang', 'ja', 'scan'], env)).toBe('ja');
    expect(resolveLang(['scan', '--lang=ja'], env)).toBe('ja');
    expect(resolveLang(['scan'], env)).toBe('zh-CN');
    expect(envLang({ KIKOPLAY_LANG: 'xx', LC_ALL: 'ja_JP.UTF-8' })).toBe('ja');
    expect(envLang({ LC_ALL: '', LC_MESSAGES: 'ja_JP.UTF-8', LANG: 'zh_CN.UTF-8' })).toBe('ja');
    expect(envLang({ LC_ALL: 'C', LANG: 'ja_JP.UTF-8' })).toBe('en');
    expect(envLang({})).toBe('en');
    // a value after `--` is an argument, not our option
    expect(resolveLang(['config', 'set', '--', '--lang', 'fr'], {})).toBe('en');
    expect(() => resolveLang(['--lang', 'fr'], {})).toThrow(UnknownLangError);
    expect(() => resolveLang(['--lang'], {})).toThrow(UnknownLangError);
  });
});

/** Every leaf of a catalogue: path → kind (string / function of n parameters / array of n). */
function leaves(value: unknown, at = ''): Record<string, string> {
  if (typeof value === 'string') return { [at]: 'string' };
  if (typeof value === 'function') return { [at]: `function/${value.length}` };
  if (Array.isArray(value)) return { [at]: `array/${value.length}` };
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => Object.entries(leaves(v, at ? `${at}.${k}` : k))));
}

describe('the catalogues', () => {
  it('have the same keys, kinds and parameters in en, ja and zh-CN; zh-CN scan lines are the scanner’s own', () => {
    const en = leaves(CATALOGS.en);
    expect(leaves(CATALOGS.ja)).toEqual(en);
    expect(leaves(CATALOGS['zh-CN'])).toEqual(en);
    expect(Object.keys(CATALOGS.en.scan.messages).sort()).toEqual(Object.keys(MSG).sort());
    expect(CATALOGS['zh-CN'].scan.messages).toBe(MSG);
    expect(codeSentence('USERNAME_TOO_SHORT', { min: 5 }, cliText('zh-CN'))).toBe(USER_MSG.nameTooShort);
  });

  it('render scan lines by key; a line without a known key keeps its text', () => {
    const line = textFields(scanText('foundFolders', 3));
    expect(line).toEqual({ message: '共找到 3 个音声文件夹.', key: 'foundFolders', params: [3] });
    expect(scanLine(line, cliText('en'))).toBe('Found 3 work folder(s).');
    expect(scanLine(line, cliText('ja'))).toBe('作品フォルダーが 3 件見つかりました。');
    expect(scanLine(line, cliText('zh-CN'))).toBe('共找到 3 个音声文件夹.');
    expect(scanLine({ message: '旧的行', key: 'noSuchKey', params: [] }, cliText('en'))).toBe('旧的行');
    const counts = { added: 1, updated: 2, skipped: 3, failed: 4 };
    const finished = localizeScanEvent(
      { type: 'finished', status: 'finished', ...textFields(scanText('finishedScan', counts)), counts, metadata: { ok: 0, failed: 0, pending: 0 }, exitCode: 1 },
      cliText('ja'),
    );
    expect(finished).toMatchObject({ message: 'スキャン完了: 追加 1 件、更新 2 件、スキップ 3 件、失敗 4 件。', key: 'finishedScan' });
  });

  it('say the services’ errors by code and params from the API catalogue; Chinese is the server’s own text', () => {
    const short = validationFailed([{ msg: USER_MSG.nameTooShort, param: 'name', location: 'body', code: 'USERNAME_TOO_SHORT', params: { min: 5 } }]);
    expect(errorText(short, cliText('en'))).toBe('Username must be at least 5 characters.');
    expect(errorText(short, cliText('ja'))).toBe('ユーザー名は 5 文字以上にしてください。');
    expect(errorText(short, cliText('zh-CN'))).toBe(USER_MSG.nameTooShort);
    // by the code, not the text: any message with the code says the same
    expect(errorText(new AppError('validation', 'whatever the text', { code: 'USERNAME_TOO_SHORT', params: { min: 7 } }), cliText('en'))).toBe('Username must be at least 7 characters.');
    expect(errorText(notFound('用户 bob, carol 不存在.', { code: 'USER_NOT_FOUND' }), cliText('en'))).toBe('User not found.');
    expect(errorText(notFound('用户 bob, carol 不存在.', { code: 'USER_NOT_FOUND' }), cliText('zh-CN'))).toBe('用户 bob, carol 不存在.');
    const busy = conflict('另一个扫描任务正在进行中 (pid 42, refresh, 开始于 2025-01-01 00:00:00)', { code: 'SCAN_RUNNING' });
    expect(errorText(busy, cliText('ja'))).toBe('ライブラリをスキャン中です。スキャンが終わってからお試しください。');
    expect(errorText(busy, cliText('zh-CN'))).toBe(busy.message);
    // a refused config.json by its problem's key
    const notObject = new ConfigFileError({ key: 'notObject', file: '/x/config.json' });
    expect(errorText(notObject, cliText('en'))).toBe('/x/config.json must hold a JSON object');
    expect(errorText(notObject, cliText('ja'))).toBe('/x/config.json には JSON オブジェクトが必要です');
    expect(errorText(notObject, cliText('zh-CN'))).toBe('/x/config.json 必须是一个 JSON 对象');
    expect(errorText(new ConfigFileError({ key: 'envInvalid', reason: 'pageSize: too big' }), cliText('zh-CN'))).toBe('环境变量中的配置无效: pageSize: too big');
    expect(errorText(new Error('something else'), cliText('ja'))).toBe('something else');
    expect(translateCommanderError("error: unknown command 'x'\n(Did you mean y?)\n", cliText('ja'))).toBe("エラー: 不明なコマンド 'x'\n(y のことですか?)\n");
    expect(translateCommanderError("error: unknown command 'x'\n", cliText('en'))).toBe("error: unknown command 'x'\n");
  });
});

const EVENTS: ScanEvent[] = [
  { type: 'started', runId: 1, kind: 'scan', pid: 1, at: '2025-01-01 00:00:00' },
  { type: 'main-log', level: 'info', ...textFields(scanText('foundFolders', 2)) },
  { type: 'task-started', code: 'RJ000001', workId: 1 },
  { type: 'task-log', code: 'RJ000001', level: 'info', ...textFields(scanText('newFolder', '/x/RJ000001')) },
  { type: 'task-started', code: 'RJ000002', workId: 2 },
  { type: 'task-log', code: 'RJ000002', level: 'error', ...textFields(scanText('workError', 'boom')) },
  { type: 'result', code: 'RJ000002', result: 'failed', count: 1 },
  { type: 'progress', phase: 'local', done: 1, total: 2, counts: { added: 0, updated: 0, skipped: 0, failed: 1 } },
];

describe('the Ink scan view and the plain lines in Japanese', () => {
  it('renders the header, counts, tasks and log in the catalogue’s words', () => {
    const ja = cliText('ja');
    const state = EVENTS.map((e) => localizeScanEvent(e, ja)).reduce((st, e) => reduceScanState(st, e), initialScanState());
    const view = render(<ScanView state={state} onCancel={() => undefined} width={100} texts={ja} />);
    const frame = view.lastFrame() ?? '';
    expect(frame).toContain('kikoplay · ライブラリのスキャン · ローカルファイルをスキャン中');
    expect(frame).toContain('失敗 1');
    expect(frame).toContain('[RJ000001] 新しいフォルダー: "/x/RJ000001"');
    expect(frame).toContain('[RJ000002] 作品の処理中にエラーが発生しました: boom');
    expect(frame).toContain('作品フォルダーが 2 件見つかりました。');
    expect(frame).toContain('q または Ctrl-C でスキャンをキャンセル');
    expect(frame).not.toMatch(/[\u4e00-\u9fff]{2,}个|扫描|处理中|日志/);
    view.unmount();
  });

  it('does not repeat the job in the header when the phase says the same', () => {
    const state = reduceScanState(reduceScanState(initialScanState(), EVENTS[0]), { type: 'progress', phase: 'metadata', done: 0, total: 1, counts: { added: 0, updated: 0, skipped: 0, failed: 0 } });
    const view = render(<ScanView state={{ ...state, kind: 'refresh', phase: 'refresh' }} onCancel={() => undefined} texts={cliText('en')} />);
    expect(view.lastFrame()).toContain('kikoplay · metadata refresh · refreshing metadata');
    view.unmount();
    const zh = render(<ScanView state={state} onCancel={() => undefined} texts={cliText('zh-CN')} />);
    expect(zh.lastFrame()).toContain('kikoplay · 扫描媒体库 · 抓取元数据');
    zh.unmount();
  });

  it('prints plain lines in the run’s language', () => {
    setCliLang('ja');
    expect(formatScanEventPlain(EVENTS[1])).toBe('INFO 作品フォルダーが 2 件見つかりました。');
    expect(formatScanEventPlain({ type: 'task-failed', code: 'RJ000002', ...(({ message, ...ref }) => ({ error: message, ...ref }))(textFields(scanText('refreshError', 'x'))) })).toBe(
      'ERROR [RJ000002] メタデータの取得中にエラーが発生しました: x',
    );
    expect(formatScanEventPlain({ type: 'progress', phase: 'local', done: 2, total: 2, counts: { added: 0, updated: 0, skipped: 0, failed: 0 } })).toBe('進捗 local: 2/2');
    setCliLang('en');
    expect(formatScanEventPlain(EVENTS[1])).toBe('INFO Found 2 work folder(s).');
  });
});

describe('the Ink user manager in English and Japanese', () => {
  let dir: string;
  let app: AppContext;
  beforeAll(async () => {
    dir = tempDir('kikoplay-um-lang-');
    app = await createAppContext({ dataDir: dir, env: {}, logger: createLogger({ level: 'silent' }) });
    await app.services.users.create(CLI_ACTOR, { name: 'admin', password: 'admin-pass', group: 'admin' }, { allowAdmin: true });
  });
  afterAll(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function mount(lang: 'en' | 'ja') {
    const view = render(<UserManager api={usersApi(app.services.users, CLI_ACTOR)} onExit={() => undefined} width={100} texts={cliText(lang)} />);
    const until = (text: string) =>
      vi.waitFor(
        () => {
          if (!(view.lastFrame() ?? '').includes(text)) throw new Error(`not yet: ${text}\n${view.lastFrame()}`);
        },
        { timeout: 5000, interval: 10 },
      );
    /** Typed text one key at a time; an escape sequence (an arrow key) in one piece, as a terminal sends it. */
    const press = async (keys: string) => {
      for (const ch of keys.startsWith('\u001B') ? [keys] : keys) {
        view.stdin.write(ch);
        await new Promise((r) => setTimeout(r, 5));
      }
    };
    return { view, until, press };
  }

  it('refuses a short name and the last admin’s role change in English', async () => {
    const m = mount('en');
    await m.until('› admin');
    await m.until('Administrator');
    await m.until('[a] add');
    await m.press('a');
    await m.until('Add user');
    await m.press('abc');
    await m.press('\r');
    await m.until('✘ Username must be at least 5 characters.');
    await m.press('\u001B');
    await m.until('[a] add');
    await m.press('r');
    await m.until('Change the role of admin');
    await m.press('\u001B[B');
    await m.press('\r');
    // the service's error, by its code, in the manager's language
    await m.until('✘ The last administrator cannot lose the admin role.');
    m.view.unmount();
  });

  it('speaks Japanese', async () => {
    const m = mount('ja');
    await m.until('› admin');
    await m.until('管理者');
    await m.until('[a] 追加');
    await m.press('d');
    await m.until('ユーザー admin を削除しますか？');
    await m.press('y');
    await m.until('✘ 最後の管理者アカウントは削除できません。');
    m.view.unmount();
  });
});
