/**
 * End to end: user management and advanced settings of the admin dashboard against the built
 * `kikoplay serve`, in headless Chromium. Users: the rules (5 characters, unique names, user
 * or guest, matching passwords), the server's 422 shown as a warning, role change, delete, and the
 * admin's own password change that clears the token and goes to /login. Advanced settings: every
 * group, client-side limits, the server's 400 naming the key, saving, a restart note, and `auth`
 * locked in production. Screenshots of both screens.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { apiLogin, launchChromium, openLoggedInPage, readLocal, screenshot, scrollWidthOf, TOKEN_KEY, VIEWPORTS, waitForColorScheme } from '../helpers/browser.js';
import { startCliServer, type CliServer } from '../helpers/cli-server.js';

/** Screenshots show the screen, not the last action's toast: wait for the toasts to close. */
const toastsGone = () => expect.poll(() => page.locator('.mantine-Notification-root').count(), { timeout: 10_000 }).toBe(0);
let server: CliServer;
let browser: Browser;
let admin: { name: string; password: string };
let adminToken: string;
let context: BrowserContext;
let page: Page;
let errors: string[];

const api = async (method: string, p: string, token: string, body?: unknown) => {
  const res = await fetch(server.url + p, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as Record<string, unknown> | null };
};
const users = async () => ((await api('GET', '/api/credentials/users', adminToken)).body as { users: { name: string; role: string }[] }).users;

/**
 * Put the user list back to what a test starts from (a retry runs against the server its failed attempt
 * changed): `absent` deleted, `present` created or given their role back, then the page loaded afresh.
 */
async function resetUsers(absent: string[], present: { name: string; password: string; group: string }[] = []): Promise<void> {
  const names = (await users()).map((u) => u.name);
  const gone = absent.filter((n) => names.includes(n));
  if (gone.length) expect((await api('DELETE', '/api/credentials/user', adminToken, { users: gone.map((name) => ({ name })) })).status).toBe(200);
  for (const u of present) {
    const res = names.includes(u.name)
      ? await api('PUT', '/api/credentials/user/role', adminToken, { name: u.name, role: u.group })
      : await api('POST', '/api/credentials/user', adminToken, u);
    expect(res.status).toBe(200);
  }
  await page.goto('/admin/usermanage');
}

/** Requests of a method to a path made while `fn` runs. */
async function requestsDuring(method: string, path: string, fn: () => Promise<void>): Promise<number> {
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

async function shots(name: string, settled: ReturnType<Page['getByTestId']>) {
  await toastsGone();
  for (const viewport of Object.values(VIEWPORTS)) {
    await page.setViewportSize(viewport);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await waitForColorScheme(page, colorScheme);
      expect(await scrollWidthOf(page)).toBeLessThanOrEqual(viewport.width);
      await screenshot(page, `${name}-${viewport.width}-${colorScheme}`, settled);
    }
  }
  await page.setViewportSize(VIEWPORTS.desktop);
  await page.emulateMedia({ colorScheme: 'light' });
}

