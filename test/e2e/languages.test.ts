/**
 * End to end: the interface language. The built `kikoplay serve` on a temp data dir with its own user,
 * driven by headless Chromium whose browser language is zh-CN (the e2e default). On the login page the
 * visitor switches to English, logs in and sees English navigation (and the choice is saved on the
 * account); switches to 日本語 in the header's language menu, reloads and still reads Japanese;
 * `<html lang>` follows each time. A fresh browser then gets the account's language on login.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { apiLogin, launchChromium, openPage, readLocal, screenshot, VIEWPORTS } from '../helpers/browser.js';
import { startCliServer, type CliServer } from '../helpers/cli-server.js';

const USER = { name: 'listener', password: 'listenerpass' };

const htmlLang = (page: Page) => page.evaluate(() => (globalThis as unknown as { document: { documentElement: { lang: string } } }).document.documentElement.lang);
const navLink = (page: Page, name: string) => page.getByTestId('nav-drawer').getByRole('link', { name, exact: true });

async function accountLocale(baseURL: string): Promise<string | null | undefined> {
  const token = await apiLogin(baseURL, USER.name, USER.password);
  const res = await fetch(`${baseURL}/api/auth/me`, { headers: { Authorization: `Bearer ${token}` } });
  return ((await res.json()) as { user: { locale?: string | null } }).user.locale;
}

async function chooseLanguage(page: Page, name: string): Promise<void> {
  await page.getByTestId('language-menu').first().click();
  await page.getByRole('menuitem', { name, exact: true }).click();
}

let server: CliServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startCliServer(), launchChromium()]);
  if (!server.admin) throw new Error(`no initial admin password was written:\n${server.output()}`);
  const admin = await apiLogin(server.url, server.admin.name, server.admin.password);
  const res = await fetch(`${server.url}/api/credentials/user`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${admin}` },
    body: JSON.stringify({ ...USER, group: 'user' }),
  });
  if (res.status !== 200) throw new Error(`creating ${USER.name}: ${res.status} ${await res.text()}`);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('interface language', () => {
  it('switches on the login page, carries over the login, switches in the header and survives a reload', async () => {
    const { context, page, errors } = await openPage(browser, { baseURL: server.url, viewport: VIEWPORTS.desktop });
    try {
      await page.goto('/login');
      // a zh-CN browser on its first visit reads Chinese
      await page.getByRole('button', { name: '登录' }).waitFor();
      expect(await htmlLang(page)).toBe('zh-CN');

      await chooseLanguage(page, 'English');
      await page.getByRole('button', { name: 'Log in' }).waitFor();
      expect(await htmlLang(page)).toBe('en');
      expect(await page.getByText('Log in to open the library').count()).toBe(1);
      await screenshot(page, 'languages-login-en-1280');

      await page.getByLabel('Username').fill(USER.name);
      await page.getByLabel('Password', { exact: true }).fill(USER.password);
      await page.getByRole('button', { name: 'Log in' }).click();
      await navLink(page, 'Library').waitFor();
      for (const name of ['Favourites', 'Circles', 'Tags', 'Voice actors', 'About']) await navLink(page, name).waitFor();
      expect(await htmlLang(page)).toBe('en');
      // the account had no language yet: it takes the one chosen on this browser
      await expect.poll(() => accountLocale(server.url)).toBe('en');

      const saved = page.waitForResponse((res) => res.request().method() === 'PUT' && res.url().endsWith('/api/auth/me/locale'));
      await chooseLanguage(page, '日本語');
      expect((await saved).status()).toBe(200);
      await navLink(page, 'ライブラリ').waitFor();
      expect(await htmlLang(page)).toBe('ja');
      expect(await readLocal(page, 'kikoplay.locale')).toBe('ja');

      await page.reload();
      await navLink(page, 'ライブラリ').waitFor();
      for (const name of ['お気に入り', 'サークル', 'タグ', '声優']) await navLink(page, name).waitFor();
      expect(await navLink(page, '媒体库').count()).toBe(0);
      expect(await htmlLang(page)).toBe('ja');
      await screenshot(page, 'languages-works-ja-1280');
      expect(await accountLocale(server.url)).toBe('ja');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('on another browser, the account’s language wins over the browser’s once logged in', async () => {
    const { context, page, errors } = await openPage(browser, { baseURL: server.url, viewport: VIEWPORTS.desktop });
    try {
      await page.goto('/login');
      await page.getByRole('button', { name: '登录' }).waitFor();
      expect(await htmlLang(page)).toBe('zh-CN');
      await page.getByLabel('用户名').fill(USER.name);
      await page.getByLabel('密码', { exact: true }).fill(USER.password);
      await page.getByRole('button', { name: '登录' }).click();
      await navLink(page, 'ライブラリ').waitFor();
      expect(await htmlLang(page)).toBe('ja');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
