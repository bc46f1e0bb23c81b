/**
 * The terminal in three languages, as a real process (the built CLI): help, a refused input and the
 * scan summary in en / ja / zh-CN; the precedence --lang > KIKOPLAY_LANG > LC_ALL / LC_MESSAGES / LANG;
 * an unknown --lang refused; --json the same in every language.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, type CliTestLang } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/app.js';

/** A data dir whose one root folder holds `n` small work folders (an offline scan adds them). */
function smallLibrary(n = 2): string {
  const root = tempDir('kikoplay-lang-lib-');
  for (let i = 0; i < n; i++) {
    const dir = path.join(root, `RJ${300100 + i} work ${i}`);
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'readme.txt'), `work ${i}`);
  }
  const dataDir = tempDir('kikoplay-lang-');
  writeFileSync(path.join(dataDir, 'config.json'), JSON.stringify({ rootFolders: [{ name: 'lib', path: root }] }));
  return dataDir;
}

const HELP: Record<Exclude<CliTestLang, null>, RegExp[]> = {
  en: [/^Usage: kikoplay \[options\] \[command\]$/m, /^Options:$/m, /^Commands:$/m, /display help for command/, /scan the library folders for works/],
  ja: [/^使い方: kikoplay \[オプション\] \[コマンド\]$/m, /^オプション:$/m, /^コマンド:$/m, /コマンドのヘルプを表示/, /ライブラリフォルダーの作品をスキャンする/],
  'zh-CN': [/^用法: kikoplay \[选项\] \[命令\]$/m, /^选项:$/m, /^命令:$/m, /显示命令帮助/, /扫描媒体库文件夹中的作品/],
};

/** A refused input: the service's AppError said by its code (USERNAME_TOO_SHORT, min 5) from the API catalogue. */
const SHORT_NAME: Record<Exclude<CliTestLang, null>, string> = {
  en: 'kikoplay: Username must be at least 5 characters.',
  ja: 'kikoplay: ユーザー名は 5 文字以上にしてください。',
  'zh-CN': 'kikoplay: 用户名长度至少为 5',
};

const SUMMARY: Record<Exclude<CliTestLang, null>, string> = {
  en: 'Scan finished: 2 added, 0 updated, 0 skipped, 0 failed.',
  ja: 'スキャン完了: 追加 2 件、更新 0 件、スキップ 0 件、失敗 0 件。',
  'zh-CN': '扫描完成: 新增 2 个，更新 0 个，跳过 0 个，失败 0 个.',
};

const LANGS = ['en', 'ja', 'zh-CN'] as const;

