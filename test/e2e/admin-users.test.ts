/**
 * End to end: user management and advanced settings of the admin dashboard against the built
 * `kikoplay serve`, in headless Chromium. Users: the rules (5 characters, unique names, user
 * or guest, matching passwords), the server's 422 shown as a warning, role change, delete, and the
 * admin's own password change that clears the token and goes to /login. Advanced settings: every
 * group, client-side limits, the server's 400 naming the key, saving, a restart note, and `auth`
 * locked in production. Screenshots of both screens.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { readLocal, shots, TOKEN_KEY } from '../helpers/browser.js';
import { apiLogin, uniqueName, servedApp } from '../helpers/e2e.js';

const app = servedApp();

const users = async () => (await app.api<{ users: { name: string; role: string }[] }>('GET', '/api/credentials/users')).users;

/** Requests of a method to a path made while `fn` runs. */
async function requestsDuring(page: Page, method: string, path: string, fn: () => Promise<void>): Promise<number> {
  let n = 0;
  const watch = (req: { method(): string; url(): string }) => {
    if (req.method() === method && new URL(req.url()).pathname === path) n++;
  };
  page.on('request', watch);
  try {
    await fn();
  } finally {
    page.off('request', watch);
  }
  return n;
}

describe('user management', () => {
  const form = (page: Page) => page.getByTestId('add-user');
  const row = (page: Page, name: string) => page.locator(`[data-testid="user-row"][data-name="${name}"]`);

  /** The user management screen, as an admin of the test's own. */
  async function openUsers(): Promise<{ page: Page; errors: string[]; admin: { name: string } }> {
    const admin = await app.addUser('admin');
    const { page, errors } = await app.open({ as: admin });
    await page.goto('/admin/usermanage');
    await row(page, admin.name).waitFor();
    return { page, errors, admin };
  }

  it('lists the users, the admin marked as the current account', async () => {
    const { page, admin } = await openUsers();
    await row(page, admin.name).getByText('当前账号').waitFor();
    expect(await row(page, admin.name).getByLabel(`角色 ${admin.name}`).inputValue()).toBe('管理员');
  });

  it('checks name and password length before asking the server', async () => {
    const { page } = await openUsers();
    const posts = await requestsDuring(page, 'POST', '/api/credentials/user', async () => {
      await form(page).getByLabel('用户名').fill('abc');
      await form(page).getByLabel('密码').fill('1234');
      await form(page).getByRole('button', { name: '添加用户' }).click();
      await form(page).getByText('用户名长度至少为 5').waitFor();
      await form(page).getByText('密码长度至少为 5').waitFor();
    });
    expect(posts).toBe(0);
  });

  it('adds a guest, refuses the same name again, and shows the server 422 as a warning', async () => {
    const { page, errors } = await openUsers();
    const listener = uniqueName('listener');
    const sneaky = uniqueName('sneaky');
    await form(page).getByLabel('用户名').fill(listener);
    await form(page).getByLabel('密码').fill('listener-pass');
    await form(page).getByText('游客 (guest)').click();
    await form(page).getByRole('button', { name: '添加用户' }).click();
    await page.getByText(`用户 ${listener} 创建成功.`).waitFor();
    await row(page, listener).waitFor();
    expect(await row(page, listener).getByLabel(`角色 ${listener}`).inputValue()).toBe('游客');
    expect((await users()).find((u) => u.name === listener)?.role).toBe('guest');
    // form cleared
    expect(await form(page).getByLabel('用户名').inputValue()).toBe('');

    // the page knows the name already
    const posts = await requestsDuring(page, 'POST', '/api/credentials/user', async () => {
      await form(page).getByLabel('用户名').fill(listener);
      await form(page).getByLabel('密码').fill('another-pass');
      await form(page).getByRole('button', { name: '添加用户' }).click();
      await form(page).getByText('该名称已存在，用户名不能重复').waitFor();
    });
    expect(posts).toBe(0);

    // a name the page has not seen yet (created meanwhile): the server says it, as a warning
    expect((await app.api.call('POST', '/api/credentials/user', { name: sneaky, password: 'sneaky-pass', group: 'user' })).status).toBe(200);
    await form(page).getByLabel('用户名').fill(sneaky);
    await form(page).getByLabel('密码').fill('sneaky-pass');
    await form(page).getByRole('button', { name: '添加用户' }).click();
    await page.getByRole('alert').filter({ hasText: '该名称已存在，用户名不能重复' }).first().waitFor();
    await form(page).getByText('该名称已存在，用户名不能重复').waitFor();
    expect(errors).toEqual([]);
  });

  it("changes a user's password: both at least 5 characters, and equal", async () => {
    const listener = await app.addUser('guest', 'listener');
    const { page } = await openUsers();
    await row(page, listener.name)
      .getByRole('button', { name: `修改密码 ${listener.name}` })
      .click();
    const dialog = page.getByRole('dialog', { name: `修改 ${listener.name} 的密码` });
    await dialog.getByLabel('新密码', { exact: true }).fill('new-pass-1');
    await dialog.getByLabel('确认新密码').fill('new-pass-2');
    await dialog.getByRole('button', { name: '保存' }).click();
    await dialog.getByText('两次密码输入不一致').waitFor();
    await dialog.getByLabel('新密码', { exact: true }).fill('1234');
    await dialog.getByLabel('确认新密码').fill('1234');
    await dialog.getByRole('button', { name: '保存' }).click();
    expect(await dialog.getByText('密码长度至少为 5').count()).toBe(2);
    await dialog.getByLabel('新密码', { exact: true }).fill('new-pass-1');
    await dialog.getByLabel('确认新密码').fill('new-pass-1');
    await dialog.getByRole('button', { name: '保存' }).click();
    await page.getByText('密码修改成功.').waitFor();
    await dialog.waitFor({ state: 'detached' });
    expect(await apiLogin(app.url, listener.name, 'new-pass-1')).toMatch(/\./);
    // still logged in as the admin
    expect(page.url()).toMatch(/\/admin\/usermanage$/);
  });

  it('changes a role and deletes a user after asking', async () => {
    const listener = await app.addUser('guest', 'listener');
    const sneaky = await app.addUser('user', 'sneaky');
    const { page, errors, admin } = await openUsers();
    await row(page, listener.name).getByLabel(`角色 ${listener.name}`).click();
    await page.getByRole('option', { name: '普通用户' }).click();
    await page.getByText(`${listener.name} 的角色已改为 普通用户`).waitFor();
    await expect.poll(async () => (await users()).find((u) => u.name === listener.name)?.role).toBe('user');

    await row(page, sneaky.name)
      .getByRole('button', { name: `删除 ${sneaky.name}` })
      .click();
    await page.getByText(`确定要删除用户 ${sneaky.name} 吗？`, { exact: false }).waitFor();
    await page.getByRole('dialog').getByRole('button', { name: '删除' }).click();
    await row(page, sneaky.name).waitFor({ state: 'detached' });
    expect((await users()).map((u) => u.name)).not.toContain(sneaky.name);
    // the admin cannot delete the account it is logged in with
    expect(
      await row(page, admin.name)
        .getByRole('button', { name: `删除 ${admin.name}` })
        .isDisabled(),
    ).toBe(true);
    expect(errors).toEqual([]);
  });

  it('fits 375 and 1280 px, light and dark (screenshots)', async () => {
    const { page } = await openUsers();
    await shots(page, 'admin-users', page.getByTestId('user-table'));
  });
});

