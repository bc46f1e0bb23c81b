/**
 * Outside audit: a small body of deeply nested arrays (10 KB, 5000 levels) made `PUT /api/histroy`
 * overflow the stack in JSON.stringify (a 500). Every JSON body is now refused past 64 levels of
 * nesting, by the body parser and before anything recurses over it (400 JSON_TOO_DEEP), on every route
 * and on the Subsonic API; and the play state's own schema bounds the shape of its queue.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/app.js';
import { MAX_JSON_DEPTH } from '../../server/domain/json-depth.js';

const WORK = 990001;

/** `levels` arrays, one inside the other, around `inner`. */
const nested = (levels: number, inner = '') => `${'['.repeat(levels)}${inner}${']'.repeat(levels)}`;

describe('JSON nesting depth', () => {
  let t: TestServer;
  let user: string;
  let admin: string;
  let apiKey: string;

  beforeAll(async () => {
    t = await startTestServer();
    await t.addUser('alice', 'alicepass', 'user');
    await t.addUser('admin', 'adminpass', 'admin');
    user = await t.login('alice', 'alicepass');
    admin = await t.login('admin', 'adminpass');
    await t.app.db.run("INSERT INTO works (id, code, title, root_folder, dir) VALUES (?, ?, 'work', 'lib', ?)", [WORK, `RJ${WORK}`, `RJ${WORK}`]);
    const actor = { id: (await t.app.repos.users.byName('alice'))!.id, name: 'alice', role: 'user' as const };
    apiKey = (await t.app.services.subsonicAuth.createKey(actor, 'phone')).key;
  });
  afterAll(() => t.close());

  const put = (raw: string, token = user, path = '/api/histroy', method = 'PUT') => t.request(method, path, { token, raw, headers: { 'Content-Type': 'application/json' } });

  it('a play state 5000 levels deep is a 400 JSON_TOO_DEEP, not a 500', async () => {
    const body = `{"work_id":${WORK},"state":{"queue":${nested(5000)},"index":0,"seconds":0}}`;
    expect(body.length).toBeLessThan(16 * 1024);
    const res = await put(body);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: `请求体的 JSON 嵌套过深（最多 ${MAX_JSON_DEPTH} 层）`, code: 'JSON_TOO_DEEP', params: { max: MAX_JSON_DEPTH } });
    // the server still answers
    expect((await t.json('GET', '/api/histroy', { token: user })).status).toBe(200);
  });

  it('the bound holds for every route: a deep body to user management, reviews or corrections is refused the same way', async () => {
    const deep = `{"a":${nested(MAX_JSON_DEPTH)}}`;
    for (const [method, path, token] of [
      ['POST', '/api/credentials/user', admin],
      ['PUT', '/api/review', user],
      ['POST', `/api/edit/work/${WORK}`, admin],
    ] as const) {
      const res = await put(deep, token, path, method);
      expect(res.status, path).toBe(400);
      expect(((await res.json()) as { code: string }).code, path).toBe('JSON_TOO_DEEP');
    }
  });

  it('brackets inside strings do not count, and 64 levels are accepted', async () => {
    const inString = JSON.stringify({ work_id: WORK, state: { queue: [{ title: '['.repeat(5000) }], index: 0, seconds: 0 } });
    expect((await put(inString)).status).toBe(200);
    // 64 levels in all: the body's object is the first
    const atLimit = `{"work_id":${WORK},"state":{"queue":[],"index":0,"seconds":0,"x":${nested(MAX_JSON_DEPTH - 2)}}}`;
    const res = await put(atLimit);
    expect(res.status).not.toBe(500);
    expect(((await res.json()) as { code?: string }).code).not.toBe('JSON_TOO_DEEP');
  });

  it('the play state schema bounds its own shape: queue entries are flat objects', async () => {
    for (const queue of [[[[1]]], [{ a: { b: { c: { d: { e: 1 } } } } }], ['x']]) {
      const res = await put(JSON.stringify({ work_id: WORK, state: { queue, index: 0, seconds: 0 } }));
      expect(res.status, JSON.stringify(queue)).toBe(400);
      expect(((await res.json()) as { field?: string }).field).toBe('state');
    }
    const ok = await put(JSON.stringify({ work_id: WORK, state: { queue: [{ hash: `${WORK}/1`, title: '01', work: { id: WORK } }], index: 0, seconds: 1.5 } }));
    expect(ok.status).toBe(200);
  });

  it('the Subsonic API parses its JSON bodies with the same bound', async () => {
    const res = await t.request('POST', `/rest/ping.view?apiKey=${apiKey}&c=test&f=json`, { raw: `{"a":${nested(5000)}}`, headers: { 'Content-Type': 'application/json' } });
    const body = (await res.json()) as { 'subsonic-response': { status: string; error?: { message: string } } };
    expect(body['subsonic-response'].status).toBe('failed');
    expect(body['subsonic-response'].error?.message).toMatch(/JSON/);
  });
});