describe('the terminal in en, ja and zh-CN', () => {
  for (const lang of LANGS) {
    it(`${lang}: help, a refused input and the scan summary`, { timeout: 60_000 }, async () => {
      const help = await runCli(['--help'], { lang });
      expect(help.code).toBe(0);
      for (const re of HELP[lang]) expect(help.stdout).toMatch(re);
      const scanHelp = await runCli(['scan', '--help'], { lang });
      expect(scanHelp.code).toBe(0);
      for (const re of HELP[lang].slice(1, 2)) expect(scanHelp.stdout).toMatch(re);

      const dir = tempDir('kikoplay-lang-users-');
      const short = await runCli(['--data-dir', dir, 'user', 'add', 'bob', '--password', 'secret1'], { lang });
      expect(short.code).not.toBe(0);
      expect(short.stderr.trim()).toBe(SHORT_NAME[lang]);

      const scan = await runCli(['--data-dir', smallLibrary(), 'scan', '--offline'], { lang, timeoutMs: 60_000 });
      expect(scan.code, scan.stderr).toBe(0);
      const lines = scan.stdout.trim().split('\n');
      expect(lines.at(-1)).toBe(SUMMARY[lang]);
      // every line in the one language: the Chinese summary appears only in a zh-CN run
      if (lang !== 'zh-CN') expect(scan.stdout).not.toMatch(/[扫描完成新增]{2}/);
    });
  }

  it('takes --lang over KIKOPLAY_LANG over LC_ALL / LC_MESSAGES / LANG; English when none matches', { timeout: 60_000 }, async () => {
    const said = async (args: string[], env: NodeJS.ProcessEnv) => {
      const r = await runCli([...args, '--help'], { lang: null, env });
      expect(r.code, r.stderr).toBe(0);
      return r.stdout.split('\n')[0].split(' ')[0];
    };
    expect(await said(['--lang', 'ja'], { KIKOPLAY_LANG: 'zh-CN', LANG: 'en_US.UTF-8' })).toBe('使い方:');
    expect(await said(['--lang=zh-CN'], { KIKOPLAY_LANG: 'ja' })).toBe('用法:');
    expect(await said([], { KIKOPLAY_LANG: 'zh-CN', LC_ALL: 'ja_JP.UTF-8', LANG: 'ja_JP.UTF-8' })).toBe('用法:');
    expect(await said([], { LANG: 'ja_JP.UTF-8' })).toBe('使い方:');
    expect(await said([], { LANG: 'zh_TW.UTF-8' })).toBe('用法:');
    expect(await said([], { LC_ALL: 'en_US.UTF-8', LANG: 'ja_JP.UTF-8' })).toBe('Usage:');
    expect(await said([], { LC_MESSAGES: 'zh_CN.UTF-8', LANG: 'en_US.UTF-8' })).toBe('用法:');
    expect(await said([], { LANG: 'C' })).toBe('Usage:');
    expect(await said([], { LANG: 'fr_FR.UTF-8' })).toBe('Usage:');
    expect(await said([], {})).toBe('Usage:');
  });

  it('refuses an unknown --lang, in the language of the environment, exit 2', async () => {
    const en = await runCli(['--lang', 'fr', 'config', 'path'], { lang: null });
    expect(en.code).toBe(2);
    expect(en.stdout).toBe('');
    expect(en.stderr.trim()).toBe('kikoplay: unknown language "fr" for --lang (use en, ja, zh-CN)');
    const ja = await runCli(['--lang=klingon', '--help'], { lang: null, env: { LANG: 'ja_JP.UTF-8' } });
    expect(ja.code).toBe(2);
    expect(ja.stderr).toContain('"klingon"');
    expect(ja.stderr).toContain('en, ja, zh-CN');
    expect(ja.stderr).toMatch(/使えません/);
  });

  it('translates commander’s own errors', async () => {
    const ja = await runCli(['frobnicate'], { lang: 'ja' });
    expect(ja.code).not.toBe(0);
    expect(ja.stderr).toContain("エラー: 不明なコマンド 'frobnicate'");
    expect(ja.stderr).toContain('(使い方は --help で表示できます)');
    const zh = await runCli(['scan', '--frob'], { lang: 'zh-CN' });
    expect(zh.code).not.toBe(0);
    expect(zh.stderr).toContain("错误: 未知选项 '--frob'");
  });

  it('keeps --json the same in every language: codes, numbers and the message keys', { timeout: 90_000 }, async () => {
    const runs = [];
    for (const lang of LANGS) runs.push(await runCli(['--data-dir', smallLibrary(), 'scan', '--offline', '--json'], { lang, timeoutMs: 60_000 }));
    const shapes = runs.map((r) => {
      expect(r.code, r.stderr).toBe(0);
      return r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .filter((e) => e.type === 'main-log' || e.type === 'finished')
        .map(({ type, key, params, message, counts }) => ({
          type,
          key,
          params: JSON.stringify(params)?.replace(/\/tmp\/[^"]*/g, '<dir>'),
          message: typeof message === 'string' ? message.replace(/\/tmp\/\S*/g, '<dir>') : message,
          counts,
        }));
    });
    expect(shapes[1]).toEqual(shapes[0]);
    expect(shapes[2]).toEqual(shapes[0]);
    const finished = shapes[0].at(-1)!;
    expect(finished).toMatchObject({ type: 'finished', key: 'finishedScan', counts: { added: 2, updated: 0, skipped: 0, failed: 0 } });
    // the stored text stays the scanner's Chinese (the web dashboard shows it)
    expect(finished.message).toBe(SUMMARY['zh-CN']);
    expect(shapes[0].some((e) => e.key === 'foundFolders' && e.params === '[2]')).toBe(true);
  });
});
