/**
 * End to end: the admin dashboard against the built `kikoplay serve` and a generated library on disk,
 * in headless Chromium. The admin adds the library folder, scans it from the scanner page and watches
 * the live logs and results, starts "refresh library info" and kills it, and sees a `kikoplay scan`
 * started in another process live on the page (and kills that one too). A non-admin token is refused
 * by the socket and kept out of /admin; a refused socket sends the admin to /login with a warning; a
 * socket that cannot connect says '连接Socket失败'. Screenshots of the folders and scanner screens.
 *
 * DLsite is a loopback server that resets every connection (metadata fails fast), or holds requests
 * open while `hang` is on (so a refresh runs until it is killed).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { Page } from 'playwright-core';
import { screenshot, shots, VIEWPORTS } from '../helpers/browser.js';
import type { E2eServer } from '../helpers/e2e.js';
import { servedApp } from '../helpers/e2e.js';
import { deadSites } from '../helpers/dead-sites.js';
import { makeTestLibrary } from '../helpers/library.js';
import { runCli } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/app.js';

type Lib = Awaited<ReturnType<typeof makeTestLibrary>>;

const sites = deadSites();
let lib: Lib;

beforeAll(async () => {
  lib = await makeTestLibrary();
});

// the socket and access tests share this server; folders and scans change the whole server, so each of
// those tests starts one of its own
const app = servedApp();

afterAll(() => {
  lib?.cleanup();
});

/** A server of the test's own (DLsite is the fake site), with the library scanned offline when asked, and its admin's page. */
async function ownAdmin(opts: { scanned?: boolean; page: string }): Promise<{ own: E2eServer; page: Page; errors: string[] }> {
  const own = await app.ownServer({ env: sites.env, scanned: opts.scanned ? lib.root : undefined });
  const { page, errors } = await app.open({ as: own.admin, on: own });
  await page.goto(opts.page);
  return { own, page, errors };
}

/** Register the test library as the folder `voice` through the API. */
const addLibraryFolder = (own: E2eServer) => own.api('POST', '/api/config/folders', { name: 'voice', path: lib.root });

const waitForStatus = (page: Page, s: string) => page.locator(`[data-testid="scanner-status"][data-status="${s}"]`).waitFor({ timeout: 30_000 });
const mainLogs = (page: Page) => page.getByTestId('main-logs');

/** Scan the library from the scanner page and wait for the end of it. */
async function scanFromPage(page: Page): Promise<void> {
  await waitForStatus(page, 'idle');
  const start = page.getByTestId('PERFORM_SCAN');
  await expect.poll(() => start.isEnabled()).toBe(true);
  await start.click();
  await waitForStatus(page, 'finished');
}

// each test starts a server of its own (and scans) first
describe('library folders', { timeout: 180_000 }, () => {
  it('adds the library folder; duplicates get the spec messages, empty input is ignored, a missing path is refused', async () => {
    const { own, page, errors } = await ownAdmin({ page: '/admin' });
    const form = page.getByTestId('add-folder');
    await form.getByLabel('别名').waitFor();
    const posts: string[] = [];
    const watch = (req: { method(): string; url(): string }) => {
      if (req.method() === 'POST' && req.url().endsWith('/api/config/folders')) posts.push(req.url());
    };
    page.on('request', watch);

    // empty alias: ignored, nothing is sent
    await form.getByLabel('绝对路径').fill(lib.root);
    await form.getByRole('button', { name: '添加文件夹' }).click();
    // a path that does not exist: the server refuses it
    await form.getByLabel('别名').fill('nope');
    await form.getByLabel('绝对路径').fill(path.join(lib.root, 'no-such-folder'));
    await form.getByRole('button', { name: '添加文件夹' }).click();
    await page.getByText('文件夹不存在.').waitFor();
    expect(await page.getByTestId('folder-row').count()).toBe(0);

    await form.getByLabel('别名').fill('voice');
    await form.getByLabel('绝对路径').fill(lib.root);
    await form.getByRole('button', { name: '添加文件夹' }).click();
    const row = page.getByTestId('folder-row').filter({ hasText: 'voice' });
    await row.getByText(lib.root, { exact: true }).waitFor();
    expect(posts.length).toBe(2);

    // the same alias, then the same path: refused on the page with their messages
    await form.getByLabel('别名').fill('voice');
    await form.getByLabel('绝对路径').fill(path.join(lib.root, 'circle-a'));
    await form.getByRole('button', { name: '添加文件夹' }).click();
    await form.getByText('该别名已存在，文件夹别名不能重复').waitFor();
    await form.getByLabel('别名').fill('other');
    await form.getByLabel('绝对路径').fill(lib.root + '/');
    await form.getByRole('button', { name: '添加文件夹' }).click();
    await form.getByText('该路径已存在，文件夹路径不能重复').waitFor();
    page.off('request', watch);
    expect(posts.length).toBe(2);

    // the server has it
    const stored = await own.api<{ folders: { name: string; path: string }[] }>('GET', '/api/config/folders');
    expect(stored.folders).toMatchObject([{ name: 'voice', path: lib.root }]);
    expect(errors).toEqual([]);
  });

  it('deletes a folder after asking, and sets the cover folder', async () => {
    const { own, page, errors } = await ownAdmin({ page: '/admin' });
    await addLibraryFolder(own);
    await page.reload();
    await page.getByTestId('folder-row').filter({ hasText: 'voice' }).waitFor();
    const extra = tempDir('kikoplay-e2e-extra-');
    mkdirSync(path.join(extra, 'covers'));
    const form = page.getByTestId('add-folder');
    await form.getByLabel('别名').fill('extra');
    await form.getByLabel('绝对路径').fill(extra);
    await form.getByRole('button', { name: '添加文件夹' }).click();
    const row = page.getByTestId('folder-row').filter({ hasText: 'extra' });
    await row.waitFor();
    await row.getByRole('button', { name: '删除 extra' }).click();
    await page.getByText('确定要删除文件夹 "extra" 吗？', { exact: false }).waitFor();
    await page.getByRole('dialog').getByRole('button', { name: '删除' }).click();
    await row.waitFor({ state: 'detached' });
    expect(await page.getByTestId('folder-row').count()).toBe(1);

    const cover = page.getByTestId('cover-folder');
    await cover.getByRole('switch', { name: /使用默认封面文件夹/ }).click();
    await cover.getByLabel('封面文件夹路径').fill(path.join(extra, 'covers'));
    await cover.getByRole('button', { name: '保存' }).click();
    await cover.getByText(`封面当前保存在：${path.join(extra, 'covers')}`).waitFor();
    await cover.getByRole('switch', { name: /使用默认封面文件夹/ }).click();
    await cover.getByRole('button', { name: '保存' }).click();
    await cover.getByText(`封面当前保存在：${path.join(own.dataDir, 'covers')}`).waitFor();
    expect(errors).toEqual([]);
  });

  it('fits 375 and 1280 px, light and dark (screenshots)', async () => {
    const { own, page } = await ownAdmin({ page: '/admin' });
    await addLibraryFolder(own);
    await page.reload();
    await shots(page, 'admin-folders', page.getByTestId('folder-row').first());
  });
});

