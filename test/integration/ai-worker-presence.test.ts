/**
 * The AI centre's "no worker is running" hint, server side: the task list says how many tasks wait
 * and whether a worker called recently (the time of that call for admins only), and an admin makes a
 * fresh worker token with one request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAiLibrary, type AiLibrary } from '../helpers/ai-library.js';
import type { TestServer } from '../helpers/app.js';

interface Presence {
  waiting: number;
  active: boolean;
  lastSeenAt?: string | null;
}

const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };

describe('AI centre: worker presence and worker tokens from the web', () => {
  let lib: AiLibrary;
  let t: TestServer;
  let admin: string;
  let alice: string;

  const presence = async (token: string) => (await t.json<{ workers: Presence; tasks: unknown[] }>('GET', '/api/lyric/translate?page=1&status=[]', { token })).body.workers;

  beforeAll(async () => {
    lib = await startAiLibrary();
    t = lib.t;
    await t.addUser('bossy', 'secret1', 'admin');
    await t.addUser('alice', 'secret1', 'user');
    admin = await t.login('bossy', 'secret1');
    alice = await t.login('alice', 'secret1');
    await lib.seedWork(123456, [
      { path: '01.mp3', fixture: 'tone-2s.mp3' },
      { path: '02.mp3', fixture: 'tone-2s.mp3' },
    ]);
  });
  afterAll(() => t.close());

  it('says how many tasks wait and that no worker has been seen; the time only to admins', async () => {
    expect(await presence(admin)).toEqual({ waiting: 0, active: false, lastSeenAt: null });
    expect((await t.json('PUT', '/api/lyric/translate/123456/1', { token: alice })).status).toBe(200);
    expect((await t.json('PUT', '/api/lyric/translate/123456/0', { token: alice })).status).toBe(200);
    expect(await presence(admin)).toEqual({ waiting: 2, active: false, lastSeenAt: null });
    expect(await presence(alice)).toEqual({ waiting: 2, active: false });
  });

  it('lets only an admin make a worker token, under a generated name, that the worker routes accept', async () => {
    const refused = await t.json('POST', '/api/lyric/worker-tokens', { token: alice });
    expect(refused.status).toBe(403);
    const made = await t.json<{ name: string; token: string }>('POST', '/api/lyric/worker-tokens', { token: admin });
    expect(made.status).toBe(200);
    expect(made.body.name).toMatch(/^web-\d{8}-\d{6}-[0-9a-f]{4}$/);
    expect(made.body.token).toMatch(/^kpw_/);
    const again = await t.json<{ name: string }>('POST', '/api/lyric/worker-tokens', { token: admin });
    expect(again.body.name).not.toBe(made.body.name);
    expect((await t.app.services.workerTokens.list()).map((w) => w.name)).toEqual(expect.arrayContaining([made.body.name, again.body.name]));

    // a worker polling with it is seen at once, even before it takes a task
    const before = Date.now();
    const acquired = await t.request('POST', '/api/lyric/translate/acquire', { token: made.body.token, raw: 'worker_name=gpu', headers: FORM });
    expect(acquired.status).toBe(200);
    const seen = await presence(admin);
    expect(seen).toMatchObject({ waiting: 1, active: true });
    expect(Date.parse(seen.lastSeenAt!)).toBeGreaterThanOrEqual(before - 1000);
    expect(await presence(alice)).toEqual({ waiting: 1, active: true });
  });
});