describe('advanced settings', () => {
  const field = (page: Page, key: string) => page.locator(`[data-key="${key}"]`);
  type Config = Record<string, unknown>;
  const savedConfig = async () => (await app.api<{ config: Config }>('GET', '/api/config/admin')).config;
  /** The advanced settings screen, its fields showing the saved config. */
  async function openAdvanced(): Promise<{ page: Page; errors: string[] }> {
    const { page, errors } = await app.open({ as: app.admin });
    await page.goto('/admin/advanced');
    await expect.poll(() => field(page, 'pageSize').inputValue()).toBe('12');
    return { page, errors };
  }

  it('shows every group, production read-only and auth editable', async () => {
    const { page } = await app.open({ as: app.admin });
    await page.goto('/admin/usermanage');
    await page.getByTestId('admin-nav').getByRole('link', { name: '高级设置' }).click();
    await page.waitForURL('**/admin/advanced');
    for (const group of ['paths', 'playback', 'language', 'scraping', 'proxy', 'scanning', 'server', 'media', 'ai', 'updates']) {
      await page.getByTestId(`config-group-${group}`).waitFor();
    }
    // the fields get the saved values as the config arrives, maybe a render after the groups: wait for them
    await expect.poll(() => field(page, 'pageSize').inputValue()).toBe('12');
    expect(await field(page, 'production').isDisabled()).toBe(true);
    expect(await field(page, 'auth').isDisabled()).toBe(false);
    await expect.poll(() => field(page, 'auth').isChecked()).toBe(true);
    await expect.poll(() => field(page, 'coverFolderDir').isDisabled()).toBe(true); // while the default cover folder is used
    await page.getByText('没有修改').waitFor();
  });

  it('checks limits on the page, and shows the server naming the key it refuses', async () => {
    const { page } = await openAdvanced();
    const puts = await requestsDuring(page, 'PUT', '/api/config/admin', async () => {
      await field(page, 'pageSize').fill('200');
      await page.getByText('1 项修改未保存').waitFor();
      await page.getByRole('button', { name: '保存设置' }).click();
      await page.getByTestId('config-group-server').getByText('必须在 1 到 100 之间').waitFor();
      await field(page, 'pageSize').fill('12.5');
      await page.getByRole('button', { name: '保存设置' }).click();
      await page.getByTestId('config-group-server').getByText('必须是整数').waitFor();
    });
    expect(puts).toBe(0);
    await page.getByRole('button', { name: '撤销修改' }).click();
    expect(await field(page, 'pageSize').inputValue()).toBe('12');

    // passes the page's check, not the server's
    await field(page, 'dlsiteBaseUrl').fill('http://[bad');
    const answer = page.waitForResponse((res) => res.request().method() === 'PUT' && res.url().endsWith('/api/config/admin'));
    await page.getByRole('button', { name: '保存设置' }).click();
    expect((await answer).status()).toBe(400);
    await page
      .getByTestId('config-error')
      .getByText(/dlsiteBaseUrl/)
      .waitFor();
    // under the field, in the interface language (the server's own text is zod's English)
    await page.getByTestId('config-group-scraping').locator('.mantine-InputWrapper-error').getByText('必须是有效的网址', { exact: true }).waitFor();
    expect((await savedConfig()).dlsiteBaseUrl).toBe('https://www.dlsite.com');
    await page.getByRole('button', { name: '撤销修改' }).click();
  });

  it('saves changed keys only, and says which need a restart', async () => {
    // the config is the whole server's: this test changes it on a server of its own
    const own = await app.ownServer();
    const { page, errors } = await app.open({ as: own.admin, on: own });
    await page.goto('/admin/advanced');
    await expect.poll(() => field(page, 'rewindSeekTime').inputValue()).toBe('5');
    await field(page, 'rewindSeekTime').fill('10');
    await field(page, 'listenPort').fill('18888');
    await field(page, 'tagLanguage').click();
    await page.getByRole('option', { name: '日本語 (ja-jp)' }).click();
    await page.getByText('3 项修改未保存').waitFor();
    const request = page.waitForRequest((req) => req.method() === 'PUT' && req.url().endsWith('/api/config/admin'));
    await page.getByRole('button', { name: '保存设置' }).click();
    expect((await request).postDataJSON()).toEqual({ config: { rewindSeekTime: 10, tagLanguage: 'ja-jp', listenPort: 18888 } });
    await page.getByText('以下设置需要重启服务器后生效：监听端口').waitFor();
    await page.getByText('没有修改').waitFor();
    expect(await own.api('GET', '/api/config/shared')).toEqual({ sharedConfig: { rewindSeekTime: 10, forwardSeekTime: 30 } });
    // the form shows what was saved after a reload
    await page.reload();
    await expect.poll(() => field(page, 'rewindSeekTime').inputValue()).toBe('10');
    // (a select shows the label of a new value one render later)
    await expect.poll(() => field(page, 'tagLanguage').inputValue()).toBe('日本語 (ja-jp)');
    expect(errors).toEqual([]);
  });

  it('fits 375 and 1280 px, light and dark (screenshots)', async () => {
    const { page } = await openAdvanced();
    await shots(page, 'admin-advanced', page.getByTestId('config-group-paths'));
  });
});

