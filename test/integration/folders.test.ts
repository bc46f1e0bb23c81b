/**
 * Library folders of the admin dashboard: GET/POST/DELETE /api/config/folders and
 * PUT /api/config/folders/cover. Admin only; uniqueness messages of the spec; the path must be an
 * existing, readable, absolute folder; every bad input is a 4xx `{error}` and leaves config.json as it was.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, tempDir, type TestServer } from '../helpers/app.js';

interface FolderView {
  folders: { name: string; path: string; exists: boolean; works: number }[];
  cover: { coverUseDefaultPath: boolean; coverFolderDir: string; effectiveDir: string; defaultDir: string };
  voiceWorkDefaultPath: string;
}

describe('library folders API', () => {
  let t: TestServer;
  let admin: string;
  let user: string;
  let guest: string;
  let root: string;
  const configFile = () => (existsSync(path.join(t.dataDir, 'config.json')) ? readFileSync(path.join(t.dataDir, 'config.json'), 'utf8') : '');

  beforeAll(async () => {
    t = await startTestServer();
    root = tempDir('kikoplay-folders-');
    for (const d of ['voice', 'asmr', 'voice/inner', 'covers']) mkdirSync(path.join(root, d), { recursive: true });
    writeFileSync(path.join(root, 'a-file.txt'), 'not a folder');
    await t.addUser('admin', 'adminpass', 'admin');
    await t.addUser('listener', 'listenerpass', 'user');
    await t.addUser('visitor', 'visitorpass', 'guest');
    [admin, user, guest] = await Promise.all([t.login('admin', 'adminpass'), t.login('listener', 'listenerpass'), t.login('visitor', 'visitorpass')]);
  });
  afterAll(async () => {
    await t?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  /** Call, and check that a refused call left the stored config unchanged. */
  async function refused(method: string, body: unknown, status: number, error: string | RegExp, token = admin, p = '/api/config/folders') {
    const before = configFile();
    const res = await t.json<{ error: string }>(method, p, { token, body });
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    if (typeof error === 'string') expect(res.body.error).toBe(error);
    else expect(res.body.error).toMatch(error);
    expect(configFile()).toBe(before);
  }

  it('starts with no folders and the default cover folder', async () => {
    const res = await t.json<FolderView>('GET', '/api/config/folders', { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.folders).toEqual([]);
    expect(res.body.cover).toMatchObject({ coverUseDefaultPath: true, effectiveDir: path.join(t.dataDir, 'covers'), defaultDir: path.join(t.dataDir, 'covers') });
  });

  it('adds a folder, trims and normalises the path, and the live config follows', async () => {
    const res = await t.json<{ message: string; folders: FolderView }>('POST', '/api/config/folders', { token: admin, body: { name: ' voice ', path: path.join(root, 'voice') + '/' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.message).toBe('文件夹 "voice" 添加成功.');
    expect(res.body.folders.folders).toEqual([{ name: 'voice', path: path.join(root, 'voice'), exists: true, works: 0 }]);
    expect(t.app.store.get().rootFolders).toEqual([{ name: 'voice', path: path.join(root, 'voice') }]);
    expect(JSON.parse(configFile()).rootFolders).toEqual([{ name: 'voice', path: path.join(root, 'voice') }]);
    // the admin config shows it too
    const cfg = await t.json<{ config: { rootFolders: unknown } }>('GET', '/api/config/admin', { token: admin });
    expect(cfg.body.config.rootFolders).toEqual([{ name: 'voice', path: path.join(root, 'voice') }]);
  });

  it('refuses a duplicate alias and a duplicate path with the spec messages', async () => {
    await refused('POST', { name: 'voice', path: path.join(root, 'asmr') }, 409, '该别名已存在，文件夹别名不能重复');
    await refused('POST', { name: 'other', path: path.join(root, 'voice') }, 409, '该路径已存在，文件夹路径不能重复');
    await refused('POST', { name: 'other', path: `${root}/voice/../voice` }, 409, '该路径已存在，文件夹路径不能重复');
  });

  it('refuses folders inside or around a configured one', async () => {
    await refused('POST', { name: 'inner', path: path.join(root, 'voice', 'inner') }, 409, '该路径位于已有文件夹 "voice" 之内，同一作品会被扫描两次.');
    await refused('POST', { name: 'outer', path: root }, 409, '已有文件夹 "voice" 位于该路径之内，同一作品会被扫描两次.');
  });

  it('refuses empty, relative, missing, non-folder and unreadable paths', async () => {
    await refused('POST', { name: '', path: path.join(root, 'asmr') }, 400, '文件夹别名和路径都不能为空.');
    await refused('POST', { name: 'asmr', path: '   ' }, 400, '文件夹别名和路径都不能为空.');
    await refused('POST', {}, 400, '文件夹别名和路径都不能为空.');
    await refused('POST', { name: 42, path: ['x'] }, 400, '文件夹别名和路径都不能为空.');
    await refused('POST', { name: 'asmr', path: 'relative/asmr' }, 400, '文件夹路径必须是绝对路径，且不能包含控制字符.');
    await refused('POST', { name: 'asmr', path: path.join(root, 'nope') }, 400, '文件夹不存在.');
    await refused('POST', { name: 'asmr', path: path.join(root, 'a-file.txt') }, 400, '该路径不是文件夹.');
    await refused('POST', { name: 'x'.repeat(65), path: path.join(root, 'asmr') }, 400, /^文件夹别名不能超过 64 个字符/);
    if (process.getuid?.() !== 0) {
      const locked = path.join(root, 'locked');
      mkdirSync(locked);
      chmodSync(locked, 0o000);
      try {
        await refused('POST', { name: 'locked', path: locked }, 400, '没有读取该文件夹的权限.');
      } finally {
        chmodSync(locked, 0o755);
      }
    }
  });

  it('is for the admin only', async () => {
    for (const token of [user, guest]) {
      await refused('POST', { name: 'asmr', path: path.join(root, 'asmr') }, 403, '只有 admin 账号能管理媒体库文件夹.', token);
      await refused('DELETE', { name: 'voice' }, 403, '只有 admin 账号能管理媒体库文件夹.', token);
      expect((await t.json('GET', '/api/config/folders', { token })).status).toBe(403);
    }
    expect((await t.json('GET', '/api/config/folders')).status).toBe(401);
    await refused('POST', { name: 'asmr', path: path.join(root, 'asmr') }, 401, 'No authorization token was found', '');
  });

  it('adds a second folder and deletes the first by alias', async () => {
    const added = await t.json<{ folders: FolderView }>('POST', '/api/config/folders', { token: admin, body: { name: '音声 2', path: path.join(root, 'asmr') } });
    expect(added.status).toBe(200);
    expect(added.body.folders.folders.map((f) => f.name)).toEqual(['voice', '音声 2']);
    await refused('DELETE', { name: 'nope' }, 404, '没有该名称的文件夹.');
    await refused('DELETE', {}, 400, '需要文件夹别名 name.');
    const res = await t.json<{ message: string; folders: FolderView }>('DELETE', '/api/config/folders', { token: admin, body: { name: 'voice' } });
    expect(res.status).toBe(200);
    expect(res.body.message).toMatch(/^文件夹 "voice" 已删除/);
    expect(res.body.folders.folders.map((f) => f.name)).toEqual(['音声 2']);
    expect(t.app.store.get().rootFolders).toEqual([{ name: '音声 2', path: path.join(root, 'asmr') }]);
    // the alias and path are free again
    expect((await t.json('POST', '/api/config/folders', { token: admin, body: { name: 'voice', path: path.join(root, 'voice') } })).status).toBe(200);
  });

  it('reports a configured folder that disappeared as not existing', async () => {
    const gone = path.join(root, 'gone');
    mkdirSync(gone);
    expect((await t.json('POST', '/api/config/folders', { token: admin, body: { name: 'gone', path: gone } })).status).toBe(200);
    rmSync(gone, { recursive: true });
    const res = await t.json<FolderView>('GET', '/api/config/folders', { token: admin });
    expect(res.body.folders.find((f) => f.name === 'gone')).toMatchObject({ exists: false, works: 0 });
    expect((await t.json('DELETE', '/api/config/folders', { token: admin, body: { name: 'gone' } })).status).toBe(200);
  });

  it('sets the cover folder: an existing absolute folder, or the default', async () => {
    const covers = path.join(root, 'covers');
    await refused('PUT', { coverUseDefaultPath: false, coverFolderDir: '' }, 400, '不使用默认封面文件夹时，需要填写封面文件夹路径.', admin, '/api/config/folders/cover');
    await refused('PUT', { coverUseDefaultPath: false, coverFolderDir: 'covers' }, 400, '文件夹路径必须是绝对路径，且不能包含控制字符.', admin, '/api/config/folders/cover');
    await refused('PUT', { coverUseDefaultPath: false, coverFolderDir: path.join(root, 'nope') }, 400, '文件夹不存在.', admin, '/api/config/folders/cover');
    await refused('PUT', { coverUseDefaultPath: 'no' }, 400, '参数 coverUseDefaultPath 必须是 true 或 false.', admin, '/api/config/folders/cover');
    await refused('PUT', { coverUseDefaultPath: false, coverFolderDir: covers }, 403, '只有 admin 账号能管理媒体库文件夹.', user, '/api/config/folders/cover');

    const res = await t.json<{ message: string; folders: FolderView }>('PUT', '/api/config/folders/cover', { token: admin, body: { coverUseDefaultPath: false, coverFolderDir: covers } });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('封面文件夹设置已保存.');
    expect(res.body.folders.cover).toMatchObject({ coverUseDefaultPath: false, coverFolderDir: covers, effectiveDir: covers });
    expect(t.app.store.paths().coverDir).toBe(covers);

    const back = await t.json<{ folders: FolderView }>('PUT', '/api/config/folders/cover', { token: admin, body: { coverUseDefaultPath: true } });
    expect(back.body.folders.cover).toMatchObject({ coverUseDefaultPath: true, coverFolderDir: covers, effectiveDir: path.join(t.dataDir, 'covers') });
  });
});

describe('library folders set by a flag', () => {
  it('are not changed from the web (the change would not apply) and say why', async () => {
    const root = tempDir('kikoplay-folders-flag-');
    mkdirSync(path.join(root, 'a'));
    mkdirSync(path.join(root, 'b'));
    const t = await startTestServer({ flags: { rootFolders: [{ name: 'a', path: path.join(root, 'a') }] } });
    try {
      await t.addUser('admin', 'adminpass', 'admin');
      const token = await t.login('admin', 'adminpass');
      const res = await t.json<{ error: string }>('POST', '/api/config/folders', { token, body: { name: 'b', path: path.join(root, 'b') } });
      expect(res.status).toBe(409);
      expect(res.body.error).toMatch(/KIKOPLAY_ROOT_FOLDERS/);
      expect(existsSync(path.join(t.dataDir, 'config.json'))).toBe(false);
      expect(t.app.store.get().rootFolders).toEqual([{ name: 'a', path: path.join(root, 'a') }]);
    } finally {
      await t.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
