/**
 * `kikoplay worker` speaks the run's language, as a real process (the built CLI) against a real
 * server: a refused option, a fatal refusal by the server, and its log lines, in English and Japanese.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { startTestServer, tempDir, type TestServer } from '../helpers/app.js';

describe('the AI worker in en and ja', () => {
  let t: TestServer;
  let token: string;
  beforeAll(async () => {
    t = await startTestServer();
    token = (await t.app.services.workerTokens.create('lang-box')).token;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses a bad option in the run’s language, exit 1', async () => {
    const en = await runCli(['worker', '--server', 'ftp://nas'], { lang: 'en' });
    expect(en.code).toBe(1);
    expect(en.stderr.trim()).toBe('kikoplay: --server must be an http(s) URL, got "ftp://nas"');
    const ja = await runCli(['worker', '--server', 'ftp://nas'], { lang: 'ja' });
    expect(ja.code).toBe(1);
    expect(ja.stderr.trim()).toBe('kikoplay: --server には http(s) の URL を指定してください（指定値: "ftp://nas"）');
  });

  it('says the server’s refusal (no credentials) in the run’s language, exit 1', async () => {
    const en = await runCli(['worker', '--server', t.url, '--once', '--state-dir', tempDir('kikoplay-wl-')], { lang: 'en' });
    expect(en.code).toBe(1);
    expect(en.stderr.trim()).toBe('kikoplay: the server needs a login: give --token or --user/--password');
    const ja = await runCli(['worker', '--server', t.url, '--once', '--state-dir', tempDir('kikoplay-wl-')], { lang: 'ja' });
    expect(ja.code).toBe(1);
    expect(ja.stderr.trim()).toBe('kikoplay: サーバーにはログインが必要です。--token か --user/--password を指定してください');
  });

  it('logs in the run’s language', async () => {
    const args = ['worker', '--server', t.url, '--token', token, '--name', 'box', '--once'];
    const en = await runCli([...args, '--state-dir', tempDir('kikoplay-wl-')], { lang: 'en' });
    expect(en.code, en.stderr).toBe(0);
    expect(en.stderr).toMatch(new RegExp(`^\\[[\\d :-]+\\] worker "box" connected to ${t.url}$`, 'm'));
    expect(en.stderr).toContain('worker stopped: 0 done, 0 failed, 0 taken back');
    const ja = await runCli([...args, '--state-dir', tempDir('kikoplay-wl-')], { lang: 'ja' });
    expect(ja.code, ja.stderr).toBe(0);
    expect(ja.stderr).toMatch(new RegExp(`^\\[[\\d :-]+\\] ワーカー "box" が ${t.url} に接続しました$`, 'm'));
    expect(ja.stderr).not.toMatch(/connected|worker stopped/);
  });
});
