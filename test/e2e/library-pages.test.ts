/**
 * End to end: numbered pages with the `page` rules and the waterfall, the circle/tag/voice-actor lists,
 * random play from the drawer, and screenshots of the work list, advanced search and label screens at
 * 375 and 1280 px, light and dark — against the built `kikoplay serve` with a scanned fixture library.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot, scrollWidthOf, VIEWPORTS, waitForColorScheme } from '../helpers/browser.js';
import { totalOf, workListApp, workListParts } from '../helpers/work-list.js';

/** expect.poll with room for a loaded machine (debounces of 100–500 ms plus a request). */
const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 20_000, interval: 100 });

const total = (p: string) => totalOf(app.api, p);

// each test opens its own page
const app = workListApp();

describe('the work list', { timeout: 90_000 }, () => {
  let page: Page;
  let errors: string[];

  const { cards, list, notice, pickOption } = workListParts(() => page);
  const settle = () => page.locator('[data-testid="works-list"] .mantine-Loader-root').waitFor({ state: 'detached' });

  beforeEach(async () => {
    ({ page, errors } = await app.open({ as: app.admin, timeout: 20_000 }));
  });

  it('pages with numbers (page query forced, jump clamped, invalid pages warned) and scrolls the waterfall', async () => {
    const all = await total('/api/works');
    const pages = Math.ceil(all / 12);
    await page.goto('/works');
    await cards().first().waitFor();
    await page.getByTestId('display-settings').click();
    await page.getByTestId('mode-pagination').click();
    await page.keyboard.press('Escape');
    await page.waitForURL((url) => url.searchParams.get('page') === '1');
    await page.getByTestId('works-pager').waitFor();
    await page.getByTestId('works-pager').getByRole('button', { name: '2', exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('page') === '2');
    await poll(() => cards().count()).toBe(12);
    await page.getByTestId('page-jump').fill('999');
    await page.getByTestId('page-jump').press('Enter');
    await page.waitForURL((url) => url.searchParams.get('page') === String(pages));
    await poll(() => cards().count()).toBe(all - (pages - 1) * 12);
    await screenshot(page, 'library-works-pages-1280-light');
    await page.getByTestId('page-jump').fill('0');
    await page.getByTestId('page-jump').press('Enter');
    await page.waitForURL((url) => url.searchParams.get('page') === '1');

    // a change of sort starts over on page 1
    await page.goto('/works?page=2');
    await cards().first().waitFor();
    await pickOption('sort-field', '入库时间');
    await page.waitForURL((url) => url.searchParams.get('page') === '1');
    await pickOption('sort-field', '发售日期');

    await page.goto('/works?page=abc');
    await notice('页码无效：abc').waitFor();
    await page.waitForURL((url) => url.searchParams.get('page') === '1');

    // waterfall: the page parameter goes, more works load near the end, up to all of them
    await page.getByTestId('display-settings').click();
    await page.getByTestId('mode-waterfall').click();
    await page.keyboard.press('Escape');
    await page.waitForURL((url) => !url.searchParams.has('page'));
    // a phone screen, fresh data: the first page fills more than the screen, so nothing more loads yet
    await page.setViewportSize(VIEWPORTS.phone);
    await page.reload();
    await cards().first().waitFor();
    await settle();
    expect(await list().getAttribute('data-loaded')).toBe('12');
    for (let i = 0; i < 10; i++) {
      // one reading for both the check and the wait: a page may arrive between two readings
      const before = Number(await list().getAttribute('data-loaded'));
      if (before >= all) break;
      // wheel again while waiting, as a user would: a wheel that lands while the last page's rows are
      // still being drawn stops at the end they had, and the rows drawn after it push the end away
      await poll(async () => {
        await page.mouse.wheel(0, 4000);
        return Number(await list().getAttribute('data-loaded'));
      }).toBeGreaterThan(before);
    }
    expect(Number(await list().getAttribute('data-loaded'))).toBe(all);
    await page.getByText('已经到底了').waitFor();

    // open a work from down the list; back again, the list is where it was: that work on screen
    const scrollY = () => page.evaluate(() => (globalThis as unknown as { scrollY: number }).scrollY);
    await page.mouse.wheel(0, -800);
    await poll(scrollY).toBeGreaterThan(800);
    await settle();
    // the card nearest the middle of the screen (the list renders a few off-screen cards too)
    type CardElement = { getAttribute(name: string): string | null; getBoundingClientRect(): { top: number; height: number } };
    const boxes = await cards().evaluateAll((els) =>
      (els as unknown as CardElement[]).map((el) => ({ id: el.getAttribute('data-work-id'), mid: el.getBoundingClientRect().top + el.getBoundingClientRect().height / 2 })),
    );
    const middle = VIEWPORTS.phone.height / 2;
    const id = boxes.reduce((a, b) => (Math.abs(b.mid - middle) < Math.abs(a.mid - middle) ? b : a)).id;
    expect(id).not.toBeNull();
    const card = page.locator(`[data-testid="work-card"][data-work-id="${id}"]`);
    await card.getByTestId('work-title').scrollIntoViewIfNeeded();
    const listY = await scrollY();
    expect(listY).toBeGreaterThan(500);
    await card.getByTestId('work-title').click();
    await page.getByTestId('work-page').waitFor();
    await poll(scrollY).toBe(0); // a new page opens at the top (scrolled there once it is on screen)
    await page.goBack();
    const again = page.locator(`[data-testid="work-card"][data-work-id="${id}"]`);
    await again.waitFor();
    await poll(async () => Math.abs((await scrollY()) - listY)).toBeLessThan(200);
    await poll(async () => {
      const box = await again.boundingBox();
      return box !== null && box.y >= 0 && box.y + box.height / 2 <= VIEWPORTS.phone.height;
    }).toBe(true);
    expect(errors).toEqual([]);
  });

  it('lists circles, tags and voice actors with counts, filters them and links to their works', async () => {
    await page.goto('/tags');
    const items = page.getByTestId('label-item');
    await items.first().waitFor();
    const tags = await app.api<{ name: string; count: number }[]>('GET', '/api/tags');
    expect(tags.map((t) => t.count)).toEqual([2, 2, 1]);
    expect(await items.allTextContents()).toEqual(tags.map((t) => `${t.name}${t.count}`));
    await page.getByTestId('labels-filter').fill('バイ');
    await poll(() => items.count()).toBe(1);
    expect(await page.getByTestId('labels-count').textContent()).toBe('1 / 3 项');
    await items.first().click();
    await page.waitForURL(/\/works\?tagId=\d+$/);
    await poll(() => page.getByTestId('works-title').textContent()).toBe('标签：バイノーラル');
    await poll(() => cards().count()).toBe(2);

    await page.goto('/circles');
    await poll(() => items.allTextContents()).toEqual(['テストサークル3', '別のサークル1']);
    await screenshot(page, 'library-circles-1280-light');
    await page.goto('/vas');
    await poll(() => items.count()).toBe(3);
    await page.getByTestId('labels-filter').fill('zzz');
    await page.getByText('没有匹配的项目').waitFor();
    expect(errors).toEqual([]);
  });

  it('says why a label list could not be loaded and loads it again from 刷新页面', async () => {
    const failing = (url: URL) => url.pathname === '/api/circles';
    await page.route(failing, (route) => route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: '服务器暂时不可用' }) }));
    // the screen's own alert (the generic handler's toast says it too)
    const failed = page.getByRole('alert').filter({ hasText: '服务器暂时不可用', has: page.getByRole('button', { name: '刷新页面' }) });
    try {
      await page.goto('/circles');
      await failed.waitFor();
      expect(await page.getByTestId('label-item').count()).toBe(0);
    } finally {
      await page.unroute(failing);
    }
    await failed.getByRole('button', { name: '刷新页面' }).click();
    await poll(() => page.getByTestId('label-item').allTextContents()).toEqual(['テストサークル3', '別のサークル1']);
    expect(errors).toEqual([]);
  });

  it('fits 375 and 1280 px, light and dark (screenshots of the list, search and label screens)', async () => {
    // a fresh browser context: nothing playing, no notices over the header
    for (const viewport of Object.values(VIEWPORTS)) {
      await page.setViewportSize(viewport);
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        const tag = `${viewport.width}-${colorScheme}`;
        await page.goto('/works');
        await waitForColorScheme(page, colorScheme);
        await cards().first().waitFor();
        // the header, the drawer and the toolbar come just after the first cards: the picture and the
        // width check are of the whole screen
        await page.getByTestId('menu-toggle').waitFor();
        await page.getByTestId('works-toolbar').waitFor();
        if (viewport === VIEWPORTS.desktop) await page.getByTestId('nav-drawer').waitFor();
        expect(await scrollWidthOf(page)).toBeLessThanOrEqual(viewport.width);
        await screenshot(page, `library-works-${tag}`);
        await page.goto('/search');
        await page.getByTestId('search-input').fill('耳');
        await page.getByTestId('search-candidate').first().waitFor();
        expect(await scrollWidthOf(page)).toBeLessThanOrEqual(viewport.width);
        await screenshot(page, `library-search-${tag}`);
        await page.goto('/vas');
        await page.getByTestId('label-item').first().waitFor();
        expect(await scrollWidthOf(page)).toBeLessThanOrEqual(viewport.width);
        await screenshot(page, `library-vas-${tag}`);
      }
    }
    expect(errors).toEqual([]);
  });

  it('plays a random work from the drawer: opens it and hands its audio to the player', async () => {
    // playing saves the play history of the account: a user of the test's own
    ({ page, errors } = await app.open({ as: await app.addUser('user'), timeout: 20_000 }));
    await page.goto('/works');
    await cards().first().waitFor();
    // random: some fixture works have no audio (then a warning); try a few times
    let played = false;
    for (let i = 0; i < 8 && !played; i++) {
      await page.getByTestId('random-play').click();
      await page.waitForURL(/\/work\/\d+$/);
      await page.getByTestId('work-page').waitFor();
      played = await page
        .locator('[data-testid="tree-item"][data-playing="true"]')
        .first()
        .waitFor({ timeout: 3000 })
        .then(() => true)
        .catch(() => false);
    }
    expect(played).toBe(true);
    expect(errors).toEqual([]);
  });
});