describe("the admin's own password", () => {
  const NEW_PASSWORD = 'a-brand-new-password';
  /** A token for `name` with `password`, or null when the server refuses it. */
  const tokenFor = async (name: string, password: string) => {
    const res = await app.api.call<{ token: string }>('POST', '/api/auth/me', { name, password }, null);
    return res.status === 200 ? res.body.token : null;
  };

  it('changing it clears the stored token and goes to /login (auth is on)', async () => {
    const admin = await app.addUser('admin');
    const { page, errors } = await app.open({ as: admin });
    await page.goto('/admin/usermanage');
    await page
      .locator(`[data-testid="user-row"][data-name="${admin.name}"]`)
      .getByRole('button', { name: `修改密码 ${admin.name}` })
      .click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('这是当前登录的账号：修改密码后需要重新登录。').waitFor();
    await dialog.getByLabel('新密码', { exact: true }).fill(NEW_PASSWORD);
    await dialog.getByLabel('确认新密码').fill(NEW_PASSWORD);
    // the own password takes the current one: missing, then wrong, each shown at its field
    await dialog.getByRole('button', { name: '保存' }).click();
    await dialog.getByText('请输入当前密码').waitFor();
    await dialog.getByLabel('当前密码').fill('not-the-password');
    await dialog.getByRole('button', { name: '保存' }).click();
    await dialog.getByText('当前密码错误.').waitFor();
    expect(await tokenFor(admin.name, admin.password)).toMatch(/\./);
    await dialog.getByLabel('当前密码').fill(admin.password);
    await dialog.getByRole('button', { name: '保存' }).click();
    await page.waitForURL('**/login');
    expect(await readLocal(page, TOKEN_KEY)).toBeNull();
    expect(await apiLogin(app.url, admin.name, NEW_PASSWORD)).toMatch(/\./);
    expect(errors).toEqual([]);
  });
});

describe('advanced settings in production', () => {
  it('lock `auth`', async () => {
    const prod = await app.ownServer({ env: { KIKOPLAY_PRODUCTION: 'true' } });
    const { page } = await app.open({ as: prod.admin, on: prod });
    await page.goto('/admin/advanced');
    const auth = page.locator('[data-key="auth"]');
    await auth.waitFor({ state: 'attached' });
    expect(await auth.isDisabled()).toBe(true);
    // the switches get the saved values as the config arrives, maybe a render after they appear
    await expect.poll(() => auth.isChecked()).toBe(true);
    await page.getByText('生产模式下登录验证总是开启，不能修改。').waitFor();
    await expect.poll(() => page.locator('[data-key="production"]').isChecked()).toBe(true);
  });
});
