import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { speechLikeWav, startAiLibrary, type AiLibrary } from '../helpers/ai-library.js';
import { FIXED_SCRIPT, startFakeOpenAi, utteranceText, type FakeOpenAi } from '../helpers/fake-openai.js';
import { tempDir, type TestServer } from '../helpers/app.js';
import { parseWorkerOptions, type RawWorkerFlags, type WorkerOptions } from '../../server/worker/options.js';
import { runWorker } from '../../server/worker/run-worker.js';
import type { WorkerLog } from '../../server/worker/log.js';

interface Task {
  id: number;
  status: number;
  status_text: string;
  worker_name: string;
  worker_status: string;
}

/** `[MM:SS.CC] text` lines as [seconds, text]. */
const lrcLines = (lrc: string) =>
  lrc
    .trim()
    .split('\n')
    .map((l) => {
      const m = /^\[(\d+):(\d\d)\.(\d\d)\] (.*)$/.exec(l);
      if (!m) throw new Error(`not an LRC line: ${l}`);
      return [Number(m[1]) * 60 + Number(m[2]) + Number(m[3]) / 100, m[4]] as const;
    });

const UTTERANCES = [
  { start: 2, end: 3 },
  { start: 8, end: 9.5 },
  { start: 15, end: 16.2 },
  { start: 22, end: 24 },
];

