import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { startTestServer, tempDir, type TestServer } from '../helpers/app.js';

const cli = cliInProcess;

describe('worker tokens: kikoplay worker-token and what a token may reach', () => {
  const dir = tempDir();
  let token: string;
  let t: TestServer;

  beforeAll(async () => {
    const created = await cli(['--data-dir', dir, 'worker-token', 'create', 'gpu-box']);
    expect(created.code).toBe(0);
    token = created.stdout.trim();
    expect(created.stderr).toContain('shown only this once');
    t = await startTestServer({ dataDir: dir });
  });
  afterAll(() => t.close());

  it('prints a long random token once and stores only its sha256', async () => {
    expect(token).toMatch(/^kpw_[A-Za-z0-9_-]{43}$/);
    const row = await t.app.db.get<{ token_hash: string }>("SELECT token_hash FROM worker_tokens WHERE name = 'gpu-box'");
    expect(row!.token_hash).toBe(createHash('sha256').update(token).digest('hex'));

    const list = await cli(['--data-dir', dir, 'worker-token', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/gpu-box\s+active/);
    expect(list.stdout).not.toContain(token);
    const json = JSON.parse((await cli(['--data-dir', dir, 'worker-token', 'list', '--json'])).stdout) as { name: string; revoked: boolean }[];
    expect(json).toEqual([expect.objectContaining({ name: 'gpu-box', revoked: false, created_at: expect.any(String) })]);
  });

  it('refuses a duplicate or malformed name and revoking an unknown one, changing nothing', async () => {
    // in Chinese: the server's own texts, as the terminal says them in zh-CN
    const dup = await cli(['--lang', 'zh-CN', '--data-dir', dir, 'worker-token', 'create', 'gpu-box']);
    expect(dup.code).not.toBe(0);
    expect(dup.stderr).toContain('已存在');
    const bad = await cli(['--lang', 'zh-CN', '--data-dir', dir, 'worker-token', 'create', 'two words']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('名称无效');
    const unknown = await cli(['--lang', 'zh-CN', '--data-dir', dir, 'worker-token', 'revoke', 'nobody']);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('nobody');
    expect(await t.app.db.all('SELECT name, revoked FROM worker_tokens')).toEqual([{ name: 'gpu-box', revoked: 0 }]);
  });

  it('reaches the five worker endpoints and GET /api/auth/me, and nothing else', async () => {
    expect(await t.json('GET', '/api/auth/me', { token })).toEqual({ status: 200, body: { user: { name: 'gpu-box', group: 'worker', role: 'worker' }, auth: true } });
    expect(await t.json('POST', '/api/lyric/translate/acquire', { token, body: { worker_name: 'w' } })).toEqual({ status: 404, body: { error: '无待认领的翻译任务', code: 'AI_QUEUE_EMPTY' } });
    expect((await t.json('POST', '/api/lyric/translate/status', { token, body: { id: 1, secret: 'x', worker_status: 'y' } })).body).toEqual({ success: false });
    expect((await t.json('GET', '/api/lyric/translate/get?id=1&secret=x', { token })).body).toEqual({});
    expect((await t.request('GET', '/api/lyric/translate/download?id=1&secret=x', { token })).status).toBe(404);
    expect((await t.json('POST', '/api/lyric/translate/finish', { token, body: { id: 1, secret: 'x', success: true, lrc_content: '' } })).status).toBe(404);

    const elsewhere: [string, string][] = [
      ['GET', '/api/lyric/translate?page=1&status=[]'],
      ['GET', '/api/lyric/translate/lrc?id=1'],
      ['PUT', '/api/lyric/translate/1/0'],
      ['DELETE', '/api/lyric/translate/1'],
      ['GET', '/api/works'],
      ['GET', '/api/config/admin'],
      ['GET', '/api/credentials/users'],
      ['PUT', '/api/review'],
      ['GET', `/api/media/stream/1/0?token=${token}`],
    ];
    for (const [method, p] of elsewhere) {
      const res = await t.json<{ error: string }>(method, p, p.includes('?token=') ? {} : { token });
      expect(res.status, `${method} ${p}`).toBe(401);
      expect(typeof res.body.error).toBe('string');
    }
    const used = await t.app.db.get<{ last_used_at: string | null }>("SELECT last_used_at FROM worker_tokens WHERE name = 'gpu-box'");
    expect(used!.last_used_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect((await t.json('POST', '/api/lyric/translate/acquire', { token: 'kpw_' + 'A'.repeat(43), body: {} })).status).toBe(401);
  });

  it('stops working at once when revoked; the name can then be issued again', async () => {
    const revoke = await cli(['--data-dir', dir, 'worker-token', 'revoke', 'gpu-box']);
    expect(revoke.code).toBe(0);
    expect((await t.json('POST', '/api/lyric/translate/acquire', { token, body: {} })).status).toBe(401);
    expect((await t.json('GET', '/api/auth/me', { token })).status).toBe(401);
    expect((await cli(['--data-dir', dir, 'worker-token', 'list'])).stdout).toMatch(/gpu-box\s+revoked/);

    const again = await cli(['--data-dir', dir, 'worker-token', 'create', 'gpu-box']);
    expect(again.code).toBe(0);
    const fresh = again.stdout.trim();
    expect(fresh).not.toBe(token);
    expect((await t.json('POST', '/api/lyric/translate/acquire', { token: fresh, body: {} })).status).toBe(404);
    expect((await t.json('POST', '/api/lyric/translate/acquire', { token, body: {} })).status).toBe(401);
  });
});

describe('kikoplay worker: options', () => {
  it('documents itself and refuses bad options with a message and a non-zero exit', async () => {
    const help = await cli(['worker', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Long audio');
    expect(help.stdout).toContain('--translate-to');

    const glossary = path.join(tempDir(), 'bad-glossary.txt');
    writeFileSync(glossary, 'お兄ちゃん=哥哥\nno equals sign here\n');
    const cases: [string[], RegExp][] = [
      [['worker'], /--server/],
      [['worker', '--server', 'nas:8888'], /--server must be an http\(s\) URL/],
      [['worker', '--server', 'http://nas', '--token', 't', '--user', 'u', '--password', 'p'], /either --token or --user/],
      [['worker', '--server', 'http://nas', '--user', 'u'], /--user needs --password/],
      [['worker', '--server', 'http://nas', '--engine', 'whisperx'], /unknown --engine "whisperx"/],
      [['worker', '--server', 'http://nas', '--translate-to', 'zh'], /--translate-model/],
      [['worker', '--server', 'http://nas', '--glossary', glossary], /need --translate-to/],
      [['worker', '--server', 'http://nas', '--translate-to', 'zh', '--translate-model', 'm', '--glossary', glossary], /glossary line 2/],
      [['worker', '--server', 'http://nas', '--poll', '-1'], /--poll must be a number/],
      [['worker', '--server', 'http://nas', '--max-upload-mb', 'big'], /--max-upload-mb must be a number/],
    ];
    for (const [args, message] of cases) {
      const res = await cli(args);
      expect(res.code, args.join(' ')).not.toBe(0);
      expect(res.stderr, args.join(' ')).toMatch(message);
    }
  });
});
