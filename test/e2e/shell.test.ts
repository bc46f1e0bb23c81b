/**
 * End to end: the web shell around the screens, against the built `kikoplay serve` in headless
 * Chromium — header (back button, keyword box), not-found pages, the admin layout, the dark-mode
 * cycle and the library-lock notice. Screenshots of the main layout at 375 and 1280 px, light and dark.
 */
import { ScanLock } from '../../server/library/scan/scan-lock.js';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { colorSchemeOf, readLocal, screenshot, scrollWidthOf, VIEWPORTS, waitForColorScheme, writeLocal } from '../helpers/browser.js';
import { servedApp } from '../helpers/e2e.js';

const DARK_KEY = 'kikoplay.darkMode';

const app = servedApp();

describe('the main layout, logged in as the admin', () => {
  let page: Page;
  let errors: string[];
  const scheme = () => colorSchemeOf(page);

  beforeEach(async () => {
    ({ page, errors } = await app.open({ as: app.admin }));
  });

  it('shows the not-found page for unknown paths, inside the layout', async () => {
    await page.goto('/');
    await page.waitForURL('**/works'); // `/` is the work list
    await page.getByTestId('works-page').waitFor();
    await page.goto('/no/such/page');
    await page.getByTestId('not-found').waitFor();
    expect(await page.getByTestId('keyword-box').isVisible()).toBe(true);
    expect(await page.getByTestId('nav-drawer').isVisible()).toBe(true);
    await screenshot(page, 'not-found-1280-light');
    expect(errors).toEqual([]);
  });

  it('hides the back button on the work list and shows it elsewhere', async () => {
    await page.goto('/works');
    await page.getByTestId('works-page').waitFor();
    expect(await page.getByRole('button', { name: '返回' }).count()).toBe(0);
    await page.goto('/about');
    await page.getByTestId('about-page').waitFor();
    await page.getByRole('button', { name: '返回' }).click();
    await page.waitForURL('**/works');
  });

  it('turns what is typed in the keyword box into /works?keyword=…', async () => {
    await page.goto('/about');
    await page.getByTestId('about-page').waitFor();
    await page.getByTestId('keyword-box').fill('耳かき 癒し');
    await page.waitForURL((url) => url.pathname === '/works' && url.searchParams.get('keyword') === '耳かき 癒し');
    // the box follows the URL (a link or back/forward)
    await page.goto('/works?keyword=abc');
    await page.getByTestId('works-page').waitFor();
    expect(await page.getByTestId('keyword-box').inputValue()).toBe('abc');
    // the advanced search button goes to /search, where the keyword box is hidden
    await page.getByRole('link', { name: '高级搜索' }).click();
    await page.waitForURL('**/search');
    await page.getByTestId('keyword-box').waitFor({ state: 'detached' });
  });

  it('shows a control’s tooltip on mouse hover only (none mounted before), beside it, and hides it on leave', async () => {
    await page.goto('/works');
    const detail = page.getByTestId('toggle-detail');
    await detail.waitFor();
    const tips = page.getByRole('tooltip');
    expect(await tips.count()).toBe(0);

    // a toolbar toggle: the tooltip above it, centred on it
    await detail.hover();
    await tips.filter({ hasText: '显示详情' }).waitFor();
    const tip = (await tips.filter({ hasText: '显示详情' }).boundingBox())!;
    const button = (await detail.boundingBox())!;
    expect(tip.y + tip.height).toBeLessThanOrEqual(button.y);
    expect(Math.abs(tip.x + tip.width / 2 - (button.x + button.width / 2))).toBeLessThan(2);
    await page.mouse.move(640, 780);
    await tips.filter({ hasText: '显示详情' }).waitFor({ state: 'hidden' });

    // the display settings button sits in a Menu.Target: its tooltip and its menu both still work
    const settings = page.getByTestId('display-settings');
    await settings.hover();
    await tips.filter({ hasText: '显示设置' }).waitFor();
    await settings.click();
    await page.getByTestId('mode-waterfall').waitFor();
    expect(await settings.getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('Escape');
    await page.getByTestId('mode-waterfall').waitFor({ state: 'hidden' });

    // the mini drawer's entries: the label to the right of the icon
    const entry = page.getByTestId('nav-drawer').getByRole('link', { name: '关于', exact: true });
    await entry.hover();
    await tips.filter({ hasText: '关于' }).waitFor();
    const navTip = (await tips.filter({ hasText: '关于' }).boundingBox())!;
    const icon = (await entry.boundingBox())!;
    expect(navTip.x).toBeGreaterThanOrEqual(icon.x + icon.width);
    // a click goes where the entry points
    await entry.click();
    await page.getByTestId('about-page').waitFor();
    expect(errors).toEqual([]);
  });

  it('opens the admin layout with its own links and a way back home', async () => {
    await page.goto('/admin');
    const nav = page.getByTestId('admin-nav');
    await nav.waitFor();
    await page.getByTestId('add-folder').waitFor(); // /admin is the library folders screen
    await screenshot(page, 'admin-1280-light');
    await page.getByRole('link', { name: '回到主页' }).first().click();
    await page.waitForURL('**/works');
  });

  it('cycles dark mode auto → on → off → auto, remembers it, and reads legacy values', async () => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto('/about');
    const cycle = page.getByTestId('dark-mode-cycle');
    await cycle.waitFor();
    const stored = () => readLocal(page, DARK_KEY);
    expect(await scheme()).toBe('light'); // auto follows the (light) system
    await cycle.click();
    expect(await stored()).toBe('"dark"');
    expect(await scheme()).toBe('dark');
    await cycle.click();
    expect(await stored()).toBe('"light"');
    expect(await scheme()).toBe('light');
    await cycle.click();
    expect(await stored()).toBe('"auto"');
    await page.emulateMedia({ colorScheme: 'dark' });
    await waitForColorScheme(page, 'dark'); // auto follows the system as it changes

    // the old client's `true` reads as on; a value outside the set reads as auto
    await writeLocal(page, DARK_KEY, 'true');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.reload();
    await cycle.waitFor();
    expect(await scheme()).toBe('dark');
    await writeLocal(page, DARK_KEY, '"purple"');
    await page.reload();
    await cycle.waitFor();
    expect(await scheme()).toBe('light');
    expect(errors).toEqual([]);
  });

  it('fits 375 and 1280 px, light and dark (screenshots of the page and the open drawer)', async () => {
    await page.goto('/about');
    await page.getByTestId('about-page').waitFor();
    for (const viewport of Object.values(VIEWPORTS)) {
      await page.setViewportSize(viewport);
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        await waitForColorScheme(page, colorScheme);
        expect(await scrollWidthOf(page)).toBeLessThanOrEqual(viewport.width);
        const tag = `${viewport.width}-${colorScheme}`;
        await screenshot(page, `about-${tag}`);
        await page.getByTestId('menu-toggle').click();
        const logout = page.getByTestId('nav-drawer').getByText('登出', { exact: true });
        await logout.waitFor();
        await screenshot(page, `drawer-${tag}`, logout);
        if (viewport === VIEWPORTS.phone)
          await page.keyboard.press('Escape'); // the overlay covers the header
        else await page.getByTestId('menu-toggle').click();
        await page.getByTestId('nav-drawer').getByText('登出', { exact: true }).waitFor({ state: 'hidden' });
      }
    }
    expect(errors).toEqual([]);
  });

  it('shows the library-lock notice from /api/version, linking to the scanner', async () => {
    // a scan of another process holds the library lock (the OS-level lock, as `kikoplay scan` takes it),
    // on a server of this test's own (the notice shows on every page of a locked server)
    const own = await app.ownServer();
    ({ page } = await app.open({ as: own.admin, on: own }));
    const lock = new ScanLock(path.join(own.dataDir, 'scan.lock'));
    await lock.acquire('scan');
    try {
      await page.goto('/about');
      const notice = page.getByText('媒体库正在扫描中', { exact: false });
      await notice.waitFor();
      await page.getByRole('button', { name: '前往扫描页' }).click();
      await page.waitForURL('**/admin/scanner');
      await notice.waitFor({ state: 'hidden' });
    } finally {
      await lock.release();
    }
  });
});