beforeAll(async () => {
  [server, browser] = await Promise.all([startCliServer(), launchChromium()]);
  if (!server.admin) throw new Error(`no initial admin password was written:\n${server.output()}`);
  admin = server.admin;
  adminToken = await apiLogin(server.url, admin.name, admin.password);
  ({ context, page, errors } = await openLoggedInPage(browser, adminToken, { baseURL: server.url, viewport: VIEWPORTS.desktop }));
  context.setDefaultTimeout(15_000);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

describe('user management', () => {
  const form = () => page.getByTestId('add-user');
  const row = (name: string) => page.locator(`[data-testid="user-row"][data-name="${name}"]`);

  it('lists the users, the admin marked as the current account', async () => {
    await page.goto('/admin/usermanage');
    await row(admin.name).getByText('当前账号').waitFor();
    expect(await row(admin.name).getByLabel(`角色 ${admin.name}`).inputValue()).toBe('管理员');
  });

  it('checks name and password length before asking the server', async () => {
    const posts = await requestsDuring('POST', '/api/credentials/user', async () => {
      await form().getByLabel('用户名').fill('abc');
      await form().getByLabel('密码').fill('1234');
      await form().getByRole('button', { name: '添加用户' }).click();
      await form().getByText('用户名长度至少为 5').waitFor();
      await form().getByText('密码长度至少为 5').waitFor();
    });
    expect(posts).toBe(0);
  });

  it('adds a guest, refuses the same name again, and shows the server 422 as a warning', async () => {
    await resetUsers(['listener', 'sneaky']);
    await row(admin.name).waitFor();
    await form().getByLabel('用户名').fill('listener');
    await form().getByLabel('密码').fill('listener-pass');
    await form().getByText('游客 (guest)').click();
    await form().getByRole('button', { name: '添加用户' }).click();
    await page.getByText('用户 listener 创建成功.').waitFor();
    await row('listener').waitFor();
    expect(await row('listener').getByLabel('角色 listener').inputValue()).toBe('游客');
    expect((await users()).find((u) => u.name === 'listener')?.role).toBe('guest');
    // form cleared
    expect(await form().getByLabel('用户名').inputValue()).toBe('');

    // the page knows the name already
    const posts = await requestsDuring('POST', '/api/credentials/user', async () => {
      await form().getByLabel('用户名').fill('listener');
      await form().getByLabel('密码').fill('another-pass');
      await form().getByRole('button', { name: '添加用户' }).click();
      await form().getByText('该名称已存在，用户名不能重复').waitFor();
    });
    expect(posts).toBe(0);

    // a name the page has not seen yet (created meanwhile): the server says it, as a warning
    expect((await api('POST', '/api/credentials/user', adminToken, { name: 'sneaky', password: 'sneaky-pass', group: 'user' })).status).toBe(200);
    await form().getByLabel('用户名').fill('sneaky');
    await form().getByLabel('密码').fill('sneaky-pass');
    await form().getByRole('button', { name: '添加用户' }).click();
    await page.getByRole('alert').filter({ hasText: '该名称已存在，用户名不能重复' }).first().waitFor();
    await form().getByText('该名称已存在，用户名不能重复').waitFor();
    expect(errors).toEqual([]);
  });

  it("changes a user's password: both at least 5 characters, and equal", async () => {
    await page.goto('/admin/usermanage'); // a retry: without the dialog its failed attempt may have left open
    await row('listener').getByRole('button', { name: '修改密码 listener' }).click();
    const dialog = page.getByRole('dialog', { name: '修改 listener 的密码' });
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
    expect(await apiLogin(server.url, 'listener', 'new-pass-1')).toMatch(/\./);
    // still logged in as the admin
    expect(page.url()).toMatch(/\/admin\/usermanage$/);
  });

  it('changes a role and deletes a user after asking', async () => {
    // as the test above leaves them: listener a guest, sneaky a user
    await resetUsers([], [
      { name: 'listener', password: 'new-pass-1', group: 'guest' },
      { name: 'sneaky', password: 'sneaky-pass', group: 'user' },
    ]);
    await row('listener').getByLabel('角色 listener').click();
    await page.getByRole('option', { name: '普通用户' }).click();
    await page.getByText('listener 的角色已改为 普通用户').waitFor();
    await expect.poll(async () => (await users()).find((u) => u.name === 'listener')?.role).toBe('user');

    await row('sneaky').getByRole('button', { name: '删除 sneaky' }).click();
    await page.getByText('确定要删除用户 sneaky 吗？', { exact: false }).waitFor();
    await page.getByRole('dialog').getByRole('button', { name: '删除' }).click();
    await row('sneaky').waitFor({ state: 'detached' });
    expect((await users()).map((u) => u.name)).not.toContain('sneaky');
    // the admin cannot delete the account it is logged in with
    expect(await row(admin.name).getByRole('button', { name: `删除 ${admin.name}` }).isDisabled()).toBe(true);
    expect(errors).toEqual([]);
  });

  it('fits 375 and 1280 px, light and dark (screenshots)', async () => {
    await shots('admin-users', page.getByTestId('user-table'));
  });
});

describe('advanced settings', () => {
  const field = (key: string) => page.locator(`[data-key="${key}"]`);
  type Config = Record<string, unknown>;
  const savedConfig = async () => ((await api('GET', '/api/config/admin', adminToken)).body as { config: Config }).config;
  /** The keys the save test changes, as the server had them before (a retry finds them saved). */
  let before: Config;
  beforeAll(async () => {
    const config = await savedConfig();
    before = { rewindSeekTime: config.rewindSeekTime, tagLanguage: config.tagLanguage, listenPort: config.listenPort };
  });

  it('shows every group, production read-only and auth editable', async () => {
    await page.getByTestId('admin-nav').getByRole('link', { name: '高级设置' }).click();
    await page.waitForURL('**/admin/advanced');
    for (const group of ['paths', 'playback', 'language', 'scraping', 'proxy', 'scanning', 'server', 'media', 'ai', 'updates']) {
      await page.getByTestId(`config-group-${group}`).waitFor();
    }
    // the fields get the saved values as the config arrives, maybe a render after the groups: wait for them
    await expect.poll(() => field('pageSize').inputValue()).toBe('12');
    expect(await field('production').isDisabled()).toBe(true);
    expect(await field('auth').isDisabled()).toBe(false);
    await expect.poll(() => field('auth').isChecked()).toBe(true);
    await expect.poll(() => field('coverFolderDir').isDisabled()).toBe(true); // while the default cover folder is used
    await page.getByText('没有修改').waitFor();
  });

  it('checks limits on the page, and shows the server naming the key it refuses', async () => {
    const puts = await requestsDuring('PUT', '/api/config/admin', async () => {
      await field('pageSize').fill('200');
      await page.getByText('1 项修改未保存').waitFor();
      await page.getByRole('button', { name: '保存设置' }).click();
      await page.getByTestId('config-group-server').getByText('必须在 1 到 100 之间').waitFor();
      await field('pageSize').fill('12.5');
      await page.getByRole('button', { name: '保存设置' }).click();
      await page.getByTestId('config-group-server').getByText('必须是整数').waitFor();
    });
    expect(puts).toBe(0);
    await page.getByRole('button', { name: '撤销修改' }).click();
    expect(await field('pageSize').inputValue()).toBe('12');

    // passes the page's check, not the server's
    await field('dlsiteBaseUrl').fill('http://[bad');
    const answer = page.waitForResponse((res) => res.request().method() === 'PUT' && res.url().endsWith('/api/config/admin'));
    await page.getByRole('button', { name: '保存设置' }).click();
    expect((await answer).status()).toBe(400);
    await page.getByTestId('config-error').getByText(/dlsiteBaseUrl/).waitFor();
    await page.getByTestId('config-group-scraping').locator('.mantine-InputWrapper-error').first().waitFor();
    expect(((await api('GET', '/api/config/admin', adminToken)).body as { config: { dlsiteBaseUrl: string } }).config.dlsiteBaseUrl).toBe('https://www.dlsite.com');
    await page.getByRole('button', { name: '撤销修改' }).click();
  });

  it('saves changed keys only, and says which need a restart', async () => {
    const now = await savedConfig();
    const changed = Object.fromEntries(Object.entries(before).filter(([k, v]) => now[k] !== v));
    if (Object.keys(changed).length) expect((await api('PUT', '/api/config/admin', adminToken, { config: changed })).status).toBe(200);
    await page.goto('/admin/advanced');
    await expect.poll(() => field('rewindSeekTime').inputValue()).toBe(String(before.rewindSeekTime));
    await field('rewindSeekTime').fill('10');
    await field('listenPort').fill('18888');
    await field('tagLanguage').click();
    await page.getByRole('option', { name: '日本語 (ja-jp)' }).click();
    await page.getByText('3 项修改未保存').waitFor();
    const request = page.waitForRequest((req) => req.method() === 'PUT' && req.url().endsWith('/api/config/admin'));
    await page.getByRole('button', { name: '保存设置' }).click();
    expect((await request).postDataJSON()).toEqual({ config: { rewindSeekTime: 10, tagLanguage: 'ja-jp', listenPort: 18888 } });
    await page.getByText('以下设置需要重启服务器后生效：监听端口').waitFor();
    await page.getByText('没有修改').waitFor();
    const shared = await api('GET', '/api/config/shared', adminToken);
    expect(shared.body).toEqual({ sharedConfig: { rewindSeekTime: 10, forwardSeekTime: 30 } });
    // the form shows what was saved after a reload
    await page.reload();
    await expect.poll(() => field('rewindSeekTime').inputValue()).toBe('10');
    // (a select shows the label of a new value one render later)
    await expect.poll(() => field('tagLanguage').inputValue()).toBe('日本語 (ja-jp)');
    expect(errors).toEqual([]);
  });

  it('fits 375 and 1280 px, light and dark (screenshots)', async () => {
    await shots('admin-advanced', page.getByTestId('config-group-paths'));
  });
});

describe("the admin's own password", () => {
  const NEW_PASSWORD = 'a-brand-new-password';
  /** A token for `name` with `password`, or null when the server refuses it. */
  const tokenFor = async (name: string, password: string) => {
    const res = await fetch(`${server.url}/api/auth/me`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name, password }) });
    return res.status === 200 ? ((await res.json()) as { token: string }).token : null;
  };

  /**
   * A retry finds the password its failed attempt changed (and the page's token void): change it back,
   * and have every page load start logged in with a new token (init scripts run in the order added).
   */
  async function restoreAdminPassword(): Promise<void> {
    if (await tokenFor(admin.name, admin.password)) return;
    const changed = await apiLogin(server.url, admin.name, NEW_PASSWORD);
    expect((await api('PUT', '/api/credentials/user', changed, { name: admin.name, newPassword: admin.password, currentPassword: NEW_PASSWORD })).status).toBe(200);
    adminToken = await apiLogin(server.url, admin.name, admin.password);
    await context.addInitScript(([key, value]) => (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage.setItem(key, value), [TOKEN_KEY, adminToken] as const);
  }

  it('changing it clears the stored token and goes to /login (auth is on)', async () => {
    await restoreAdminPassword();
    await page.goto('/admin/usermanage');
    await page.locator(`[data-testid="user-row"][data-name="${admin.name}"]`).getByRole('button', { name: `修改密码 ${admin.name}` }).click();
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
    expect(await apiLogin(server.url, admin.name, NEW_PASSWORD)).toMatch(/\./);
    expect(errors).toEqual([]);
  });
});

describe('advanced settings in production', () => {
  it('lock `auth`', async () => {
    const prod = await startCliServer({ env: { KIKOPLAY_PRODUCTION: 'true' } });
    try {
      const token = await apiLogin(prod.url, prod.admin!.name, prod.admin!.password);
      const other = await openLoggedInPage(browser, token, { baseURL: prod.url, viewport: VIEWPORTS.desktop });
      try {
        await other.page.goto('/admin/advanced');
        const auth = other.page.locator('[data-key="auth"]');
        await auth.waitFor({ state: 'attached' });
        expect(await auth.isDisabled()).toBe(true);
        // the switches get the saved values as the config arrives, maybe a render after they appear
        await expect.poll(() => auth.isChecked()).toBe(true);
        await other.page.getByText('生产模式下登录验证总是开启，不能修改。').waitFor();
        await expect.poll(() => other.page.locator('[data-key="production"]').isChecked()).toBe(true);
      } finally {
        await other.context.close();
      }
    } finally {
      await prod.stop();
    }
  });
});
