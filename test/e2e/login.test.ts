/**
 * End to end: the built `kikoplay serve` on a temp data dir, driven by headless Chromium.
 * Logging in through the page: client-side checks, a refused password, the way back to the page asked
 * for, the user's name in the drawer, logout, and the admin layout closed to non-admins. Screenshots of
 * the login page at 375 and 1280 px, light and dark.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { readLocal, shots, TOKEN_KEY, VIEWPORTS } from '../helpers/browser.js';
import { PACKAGE_ROOT } from '../helpers/cli-server.js';
import { loginThroughPage as logIn, servedApp } from '../helpers/e2e.js';

const VERSION = (JSON.parse(readFileSync(`${PACKAGE_ROOT}/package.json`, 'utf8')) as { version: string }).version;

const storedToken = (page: Page) => readLocal(page, TOKEN_KEY);

// every test opens its own browser context, logged out
const app = servedApp();

describe('a visitor without a token', () => {
  it('is sent to /login, which remembers the page asked for', async () => {
    const { page, errors } = await app.open();
    await page.goto('/about');
    await page.waitForURL('**/login?redirect=%2Fabout');
    await page.getByRole('button', { name: '登录' }).waitFor();
    expect(await page.getByTestId('nav-drawer').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('gets both fields checked (at least 5 characters) before the server is asked', async () => {
    const { page } = await app.open();
    const logins: string[] = [];
    const watch = (req: { method(): string; url(): string }) => {
      if (req.method() === 'POST' && req.url().endsWith('/api/auth/me')) logins.push(req.url());
    };
    page.on('request', watch);
    await page.goto('/login');
    await logIn(page, 'abc', '1234');
    // each field says its own rule (the name one speaks of the name)
    await page.getByText('用户名长度至少为 5').waitFor();
    expect(await page.getByText('密码长度至少为 5').count()).toBe(1);
    // fixing one field clears its message only
    await page.getByLabel('用户名').fill('abcde');
    expect(await page.getByText('用户名长度至少为 5').count()).toBe(0);
    expect(await page.getByText('密码长度至少为 5').count()).toBe(1);
    page.off('request', watch);
    expect(logins).toEqual([]);
    expect(page.url()).toMatch(/\/login$/);
  });

  it('is refused with the server message on a wrong password, and no token is stored', async () => {
    const user = await app.addUser('user');
    const { page } = await app.open();
    await page.goto('/login');
    const answer = page.waitForResponse((res) => res.request().method() === 'POST' && res.url().endsWith('/api/auth/me'));
    await logIn(page, user.name, 'not-the-password');
    expect((await answer).status()).toBe(401);
    await page.getByText('用户名或密码错误.').waitFor();
    expect(page.url()).toMatch(/\/login$/);
    expect(await storedToken(page)).toBeNull();
  });

  it('sees a login page that fits 375 and 1280 px, light and dark (screenshots)', async () => {
    const { page, errors } = await app.open();
    await page.goto('/login');
    await page.getByRole('button', { name: '登录' }).waitFor();
    // nothing sticks out sideways on a phone
    await shots(page, 'login');
    expect(errors).toEqual([]);
  });
});

describe('logging in', () => {
  it('returns to the page asked for, shows the user in the drawer, and logout goes back to /login', async () => {
    const admin = await app.addUser('admin');
    const { page, errors } = await app.open();
    await page.goto('/about');
    await page.waitForURL('**/login?redirect=%2Fabout');
    await logIn(page, admin.name, admin.password);
    await page.waitForURL('**/about');
    expect(await storedToken(page)).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    await page.getByTestId('server-version').filter({ hasText: VERSION }).waitFor(); // from /api/version

    // the desktop drawer starts as a mini rail; the menu toggle widens it and shows names
    const drawer = page.getByTestId('nav-drawer');
    expect(await drawer.getByText(admin.name, { exact: true }).count()).toBe(0);
    await page.getByTestId('menu-toggle').click();
    await drawer.getByText(admin.name, { exact: true }).waitFor();
    for (const label of ['媒体库', '我的收藏', '社团', '标签', '声优', 'AI 歌词中心', '管理后台', '关于']) {
      expect(await drawer.getByText(label, { exact: true }).isVisible(), label).toBe(true);
    }

    // logout asks first; cancelling keeps the session
    await drawer.getByTestId('logout').click();
    await page.getByText('是否退出登录？').waitFor();
    await page.getByRole('button', { name: '取消' }).click();
    await page.getByText('是否退出登录？').waitFor({ state: 'hidden' });
    expect(await storedToken(page)).not.toBeNull();

    const loggedIn = await storedToken(page);
    expect(await readLocal(page, 'kikoplay.mediaToken')).toMatch(/"token":"ey/);
    await drawer.getByTestId('logout').click();
    await page.getByRole('button', { name: '退出' }).click();
    await page.waitForURL('**/login');
    expect(await storedToken(page)).toBeNull();
    expect(await readLocal(page, 'kikoplay.mediaToken')).toBeNull();
    // the server revoked it: a copy of it is no good either
    expect((await fetch(`${app.url}/api/auth/me`, { headers: { Authorization: `Bearer ${loggedIn}` } })).status).toBe(401);
    // the main area is closed again
    await page.goto('/about');
    await page.waitForURL('**/login?redirect=%2Fabout');
    expect(errors).toEqual([]);
  });

  it('keeps non-admins out of the admin layout and hides its link', async () => {
    const user = await app.addUser('user');
    const { page, errors } = await app.open({ viewport: VIEWPORTS.phone });
    await page.goto('/admin/scanner');
    await page.waitForURL('**/login?redirect=%2Fadmin%2Fscanner');
    await logIn(page, user.name, user.password);
    await page.waitForURL('**/works'); // back to /admin/scanner, then home: not an admin
    await page.getByTestId('menu-toggle').click(); // on a phone the drawer slides over the page
    const drawer = page.getByTestId('nav-drawer');
    await drawer.getByText(user.name, { exact: true }).waitFor();
    expect(await drawer.getByText('管理后台', { exact: true }).count()).toBe(0);
    // following a link closes the phone drawer
    await drawer.getByText('关于', { exact: true }).click();
    await page.waitForURL('**/about');
    await drawer.waitFor({ state: 'hidden' });
    expect(errors).toEqual([]);
  });

  it('never follows a redirect target outside the app', async () => {
    const user = await app.addUser('user');
    const { page } = await app.open();
    await page.goto('/login?redirect=%2F%2Fevil.example%2Fsteal');
    await logIn(page, user.name, user.password);
    await page.waitForURL((url) => url.origin === app.url && url.pathname === '/works');
  });
});
