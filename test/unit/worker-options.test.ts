import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseWorkerOptions } from '../../server/worker/options.js';
import { retrying } from '../../server/worker/retry.js';
import { StoppedError, TaskFailedError, TransientError } from '../../server/worker/errors.js';
import { silentLog } from '../../server/worker/log.js';

describe('worker options', () => {
  it('fills defaults and takes secrets from the environment', () => {
    const o = parseWorkerOptions({ server: 'http://nas:8888/' }, { KIKOPLAY_WORKER_TOKEN: 'kpw_x', OPENAI_API_KEY: 'sk-env', OPENAI_BASE_URL: 'http://127.0.0.1:9000/v1' });
    expect(o).toMatchObject({
      server: 'http://nas:8888',
      token: 'kpw_x',
      apiKey: 'sk-env',
      apiBase: 'http://127.0.0.1:9000/v1',
      engine: 'openai',
      model: 'whisper-1',
      language: 'ja',
      name: os.hostname(),
      stateDir: path.join(os.homedir(), '.kikoplay-worker'),
      pollSeconds: 5,
      once: false,
      maxUploadBytes: 24 * 1024 * 1024,
      maxChunkSeconds: 1200,
      alwaysWav: false,
      translate: undefined,
    });
    expect(parseWorkerOptions({ server: 'http://nas', language: '' }, {}).language).toBeUndefined();
  });

  it('sets up translation with its own service or the transcription one', () => {
    const same = parseWorkerOptions({ server: 'http://nas', apiBase: 'http://a', apiKey: 'k', translateTo: 'zh', translateModel: 'm' }, {});
    expect(same.translate).toEqual({ apiBase: 'http://a', apiKey: 'k', model: 'm', to: 'zh', glossary: [] });
    const own = parseWorkerOptions({ server: 'http://nas', translateTo: 'en', translateModel: 'm', translateApiBase: 'http://b', translateApiKey: 'k2' }, {});
    expect(own.translate).toMatchObject({ apiBase: 'http://b', apiKey: 'k2', to: 'en' });
  });

  it('uses a password from the environment only with --user', () => {
    expect(parseWorkerOptions({ server: 'http://nas', user: 'w' }, { KIKOPLAY_WORKER_PASSWORD: 'pw' })).toMatchObject({ user: 'w', password: 'pw' });
    expect(parseWorkerOptions({ server: 'http://nas' }, { KIKOPLAY_WORKER_PASSWORD: 'pw' }).password).toBeUndefined();
  });
});

describe('retrying', () => {
  it('retries transient errors, passes others through, gives up after the allowed attempts', async () => {
    const retry = retrying(silentLog, new AbortController().signal, 1);
    let calls = 0;
    expect(
      await retry('x', async () => {
        if (++calls < 3) throw new TransientError('down');
        return 'up';
      }),
    ).toBe('up');
    expect(calls).toBe(3);
    await expect(retry('x', async () => Promise.reject(new TaskFailedError('bad')))).rejects.toThrow('bad');
    calls = 0;
    await expect(
      retry(
        'x',
        async () => {
          calls++;
          throw new TransientError('still down');
        },
        4,
      ),
    ).rejects.toThrow(/still down \(gave up after 4 attempts\)/);
    expect(calls).toBe(4);
  });

  it('stops waiting when aborted', async () => {
    const controller = new AbortController();
    const retry = retrying(silentLog, controller.signal, 60_000);
    const pending = retry('x', async () => Promise.reject(new TransientError('down')));
    setTimeout(() => controller.abort(), 10);
    await expect(pending).rejects.toBeInstanceOf(StoppedError);
  });
});
