/**
 * Audit h3 item 3: the folder rules' error answers (folder browser, folders API, cover folder, admin
 * config) never echo the path or alias the client sent (docs/SECURITY.md: "Errors never echo the input").
 * The code, the field and server-known names (`params.other`) still say what is wrong.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, tempDir, type TestServer } from '../helpers/app.js';

const MARK = 'Echo7f3q';

describe('folder errors do not echo what was sent', () => {
  let t: TestServer;
  let admin: string;
  let root: string;

  beforeAll(async () => {
    root = tempDir('kikoplay-echo-');
    mkdirSync(path.join(root, 'voice', `${MARK}-inner`), { recursive: true });
    writeFileSync(path.join(root, `${MARK}.txt`), 'not a folder');
    t = await startTestServer();
    await t.addUser('admin', 'adminpass', 'admin');
    admin = await t.login('admin', 'adminpass');
    const added = await t.json('POST', '/api/config/folders', { token: admin, body: { name: 'voice', path: path.join(root, 'voice') } });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  async function noEcho(method: string, url: string, body: unknown, status: number, code: string) {
    const res = await t.request(method, url, { token: admin, ...(body === undefined ? {} : { body }) });
    const text = await res.text();
    expect(res.status, `${method} ${url} ${JSON.stringify(body)}: ${text}`).toBe(status);
    expect((JSON.parse(text) as { code: string }).code).toBe(code);
    expect(text, `${method} ${url} ${JSON.stringify(body)}`).not.toContain(MARK);
    expect(text).not.toContain('<script>');
  }

  it('the folder browser', async () => {
    await noEcho('GET', `/api/config/browse?path=${encodeURIComponent(`rel/${MARK}`)}`, undefined, 400, 'FOLDER_PATH_NOT_ABSOLUTE');
    await noEcho('GET', `/api/config/browse?path=${encodeURIComponent(path.join(root, `${MARK}-gone`))}`, undefined, 404, 'FOLDER_MISSING');
    await noEcho('GET', `/api/config/browse?path=${encodeURIComponent(path.join(root, `${MARK}.txt`))}`, undefined, 400, 'FOLDER_NOT_DIRECTORY');
  });

  it('adding and removing a library folder', async () => {
    await noEcho('POST', '/api/config/folders', { name: 'x', path: `rel/${MARK}` }, 400, 'FOLDER_PATH_NOT_ABSOLUTE');
    await noEcho('POST', '/api/config/folders', { name: 'x', path: path.join(root, `${MARK}-gone`) }, 400, 'FOLDER_MISSING');
    await noEcho('POST', '/api/config/folders', { name: 'x', path: path.join(root, `${MARK}.txt`) }, 400, 'FOLDER_NOT_DIRECTORY');
    await noEcho('POST', '/api/config/folders', { name: 'x', path: path.join(root, 'voice', `${MARK}-inner`) }, 409, 'FOLDER_NESTED');
    await noEcho('DELETE', '/api/config/folders', { name: `<script>${MARK}</script>` }, 404, 'FOLDER_NOT_FOUND');
  });

  it('the cover folder and the admin config', async () => {
    await noEcho('PUT', '/api/config/folders/cover', { coverUseDefaultPath: false, coverFolderDir: `rel/${MARK}` }, 400, 'FOLDER_PATH_NOT_ABSOLUTE');
    await noEcho('PUT', '/api/config/folders/cover', { coverUseDefaultPath: false, coverFolderDir: path.join(root, `${MARK}-gone`) }, 400, 'FOLDER_MISSING');
    const roots = (extra: string) => ({
      config: {
        rootFolders: [
          { name: 'voice', path: path.join(root, 'voice') },
          { name: 'x', path: extra },
        ],
      },
    });
    await noEcho('PUT', '/api/config/admin', roots(`rel/${MARK}`), 400, 'CONFIG_INVALID');
    await noEcho('PUT', '/api/config/admin', roots(path.join(root, `${MARK}-gone`)), 400, 'CONFIG_INVALID');
    await noEcho('PUT', '/api/config/admin', roots(path.join(root, 'voice', `${MARK}-inner`)), 400, 'CONFIG_INVALID');
  });
});