describe('kikoplay worker against the real server and an OpenAI-compatible service', () => {
  let lib: AiLibrary;
  let t: TestServer;
  let fake: FakeOpenAi;
  let alice: string;
  let workerToken: string;
  let logs: string[];
  const log: WorkerLog = { info: (m) => logs.push(m), warn: (m) => logs.push(`warn: ${m}`), error: (m) => logs.push(`error: ${m}`) };

  const options = (flags: RawWorkerFlags = {}): WorkerOptions => ({
    ...parseWorkerOptions({ server: t.url, token: workerToken, apiBase: fake.url, apiKey: 'sk-test', stateDir: tempDir('kikoplay-worker-'), once: true, name: 'gpu-1', ...flags }, {}),
    backoffMs: 5,
  });
  const tasks = async () => (await t.json<{ tasks: Task[] }>('GET', '/api/lyric/translate?page=1&status=[]', { token: alice })).body.tasks;
  const create = async (hash: string) => (await t.json<{ id: number }>('PUT', `/api/lyric/translate/${hash}`, { token: alice })).body.id;

  beforeAll(async () => {
    lib = await startAiLibrary();
    t = lib.t;
    fake = await startFakeOpenAi();
    await t.addUser('alice', 'secret1', 'user');
    alice = await t.login('alice', 'secret1');
    workerToken = (await t.app.services.workerTokens.create('gpu-box')).token;
    await lib.seedWork(345678, [
      { path: 'ボイス/01 長いトラック.wav', bytes: speechLikeWav(30, UTTERANCES) },
      { path: 'ボイス/02 短いトラック.mp3', fixture: 'tone-2s.mp3' },
      { path: 'ボイス/03 別トラック.mp3', fixture: 'tone-2s.mp3' },
      { path: 'ボイス/04 失敗トラック.ogg', fixture: 'tone-2.5s.ogg' },
    ]);
  });
  afterAll(async () => {
    await fake.close();
    await lib.close();
  });
  beforeEach(() => {
    logs = [];
    fake.release();
    fake.transcriptions.length = 0;
    fake.chats.length = 0;
  });

  it('splits a long track on silence, shows progress, finishes with an LRC that the server serves', async () => {
    const id = await create('345678/0');
    expect((await tasks()).find((x) => x.id === id)).toMatchObject({ status: 1, status_text: 'pending' });

    fake.hold();
    const controller = new AbortController();
    const running = runWorker(options({ maxUploadMb: '0.35', prompt: '同人音声' }), { signal: controller.signal, log });
    await fake.waitForTranscriptions(1);
    const during = (await tasks()).find((x) => x.id === id)!;
    expect(during).toMatchObject({ status: 2, status_text: 'transcribing', worker_name: 'gpu-1', worker_status: 'transcribing 1/3 chunks' });
    fake.release();
    const run = await running;
    expect(run).toEqual({ success: 1, failed: 0, lost: 0, stopped: false });

    // three WAV uploads, none cut through an utterance, each within the limit
    expect(fake.transcriptions).toHaveLength(3);
    for (const call of fake.transcriptions) {
      expect(call.fields).toMatchObject({ model: 'whisper-1', response_format: 'verbose_json', 'timestamp_granularities[]': 'segment', language: 'ja' });
      expect(call.fileName).toMatch(/^chunk-00\d\.wav$/);
      expect(call.fileBytes).toBeLessThanOrEqual(0.35 * 1024 * 1024);
      expect(call.authorization).toBe('Bearer sk-test');
    }
    expect(fake.transcriptions.flatMap((c) => c.segments)).toHaveLength(4);
    expect(fake.transcriptions[0].fields.prompt).toBe('同人音声');
    // later chunks get the previous chunk's text as context
    expect(fake.transcriptions[1].fields.prompt).toContain(utteranceText(1.5));

    const done = (await tasks()).find((x) => x.id === id)!;
    expect(done).toMatchObject({ status: 3, status_text: 'success' });
    const lrc = (await t.json<{ lrcContent: string }>('GET', `/api/lyric/translate/lrc?id=${id}`, { token: alice })).body.lrcContent;
    const lines = lrcLines(lrc);
    expect(lines).toHaveLength(UTTERANCES.length);
    lines.forEach(([time, text], i) => {
      expect(Math.abs(time - UTTERANCES[i].start), `line ${i} at ${time}`).toBeLessThan(0.06);
      expect(text).toBe(utteranceText(UTTERANCES[i].end - UTTERANCES[i].start));
    });
    expect(await t.app.db.get('SELECT has_ai_lyric FROM works WHERE id = 345678')).toEqual({ has_ai_lyric: 1 });
    const work = await t.json<{ lyric_status: string }>('GET', '/api/work/345678', { token: alice });
    expect(work.body.lyric_status).toBe('ai');
  });

  it('sends a small file whole and writes bilingual LRC with the glossary', async () => {
    const id = await create('345678/1');
    const glossary = path.join(tempDir(), 'glossary.txt');
    writeFileSync(glossary, '\uFEFF# 用語集\nお兄ちゃん=哥哥\n\n魔王=魔王大人\n');
    const run = await runWorker(options({ translateTo: 'zh', translateModel: 'qwen2.5', glossary }), { signal: new AbortController().signal, log });
    expect(run.success).toBe(1);

    expect(fake.transcriptions).toHaveLength(1);
    expect(fake.transcriptions[0]).toMatchObject({ fileName: `${id}.mp3`, fileType: 'audio/mpeg' });
    expect(fake.chats).toHaveLength(1);
    expect(fake.chats[0]).toMatchObject({ model: 'qwen2.5', lines: FIXED_SCRIPT, authorization: 'Bearer sk-test' });
    expect(fake.chats[0].system).toContain('Simplified Chinese');
    expect(fake.chats[0].system).toContain('お兄ちゃん => 哥哥');
    expect(fake.chats[0].system).not.toContain('魔王');

    const lrc = (await t.json<{ lrcContent: string }>('GET', `/api/lyric/translate/lrc?id=${id}`, { token: alice })).body.lrcContent;
    expect(lrc).toBe(['[00:00.00] お兄ちゃん、おかえりなさい', '[00:00.00] 译：哥哥、おかえりなさい', '[00:01.00] 今日もお疲れさまでした', '[00:01.00] 译：今日もお疲れさまでした', ''].join('\n'));
  });

  it('retries a transcription service that is briefly down, then succeeds', async () => {
    const id = await create('345678/2');
    fake.failNext(2, 503, 'overloaded');
    const run = await runWorker(options(), { signal: new AbortController().signal, log });
    expect(run.success).toBe(1);
    expect(fake.transcriptions.map((c) => c.status)).toEqual([503, 503, 200]);
    expect(logs.filter((l) => l.startsWith('warn: transcribe') && l.includes('overloaded'))).toHaveLength(2);
    expect((await tasks()).find((x) => x.id === id)!.status).toBe(3);
  });

  it('finishes a task the service refuses as an error, with the reason in worker_status', async () => {
    const id = await create('345678/3');
    fake.failNext(1, 400, 'Invalid file format');
    const run = await runWorker(options(), { signal: new AbortController().signal, log });
    expect(run).toEqual({ success: 0, failed: 1, lost: 0, stopped: false });
    const task = (await tasks()).find((x) => x.id === id)!;
    expect(task).toMatchObject({ status: 4, status_text: 'error' });
    expect(task.worker_status).toMatch(/^error: transcription service answered 400: Invalid file format/);
    expect((await t.json('GET', `/api/lyric/translate/lrc?id=${id}`, { token: alice })).status).toBe(404);
  });

  it('drops a task that is deleted while it runs, finishing nothing', async () => {
    await lib.seedWork(345679, [{ path: 'x.mp3', fixture: 'tone-2s.mp3' }]);
    const id = await create('345679/0');
    const opts = options();
    fake.hold();
    const running = runWorker(opts, { signal: new AbortController().signal, log });
    await fake.waitForTranscriptions(1);
    expect((await t.json('DELETE', `/api/lyric/translate/${id}`, { token: alice })).body).toEqual({ counts: 1 });
    fake.release();
    expect(await running).toEqual({ success: 0, failed: 0, lost: 1, stopped: false });
    expect(logs.some((l) => l.includes(`task ${id}: dropped`))).toBe(true);
    expect(existsSync(path.join(opts.stateDir, 'task.json'))).toBe(false);
    expect(await t.app.db.get('SELECT 1 FROM ai_tasks WHERE id = ?', [id])).toBeUndefined();
  });

  it('exits at once with --once on an empty queue, and reports a revoked token clearly', async () => {
    expect(await runWorker(options(), { signal: new AbortController().signal, log })).toEqual({ success: 0, failed: 0, lost: 0, stopped: false });
    const revoked = (await t.app.services.workerTokens.create('old-box')).token;
    await t.app.services.workerTokens.revoke('old-box');
    await expect(runWorker(options({ token: revoked }), { signal: new AbortController().signal, log })).rejects.toThrow(/refused the token/);
  });
});
