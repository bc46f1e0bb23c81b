/**
 * End to end: the first run and the account page, against the built `kikoplay serve` in headless
 * Chromium. From an empty data dir the admin logs in with the generated password, sees the banner
 * asking to change it, adds the library folder through the folder browser of the empty library, watches
 * its scan, sees the works and plays a track — without leaving the browser — then changes the password
 * on /account and the banner goes. A user changes their password; a guest sees no password form; "log
 * out everywhere" ends another page's session. Screenshots of the empty library (admin with the banner,
 * user), and the account page, at 375 and 1280 px, light and dark.
 *
 * DLsite is a loopback server that resets every connection: metadata fails fast, the works are added.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { readLocal, screenshot, shots, TOKEN_KEY } from '../helpers/browser.js';
import { loginThroughPage, servedApp } from '../helpers/e2e.js';
import { deadSites } from '../helpers/dead-sites.js';
import { tempDir } from '../helpers/app.js';
import { synthWav } from '../../server/library/demo-library.js';

const sites = deadSites();

// the file's server has no library at all: every page of it shows the empty library
const app = servedApp();

const TRACK = '01 はじめに.wav';

/** A folder holding the data dir and a library of one work (so the browser starts next to the library). */
function firstRunRoot(): { root: string; dataDir: string; library: string } {
  const root = tempDir('kikoplay-first-run-');
  const library = path.join(root, 'voice');
  const work = path.join(library, 'RJ100001 はじめての作品');
  mkdirSync(work, { recursive: true });
  writeFileSync(path.join(work, TRACK), synthWav([[440, 6]], 0.2));
  const dataDir = path.join(root, 'data');
  mkdirSync(dataDir);
  return { root, dataDir, library };
}

/** The time of the player's media element with a source (null: none). */
const mediaTime = (page: Page) =>
  page.evaluate(() => {
    const doc = (globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<{ currentTime: number; getAttribute(n: string): string | null }> } }).document;
    const el = Array.from(doc.querySelectorAll('audio, video')).find((e) => e.getAttribute('src'));
    return el ? el.currentTime : null;
  });

/** Open /account through the header's user menu. */
async function openAccount(page: Page): Promise<void> {
  await page.getByTestId('user-menu').click();
  await page.getByTestId('account-link').click();
  await page.waitForURL('**/account');
  await page.getByTestId('account-page').waitFor();
}

async function changePassword(page: Page, current: string, next: string): Promise<void> {
  const form = page.getByTestId('password-form');
  await form.getByLabel('当前密码').fill(current);
  await form.getByLabel('新密码', { exact: true }).fill(next);
  await form.getByLabel('确认新密码').fill(next);
  await form.getByRole('button', { name: '修改密码' }).click();
  await page.getByText('密码修改成功.').waitFor();
}