describe('the scanner', { timeout: 180_000 }, () => {
  it('scans the library from the page: running, live logs and results, then finished', async () => {
    const { own, page, errors } = await ownAdmin({ page: '/admin' });
    await addLibraryFolder(own);
    await page.getByTestId('admin-nav').getByRole('link', { name: '扫描' }).click();
    await page.waitForURL('**/admin/scanner');
    await waitForStatus(page, 'idle');
    const start = page.getByTestId('PERFORM_SCAN');
    await expect.poll(() => start.isEnabled()).toBe(true);
    expect(await page.getByTestId('KILL_SCAN_PROCESS').count()).toBe(0);

    await start.click();
    await mainLogs(page)
      .getByText(/^共找到 \d+ 个音声文件夹\.$/)
      .waitFor();
    await waitForStatus(page, 'finished');
    await mainLogs(page)
      .getByText(/^扫描完成: 新增 \d+ 个/)
      .waitFor();
    expect(await page.getByTestId('KILL_SCAN_PROCESS').count()).toBe(0);
    expect(await start.isEnabled()).toBe(true);

    await page.getByRole('tab', { name: /结果/ }).click();
    const results = page.getByTestId('scan-results');
    await results.getByText(/^\[RJ100001\] 添加成功! Added: \d+$/).waitFor();
    await results.getByText(/^\[BJ200001\] 添加成功! Added: \d+$/).waitFor();
    expect(await results.getByText(/添加成功! Added:/).count()).toBeGreaterThanOrEqual(lib.listed.length);

    // the works are in the library
    const works = await own.api<{ folders: { works: number }[] }>('GET', '/api/config/folders');
    expect(works.folders[0].works).toBeGreaterThanOrEqual(lib.listed.length);
    expect(errors).toEqual([]);
  });

  it('keeps the state across a reload (snapshot on ON_SCANNER_PAGE) and fits 375 and 1280 px (screenshots)', async () => {
    const { own, page } = await ownAdmin({ page: '/admin/scanner' });
    await addLibraryFolder(own);
    await scanFromPage(page);
    await page.reload();
    await waitForStatus(page, 'finished');
    await mainLogs(page)
      .getByText(/^扫描完成: 新增 \d+ 个/)
      .waitFor();
    await shots(page, 'admin-scanner', page.getByTestId('scanner-status'));
  });

  it('starts "refresh library info" and kills it: buttons disabled while running, kill only while running', async () => {
    const { page, errors } = await ownAdmin({ scanned: true, page: '/admin/scanner' });
    await waitForStatus(page, 'finished'); // the snapshot has come: the data dir's offline scan ended
    sites.hang(true);
    try {
      await page.getByTestId('PERFORM_UPDATE').click();
      await waitForStatus(page, 'running');
      const kill = page.getByTestId('KILL_SCAN_PROCESS');
      await kill.waitFor();
      for (const id of ['PERFORM_SCAN', 'PERFORM_UPDATE', 'PERFORM_LYRIC_SCAN']) expect(await page.getByTestId(id).isDisabled(), id).toBe(true);
      await mainLogs(page)
        .getByText(/^共 \d+ 个作品\. 开始刷新$/)
        .waitFor();
      await expect.poll(() => sites.held).toBeGreaterThan(0); // it waits on "DLsite"
      await screenshot(page, 'admin-scanner-running-1280-light');

      await kill.click();
      await waitForStatus(page, 'error');
      await mainLogs(page).getByText('! 终止扫描进程.').waitFor();
      await kill.waitFor({ state: 'detached' });
      await expect.poll(() => page.getByTestId('PERFORM_SCAN').isEnabled()).toBe(true);
    } finally {
      sites.hang(false);
    }
    expect(errors).toEqual([]);
  });

  it('shows a `kikoplay scan` started in another process live, and kills it from the page', async () => {
    const { own, page, errors } = await ownAdmin({ scanned: true, page: '/admin/scanner' });
    await waitForStatus(page, 'finished'); // the snapshot has come: the data dir's offline scan ended
    sites.hang(true);
    try {
      const before = sites.held;
      const child = runCli(['--data-dir', own.dataDir, 'scan', '--refresh-metadata', '--json'], { env: sites.env, timeoutMs: 60_000 });
      await waitForStatus(page, 'running');
      await page.getByText('刷新媒体库信息', { exact: true }).first().waitFor();
      await mainLogs(page)
        .getByText(/^共 \d+ 个作品\. 开始刷新$/)
        .waitFor();
      await expect.poll(() => sites.held).toBeGreaterThan(before); // the other process waits on "DLsite"
      const kill = page.getByTestId('KILL_SCAN_PROCESS');
      await kill.click();
      const result = await child;
      expect(result.code, result.stderr).toBe(1); // cancelled
      // --json: the events on stdout end with the cancel; stderr has the one human line (English: runCli's language)
      expect(result.stdout).toContain('"status":"cancelled"');
      expect(result.stderr).toBe('kikoplay: Scan cancelled\n');
      await waitForStatus(page, 'error');
      await mainLogs(page).getByText('! 终止扫描进程.').waitFor();
      await kill.waitFor({ state: 'detached' });
    } finally {
      sites.hang(false);
    }
    expect(errors).toEqual([]);
  });
});

