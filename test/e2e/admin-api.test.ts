/**
 * End to end: the API reference of the admin dashboard (/admin/api) against the built `kikoplay serve`,
 * in headless Chromium. An admin reaches it from the admin navigation and sees the routes grouped by
 * area with method, path, access and their parameters and body fields (from GET /api/openapi.json);
 * the filter narrows the list. A non-admin is kept out. Own server, own users.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator } from 'playwright-core';
import { apiLogin, launchChromium, openLoggedInPage, screenshot, VIEWPORTS } from '../helpers/browser.js';
import { startCliServer, type CliServer } from '../helpers/cli-server.js';

/** The row of field `name` in an endpoint's table (its first cell is the name). */
const fieldRow = (endpoint: Locator, name: string) =>
  endpoint
    .getByTestId('api-fields')
    .getByRole('row')
    .filter({ has: endpoint.page().getByRole('cell', { name, exact: true }) });

let server: CliServer;
let browser: Browser;
let adminToken: string;
let readerToken: string;

beforeAll(async () => {
  [server, browser] = await Promise.all([startCliServer(), launchChromium()]);
  if (!server.admin) throw new Error(`no initial admin password was written:\n${server.output()}`);
  adminToken = await apiLogin(server.url, server.admin.name, server.admin.password);
  const created = await fetch(`${server.url}/api/credentials/user`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'reader', password: 'reader-pass', group: 'user' }),
  });
  expect(created.status).toBe(200);
  readerToken = await apiLogin(server.url, 'reader', 'reader-pass');
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('the API reference page', () => {
  it('shows an admin every area with method, path, access and fields, reached from the admin navigation', async () => {
    const { context, page, errors } = await openLoggedInPage(browser, adminToken, { baseURL: server.url, viewport: VIEWPORTS.desktop });
    context.setDefaultTimeout(15_000);
    try {
      await page.goto('/admin');
      await page.getByTestId('admin-nav').getByRole('link', { name: 'API 文档' }).click();
      await page.waitForURL('**/admin/api');
      await page.getByRole('heading', { name: 'API 文档' }).waitFor();

      const works = page.locator('[data-testid="api-endpoint"][data-method="GET"][data-path="/api/works"]');
      await works.waitFor();
      await expect.poll(() => works.getByTestId('api-access').textContent()).toBe('需登录');
      expect(await works.textContent()).toContain('作品列表');
      const order = fieldRow(works, 'order');
      expect(await order.textContent()).toContain('betterRandom');
      expect(await order.textContent()).toContain('可选');

      const edit = page.locator('[data-testid="api-endpoint"][data-method="POST"][data-path="/api/edit/work/{id}"]');
      expect(await edit.getByTestId('api-access').textContent()).toBe('仅管理员');
      const title = fieldRow(edit, 'title');
      expect(await title.textContent()).toContain('长度 1–1000');
      expect(await fieldRow(edit, 'tags[].name').count()).toBe(1);

      expect(await page.locator('[data-testid="api-endpoint"][data-path="/api/health"]').getByTestId('api-access').textContent()).toBe('公开');
      expect(await page.locator('[data-testid="api-endpoint"][data-path="/api/lyric/translate/acquire"]').getByTestId('api-access').textContent()).toBe('工作节点');
      // grouped by area, in Chinese
      expect(await page.locator('[data-testid="api-area"][data-area="works"]').getByRole('heading').textContent()).toBe('作品列表与搜索');
      expect(await page.getByTestId('api-area').count()).toBeGreaterThan(10);
      expect(await page.getByTestId('api-endpoint').count()).toBeGreaterThan(50);
      await page.mouse.move(700, 20); // off the navigation, so its hover tip is not in the picture
      await screenshot(page, 'admin-api', works);

      await page.getByTestId('api-filter').fill('/api/health');
      await expect.poll(() => page.getByTestId('api-endpoint').count()).toBe(1);
      expect(await page.getByTestId('api-count').textContent()).toBe('1 个接口');
      await page.getByTestId('api-filter').fill('/api/nothing-like-this');
      await expect.poll(() => page.getByTestId('api-count').textContent()).toBe('没有匹配的接口。');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('keeps a non-admin out of /admin/api', async () => {
    const { context, page, errors } = await openLoggedInPage(browser, readerToken, { baseURL: server.url, viewport: VIEWPORTS.desktop });
    context.setDefaultTimeout(15_000);
    try {
      await page.goto('/admin/api');
      await page.waitForURL((url) => !url.pathname.startsWith('/admin'));
      expect(await page.getByTestId('api-endpoint').count()).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