describe('the first run', { timeout: 240_000 }, () => {
  it('goes from an empty data dir to a playing track in the browser, then the generated password is changed', async () => {
    const { root, dataDir, library } = firstRunRoot();
    const own = await app.ownServer({ env: sites.env, dataDir });
    const { page, errors } = await app.open({ on: own });

    // log in with the generated password: the banner asks to change it, on every page
    await page.goto('/');
    await page.waitForURL('**/login**');
    await loginThroughPage(page, own.admin.name, own.admin.password);
    await page.waitForURL('**/works');
    const banner = page.getByTestId('password-banner');
    await banner.waitFor();
    const empty = page.locator('[data-testid="empty-library"][data-admin="true"]');
    await empty.waitFor();
    expect(await page.getByTestId('works-empty').count()).toBe(0);
    await shots(page, 'first-run-admin', empty);
    await page.goto('/about');
    await banner.waitFor();
    await page.goto('/admin/scanner');
    await banner.waitFor();
    await page.goto('/works');

    // the folder browser starts next to the data dir; open "voice" and use it
    await empty.getByTestId('browse-toggle').click();
    const browser = page.getByTestId('folder-browser');
    await expect.poll(() => browser.getByTestId('browse-path').textContent()).toBe(root);
    await browser.getByRole('button', { name: 'data', exact: true }).waitFor();
    await browser.getByRole('button', { name: 'voice', exact: true }).click();
    await expect.poll(() => browser.getByTestId('browse-path').textContent()).toBe(library);
    await browser.getByRole('button', { name: 'RJ100001 はじめての作品', exact: true }).waitFor();
    await screenshot(page, 'first-run-browser-1280-light', browser);
    // up and back down again
    await browser.getByTestId('browse-up').click();
    await expect.poll(() => browser.getByTestId('browse-path').textContent()).toBe(root);
    await browser.getByRole('button', { name: 'voice', exact: true }).click();
    await expect.poll(() => browser.getByTestId('browse-path').textContent()).toBe(library);
    await browser.getByTestId('browse-choose').click();
    const form = page.getByTestId('first-folder-form');
    expect(await form.getByLabel('文件夹路径').inputValue()).toBe(library);
    expect(await form.getByLabel('别名').inputValue()).toBe('voice');

    // adding starts the scan at once; its progress shows until the works appear
    await form.getByRole('button', { name: '添加并扫描' }).click();
    const progress = page.getByTestId('first-scan');
    await progress.waitFor({ state: 'attached' });
    await screenshot(page, 'first-run-scanning-1280-light');
    const card = page.getByTestId('work-card').first();
    await card.waitFor({ timeout: 60_000 });
    expect(await card.getAttribute('data-work-id')).toBe('100001');
    expect((await own.api<{ folders: { name: string; path: string }[] }>('GET', '/api/config/folders')).folders).toMatchObject([{ name: 'voice', path: library }]);

    // play a track of the new work
    await card.getByTestId('work-title').click();
    await page.waitForURL('**/work/100001');
    await page.getByTestId('file-tree').waitFor();
    await page.locator(`[data-testid="tree-item"][data-title="${TRACK}"] button`).first().click();
    await expect.poll(() => page.getByTestId('player-bar-title').textContent()).toBe(TRACK);
    await expect.poll(async () => (await mediaTime(page)) ?? 0, { timeout: 15_000 }).toBeGreaterThan(0.3);

    // change the generated password on /account: the banner goes, the old token is dead
    await openAccount(page);
    await banner.waitFor();
    await changePassword(page, own.admin.password, 'my-own-admin-password');
    await banner.waitFor({ state: 'detached' });
    await page.goto('/works');
    await card.waitFor();
    expect(await banner.count()).toBe(0);
    expect((await own.api.call('GET', '/api/auth/me', undefined, own.admin.token)).status).toBe(401);
    expect(errors).toEqual([]);
  });
});

