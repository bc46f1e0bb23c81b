/**
 * A scan with the metadata sites down, seen in the browser: the scanner page counts the metadata failures
 * and does not finish green, the work cards and the work page say the metadata is missing and why, and
 * nothing invents a price, sales, an age rating or ratings. Screenshots at 375 and 1280 px, light and dark.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { shots } from '../helpers/browser.js';
import { servedApp } from '../helpers/e2e.js';
import { sitesAt } from '../helpers/dead-sites.js';
import { tempDir } from '../helpers/app.js';

const app = servedApp();
let siteEnv: NodeJS.ProcessEnv;
let root: string;

beforeAll(async () => {
  // a closed port: every site refuses the connection
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(probe.address() as net.AddressInfo).port}`;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  siteEnv = sitesAt(base);
  root = tempDir('kikoplay-e2e-down-');
  for (let i = 1; i <= 3; i++) {
    const dir = path.join(root, `RJ50000${i} 作品 ${i}`);
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'readme.txt'), `work ${i}`);
  }
});

describe('metadata sites down', { timeout: 180_000 }, () => {
  it('the scan ends fast with the failures counted and explained; cards show no invented facts', async () => {
    const own = await app.ownServer({ env: siteEnv });
    await own.api('POST', '/api/config/folders', { name: 'voice', path: root });
    const { page, errors } = await app.open({ as: own.admin, on: own });
    await page.goto('/admin/scanner');
    await page.locator('[data-testid="scanner-status"][data-status="idle"]').waitFor({ timeout: 30_000 });
    const start = page.getByTestId('PERFORM_SCAN');
    await expect.poll(() => start.isEnabled()).toBe(true);
    const began = Date.now();
    await start.click();
    await page.locator('[data-testid="scanner-status"][data-status="finished"]').waitFor({ timeout: 60_000 });
    expect(Date.now() - began, 'the scan took too long').toBeLessThan(30_000);
    // not green: the badge says there were failures, the metadata count is shown
    await expect.poll(() => page.getByTestId('scanner-status').textContent()).toBe('扫描完成（有失败）');
    await expect.poll(() => page.getByTestId('metadata-failed-count').textContent()).toBe('元数据失败 3');
    await page
      .getByTestId('main-logs')
      .getByText(/^DLsite 无法连接 \(ECONNREFUSED 127\.0\.0\.1:\d+\)，本次扫描不再请求$/)
      .waitFor();
    expect(
      await page
        .getByTestId('main-logs')
        .getByText(/无法连接/)
        .count(),
    ).toBe(1);
    await page.getByRole('tab', { name: /失败/ }).click();
    await page
      .getByTestId('failed-tasks')
      .getByText(/元数据获取失败: DLsite 无法连接/)
      .first()
      .waitFor();
    await shots(page, 'scan-metadata-failed', page.getByTestId('metadata-failed-count'));

    // the cards: the state instead of "0 日元 · 售出 0 · 全年龄"
    await page.goto('/works');
    const card = page.getByTestId('work-card').first();
    await card.waitFor();
    await expect.poll(() => page.getByTestId('work-card').count()).toBe(3);
    const state = card.getByTestId('metadata-state');
    expect(await state.textContent()).toBe('元数据获取失败');
    expect(await state.getAttribute('title')).toMatch(/^DLsite 无法连接 \(ECONNREFUSED/);
    const cards = (await page.getByTestId('work-card').allTextContents()).join(' ');
    expect(cards).not.toMatch(/日元|售出|全年龄/);
    await shots(page, 'works-metadata-failed', card);

    // the work page says why
    await card.getByTestId('work-title').click();
    await page.getByTestId('work-header').waitFor();
    await page
      .getByTestId('metadata-error')
      .getByText(/^元数据获取失败: DLsite 无法连接 \(ECONNREFUSED 127\.0\.0\.1:\d+\)$/)
      .waitFor();
    expect((await page.getByTestId('work-header').textContent()) ?? '').not.toMatch(/日元|售出|全年龄/);
    expect(await page.getByTestId('all-ages').count()).toBe(0);
    await shots(page, 'work-metadata-failed', page.getByTestId('metadata-error'));
    expect(errors).toEqual([]);
  });
});