describe('the admin socket and the admin area for others', () => {
  it('refuses a non-admin token on the socket with an error and close code 4403', async () => {
    const user = await app.addUser('user');
    const ws = new WebSocket(`${app.url.replace('http', 'ws')}/api/ws?token=${encodeURIComponent(user.token)}`);
    const frames: { event: string; payload?: { message?: string } }[] = [];
    ws.on('message', (data) => frames.push(JSON.parse(data.toString())));
    const closed = await new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    expect(closed).toBe(4403);
    expect(frames).toEqual([{ event: 'error', payload: { message: '只有 admin 账号能登录管理后台.', code: 4403, reason: 'ADMIN_ONLY' } }]);
  });

  it('keeps a non-admin out of /admin', async () => {
    const user = await app.addUser('user');
    const { page, errors } = await app.open({ as: user, viewport: VIEWPORTS.phone });
    for (const p of ['/admin', '/admin/scanner', '/admin/usermanage', '/admin/advanced']) {
      await page.goto(p);
      await page.waitForURL((url) => !url.pathname.startsWith('/admin'));
      expect(await page.getByTestId('scanner-status').count()).toBe(0);
    }
    expect(errors).toEqual([]);
  });

  it('shows the socket refusal as a warning, closes it and goes to /login', async () => {
    // the page believes it has an admin session (GET /api/auth/me answered for an admin), but the token is
    // a user's: the socket is the one to refuse it
    const user = await app.addUser('user');
    const { page } = await app.open({ as: user, timeout: 10_000 });
    await page.route(/\/api\/auth\/me$/, (route) => route.fulfill({ json: { user: { name: user.name, group: 'administrator', role: 'admin' }, auth: true } }));
    const closed = page.waitForEvent('websocket').then((ws) => new Promise<void>((resolve) => ws.on('close', () => resolve())));
    await page.goto('/admin/scanner');
    await page.getByText('只有 admin 账号能登录管理后台.').waitFor();
    await page.waitForURL('**/login?redirect=%2Fadmin%2Fscanner');
    await closed;
  });

  it("says '连接Socket失败' when the socket cannot connect", async () => {
    const { page } = await app.open({ as: app.admin });
    await page.routeWebSocket(/\/api\/ws/, (ws) => ws.close({ code: 1011, reason: 'unreachable' }));
    await page.goto('/admin/scanner');
    await page.getByText('连接Socket失败').first().waitFor();
    await page.getByTestId('socket-failed').waitFor();
    expect(await page.getByTestId('PERFORM_SCAN').isDisabled()).toBe(true);
    expect(page.url()).toMatch(/\/admin\/scanner$/);
  });
});