describe('the empty library and the account page for others', { timeout: 180_000 }, () => {
  it('tells a user that the admin adds folders (no folder panel, no banner)', async () => {
    const user = await app.addUser('user', 'reader');
    const { page, errors } = await app.open({ as: user });
    await page.goto('/works');
    const note = page.getByTestId('empty-library-note');
    await note.waitFor();
    expect(await page.getByTestId('first-folder-form').count()).toBe(0);
    expect(await page.getByTestId('password-banner').count()).toBe(0);
    await shots(page, 'first-run-user', note);
    // the folder browser is the admin's
    expect((await app.api.call('GET', '/api/config/browse', undefined, user.token)).status).toBe(403);
    expect(errors).toEqual([]);
  });

  it('lets a user change their password on /account; the old password and token stop working', async () => {
    const user = await app.addUser('user', 'changer');
    const { page, errors } = await app.open({ as: user });
    await page.goto('/works');
    await openAccount(page);
    await page.getByTestId('account-name').getByText(user.name, { exact: false }).waitFor();
    await shots(page, 'account-user', page.getByTestId('password-form'));

    // a wrong current password is refused on its field; mismatched confirmations never leave the page
    const form = page.getByTestId('password-form');
    await form.getByLabel('当前密码').fill('not-my-password');
    await form.getByLabel('新密码', { exact: true }).fill('changed-pass');
    await form.getByLabel('确认新密码').fill('changed-pass-typo');
    await form.getByRole('button', { name: '修改密码' }).click();
    await form.getByText('两次密码输入不一致').waitFor();
    await form.getByLabel('确认新密码').fill('changed-pass');
    await form.getByRole('button', { name: '修改密码' }).click();
    await form.getByText('当前密码错误.').waitFor();

    await changePassword(page, user.password, 'changed-pass');
    // this page carries on with the new token (in-app: a reload would put the old one back, see openLoggedInPage)
    const stored = await readLocal(page, TOKEN_KEY);
    expect(stored).not.toBe(user.token);
    expect((await app.api.call('GET', '/api/auth/me', undefined, stored)).status).toBe(200);
    await page.getByRole('link', { name: '回到首页' }).click();
    await page.getByTestId('empty-library-note').waitFor();
    await openAccount(page);
    expect((await app.api.call('GET', '/api/auth/me', undefined, user.token)).status).toBe(401);
    expect((await app.api.call('POST', '/api/auth/me', { name: user.name, password: user.password }, null)).status).toBe(401);
    expect((await app.api.call('POST', '/api/auth/me', { name: user.name, password: 'changed-pass' }, null)).status).toBe(200);
    expect(errors).toEqual([]);
  });

  it('shows a guest no password form and no "log out everywhere"', async () => {
    const guest = await app.addUser('guest', 'visitor');
    const { page, errors } = await app.open({ as: guest });
    await page.goto('/account');
    await page.getByTestId('guest-note').waitFor();
    await page.getByTestId('language-section').waitFor();
    expect(await page.getByTestId('password-form').count()).toBe(0);
    expect(await page.getByTestId('logout-all').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('"log out everywhere" ends the session of another page too', async () => {
    const user = await app.addUser('user', 'leaver');
    const other = await app.api('POST', '/api/auth/me', { name: user.name, password: user.password }, null).then((r) => (r as { token: string }).token);
    const here = await app.open({ as: user });
    const there = await app.open({ as: other });
    await there.page.goto('/works');
    await there.page.getByTestId('empty-library-note').waitFor();

    await here.page.goto('/account');
    await here.page.getByTestId('logout-all').click();
    await here.page.getByRole('dialog').getByRole('button', { name: '全部退出' }).click();
    await here.page.waitForURL('**/login**');

    expect((await app.api.call('GET', '/api/auth/me', undefined, other)).status).toBe(401);
    // the other page is sent to the login page as soon as it asks the server again
    await there.page.goto('/account');
    await there.page.waitForURL('**/login**');
    expect(here.errors).toEqual([]);
    expect(there.errors).toEqual([]);
  });

  it('switches the interface language on /account and saves it on the account', async () => {
    const user = await app.addUser('user', 'polyglot');
    const { page } = await app.open({ as: user });
    await page.goto('/account');
    await page.getByTestId('language-section').getByText('English').click();
    await page.getByRole('heading', { name: 'Account', exact: true }).waitFor();
    await expect.poll(async () => (await app.api<{ user: { locale: string } }>('GET', '/api/auth/me', undefined, user.token)).user.locale).toBe('en');
  });
});

describe('with auth off', { timeout: 120_000 }, () => {
  it('the account page says accounts are off and shows only the language', async () => {
    const own = await app.ownServer({ args: ['--no-auth'] });
    const { page, errors } = await app.open({ on: own });
    await page.goto('/account');
    await page.getByTestId('auth-off').waitFor();
    await page.getByTestId('language-section').waitFor();
    expect(await page.getByTestId('password-form').count()).toBe(0);
    expect(await page.getByTestId('logout-all').count()).toBe(0);
    expect(await page.getByTestId('password-banner').count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
