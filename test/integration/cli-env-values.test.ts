/**
 * The environment variables that stand for a flag are checked like the flag: an unknown
 * KIKOPLAY_LANG, KIKOPLAY_LOG_FORMAT or KIKOPLAY_LOG_LEVEL is refused with the flag's message (naming the
 * variable) and exit 2, never ignored and never a raw logger error. Run as a real process.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/app.js';

describe('KIKOPLAY_* values of the terminal', () => {
  it('refuses an unknown KIKOPLAY_LOG_LEVEL before anything runs', async () => {
    const res = await runCli(['-d', tempDir(), 'user', 'list'], { env: { KIKOPLAY_LOG_LEVEL: 'bogus' } });
    expect(res.stderr).toBe('kikoplay: unknown log level "bogus" for KIKOPLAY_LOG_LEVEL (use trace, debug, info, warn, error, fatal or silent)\n');
    expect(res.code).toBe(2);
  });

  it('refuses an unknown KIKOPLAY_LOG_FORMAT like --log-format', async () => {
    const res = await runCli(['-d', tempDir(), 'config', 'get', 'pageSize'], { env: { KIKOPLAY_LOG_FORMAT: 'xml' } });
    expect(res.stderr).toBe('kikoplay: unknown log format "xml" for KIKOPLAY_LOG_FORMAT (use pretty or json)\n');
    expect(res.stdout).toBe('');
    expect(res.code).toBe(2);
    // the flag decides when both are given
    const flag = await runCli(['-d', tempDir(), '--log-format', 'json', 'config', 'get', 'pageSize'], { env: { KIKOPLAY_LOG_FORMAT: 'xml' } });
    expect(flag.code).toBe(0);
    expect(flag.stdout).toBe('12\n');
  });

  it('refuses an unknown KIKOPLAY_LANG like --lang, in the language of the locale', async () => {
    const res = await runCli(['-d', tempDir(), 'config', 'get', 'pageSize'], { lang: null, env: { KIKOPLAY_LANG: 'xx' } });
    expect(res.stderr).toBe('kikoplay: unknown language "xx" for KIKOPLAY_LANG (use en, ja, zh-CN)\n');
    expect(res.code).toBe(2);
    const ja = await runCli(['-d', tempDir(), 'config', 'get', 'pageSize'], { lang: null, env: { KIKOPLAY_LANG: 'xx', LANG: 'ja_JP.UTF-8' } });
    expect(ja.stderr).toBe('kikoplay: KIKOPLAY_LANG の言語 "xx" は使えません（en, ja, zh-CN のいずれか）\n');
    expect(ja.code).toBe(2);
    // --lang decides when given; a locale name is a language
    expect((await runCli(['-d', tempDir(), '--lang', 'en', 'config', 'get', 'pageSize'], { lang: null, env: { KIKOPLAY_LANG: 'xx' } })).code).toBe(0);
    expect((await runCli(['-d', tempDir(), 'config', 'get', 'pageSize'], { lang: null, env: { KIKOPLAY_LANG: 'ja_JP.UTF-8' } })).code).toBe(0);
  });
});
