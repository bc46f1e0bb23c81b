import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/app.js';

/**
 * Bodies: JSON everywhere, forms only where kikoeru clients send them (login and the worker routes),
 * each route with its own size limit, checked before the body is read.
 */
describe('request bodies by route', () => {
  let t: TestServer;
  let admin: string;

  beforeAll(async () => {
    t = await startTestServer();
    await t.addUser('admin', 'adminpass', 'admin');
    admin = await t.login('admin', 'adminpass');
  });
  afterAll(() => t.close());

  const send = (method: string, path: string, contentType: string | null, raw: string, extra: Record<string, string> = {}) =>
    t.request(method, path, { token: admin, raw, headers: { ...(contentType ? { 'Content-Type': contentType } : {}), ...extra } });

  it('refuses a form, multipart or text body on a JSON route with 415 and changes nothing', async () => {
    const cases: [string, string, string | null, string][] = [
      ['PUT', '/api/config/admin', 'application/x-www-form-urlencoded', 'config[auth]=false'],
      ['POST', '/api/credentials/user', 'application/x-www-form-urlencoded', 'name=mallory&password=secret1&group=user'],
      ['POST', '/api/credentials/user', 'text/plain', JSON.stringify({ name: 'mallory', password: 'secret1', group: 'user' })],
      ['POST', '/api/credentials/user', 'multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nmallory\r\n--x--\r\n'],
      ['POST', '/api/credentials/user', null, JSON.stringify({ name: 'mallory', password: 'secret1', group: 'user' })],
      // a cross-site form with no fields still names its type
      ['POST', '/api/work/scan/1', 'application/x-www-form-urlencoded', ''],
    ];
    for (const [method, path, type, raw] of cases) {
      const res = await send(method, path, type, raw);
      expect(res.status, `${method} ${path} ${type}`).toBe(415);
      expect(((await res.json()) as { error: string }).error).toMatch(/只接受 JSON|Content-Type/);
    }
    expect(await t.app.repos.users.byName('mallory')).toBeFalsy();
  });

  it('refuses compressed bodies and other charsets with 415', async () => {
    const gz = await send('POST', '/api/credentials/user', 'application/json', '{}', { 'Content-Encoding': 'gzip' });
    expect(gz.status).toBe(415);
    const latin = await send('POST', '/api/credentials/user', 'application/json; charset=iso-8859-1', '{}');
    expect(latin.status).toBe(415);
  });

  it('takes forms on the login and the worker routes, and JSON with a charset anywhere', async () => {
    const login = await t.request('POST', '/api/auth/me', { raw: 'name=admin&password=adminpass', headers: { 'Content-Type': 'application/x-www-form-urlencoded; charset=UTF-8' } });
    expect(login.status).toBe(200);
    const acquire = await send('POST', '/api/lyric/translate/acquire/', 'application/x-www-form-urlencoded', 'worker_name=w1');
    expect(acquire.status).toBe(404); // the queue is empty
    const status = await send('POST', '/api/lyric/translate/status', 'application/x-www-form-urlencoded', 'id=1&secret=abc&worker_status=x');
    expect(status.status).toBe(200);
    const json = await send('PUT', '/api/config/admin', 'application/json;charset=utf-8', JSON.stringify({ config: { forwardSeekTime: 31 } }));
    expect(json.status).toBe(200);
  });

  it('limits each route to the body it needs (413 before reading), with room where a route needs it', async () => {
    const bigLogin = await t.request('POST', '/api/auth/me', { body: { name: 'admin', password: 'x'.repeat(9000) } });
    expect(bigLogin.status).toBe(413);
    const bigUser = await send('POST', '/api/credentials/user', 'application/json', JSON.stringify({ name: 'someone', password: 'x'.repeat(20_000), group: 'user' }));
    expect(bigUser.status).toBe(413);
    expect(((await bigUser.json()) as { error: string }).error).toMatch(/请求体过大/);
    // a long lyric (near the services' own 1 MB cap, far over the default 16 KB) reaches the lyric routes' own checks
    const lrc = Array.from({ length: 10_000 }, (_, i) => ({ time: i, text: 'あ'.repeat(20) }));
    const save = await send('POST', '/api/media/save-lrc/1', 'application/json', JSON.stringify({ writePath: 'x.lrc', lrc }));
    expect(save.status).not.toBe(413);
    const finish = await send('POST', '/api/lyric/translate/finish', 'application/json', JSON.stringify({ id: 1, secret: 'abc', success: true, lrc_content: 'a'.repeat(900_000) }));
    expect(finish.status).not.toBe(413);
    const tooBig = await send('POST', '/api/media/save-lrc/1', 'application/json', JSON.stringify({ writePath: 'x.lrc', lrc: 'a'.repeat(2_200_000) }));
    expect(tooBig.status).toBe(413);
  });

  it('refuses malformed JSON and a bare JSON value with 400', async () => {
    const bad = await send('PUT', '/api/config/admin', 'application/json', '{"config": ');
    expect(bad.status).toBe(400);
    const bare = await send('PUT', '/api/config/admin', 'application/json', '"config"');
    expect(bare.status).toBe(400);
  });
});
