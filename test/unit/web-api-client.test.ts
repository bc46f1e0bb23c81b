/**
 * The web app's API client without an answer: a server that is not there, or that does not answer in
 * time, is a `NetworkError` said in the interface language (never "Failed to fetch"); the caller's own
 * abort stays a silent AbortError. Against real sockets: a closed port and a server that never answers.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, NetworkError } from '../../web/src/api/client.js';
import { setLocale } from '../../web/src/i18n/index.js';

let silent: Server;
let silentBase = '';
const realFetch = globalThis.fetch;
let base = '';

beforeAll(async () => {
  await setLocale('zh-CN', { remember: false }); // outside a browser the start follows the process's language
  silent = createServer(() => undefined); // reads the request, never answers
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  silentBase = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  // the client asks for same-origin paths (/api/…); outside a page they go to `base`
  globalThis.fetch = ((input: string, init?: RequestInit) => realFetch(base + input, init)) as typeof fetch;
});

afterAll(async () => {
  globalThis.fetch = realFetch;
  await setLocale('zh-CN', { remember: false });
  silent.closeAllConnections();
  await new Promise<void>((resolve) => silent.close(() => resolve()));
});

async function failure(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('the request did not fail');
}

describe('API client without an answer', () => {
  it('says an unreachable server in words', async () => {
    base = 'http://127.0.0.1:9'; // the discard port: nothing listens
    const err = await failure(api('GET', '/api/works'));
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).kind).toBe('unreachable');
    expect((err as Error).message).toBe('无法连接服务器，请检查网络连接');
    await setLocale('en', { remember: false });
    expect((await failure(api('GET', '/api/works'))) as Error).toHaveProperty('message', "Can't reach the server — check your connection");
    await setLocale('zh-CN', { remember: false });
  });

  it('gives up on a server that does not answer in time', async () => {
    base = silentBase;
    const started = Date.now();
    const err = await failure(api('GET', '/api/works', { timeoutMs: 300 }));
    expect(Date.now() - started).toBeLessThan(5000);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).kind).toBe('timeout');
    await setLocale('ja', { remember: false });
    expect((await failure(api('GET', '/api/works', { timeoutMs: 300 }))) as Error).toHaveProperty('message', 'サーバーの応答がありません。しばらくしてからもう一度お試しください');
    await setLocale('zh-CN', { remember: false });
  });

  it("keeps the caller's abort an AbortError", async () => {
    base = silentBase;
    const controller = new AbortController();
    const pending = failure(api('GET', '/api/works', { signal: controller.signal, timeoutMs: 10_000 }));
    setTimeout(() => controller.abort(), 50);
    const err = await pending;
    expect(err).not.toBeInstanceOf(NetworkError);
    expect((err as Error).name).toBe('AbortError');
  });
});
