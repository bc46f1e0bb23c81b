/**
 * End to end: the work list against the built `kikoplay serve` with a scanned fixture library, in
 * headless Chromium — keyword search, advanced search (candidates, terms, codes, their messages),
 * filters, sort, the display toggles and card styles. (Pages, the waterfall, the label lists, random
 * play and the screenshots of these screens: library-pages.test.ts.)
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot, VIEWPORTS } from '../helpers/browser.js';
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

  beforeEach(async () => {
    ({ page, errors } = await app.open({ as: app.admin, timeout: 20_000 }));
  });

  it('lists every work with the title and the total, and searches by keyword and by product code', async () => {
    const all = await total('/api/works');
    await page.goto('/');
    await page.waitForURL('**/works');
    await cards().first().waitFor();
    expect(await page.getByTestId('works-title').textContent()).toBe('所有作品');
    expect(await page.getByTestId('works-total').textContent()).toBe(`共 ${all} 部作品`);
    // the first page, and more while the end of the list is within 250 px of the viewport
    expect(Number(await list().getAttribute('data-loaded'))).toBeGreaterThanOrEqual(Math.min(all, 12));

    await page.getByTestId('keyword-box').fill('耳かきと添い寝');
    await page.waitForURL((url) => url.searchParams.get('keyword') === '耳かきと添い寝');
    await poll(() => page.getByTestId('works-title').textContent()).toBe('搜索：耳かきと添い寝');
    await poll(() => cards().count()).toBe(2);
    expect(await cards().getByTestId('work-title').allTextContents()).toEqual(expect.arrayContaining(['耳かきと添い寝 其の一', '耳かきと添い寝 其の二']));

    await page.getByTestId('keyword-box').fill('rj100050');
    await page.waitForURL((url) => url.searchParams.get('keyword') === 'rj100050');
    await poll(() => cards().count()).toBe(1);
    expect(await cards().first().getByTestId('code-chip').textContent()).toBe('RJ100050');

    await page.getByTestId('keyword-box').fill('そんな作品はない');
    await page.getByTestId('works-empty').waitFor();
    expect(errors).toEqual([]);
  });

  it('searches by advanced conditions: candidates while focused, badges, removable terms, codes and the spec messages', async () => {
    await page.goto('/search');
    await page.getByTestId('advanced-search').waitFor();
    await page.getByTestId('keyword-box').waitFor({ state: 'detached' });
    expect(await page.getByTestId('works-title').textContent()).toBe('高级搜索');
    const input = page.getByTestId('search-input');
    const terms = page.getByTestId('search-term');

    await input.click();
    await page.keyboard.press('Enter');
    await notice('无法添加空白的关键字').waitFor();

    const advanced = (conditions: unknown[]) => total(`/api/search?isAdvance=1&keyword=${encodeURIComponent(JSON.stringify(conditions))}`);
    await input.fill('添い寝');
    await page.keyboard.press('Enter');
    await poll(() => terms.allTextContents()).toEqual(['添い寝']);
    await input.fill('添い寝');
    await page.getByTestId('search-add').click();
    await notice('关键字重复，添加失败').waitFor();
    const fuzzy = await advanced([{ t: 1, d: '添い寝' }]);
    expect(fuzzy).toBe(3); // the two edited titles and 【ASMR】耳かき・添い寝
    await poll(() => cards().count()).toBe(fuzzy);

    // voice actors must be picked from the candidates
    await pickOption('search-type', '声优');
    await input.fill('佐藤');
    await page.keyboard.press('Enter');
    await notice('正在搜索声优、标签、社团，请勿回车或者点击加号，请直接点击下方列出来的可选项').waitFor();
    const candidate = page.getByTestId('search-candidate').filter({ hasText: '佐藤さくら' });
    await candidate.click();
    await poll(() => terms.allTextContents()).toEqual(['添い寝', '声优：佐藤さくら']);
    await poll(() => cards().count()).toBe(1);
    expect(await cards().first().getByTestId('work-title').textContent()).toBe('耳かきと添い寝 其の二');
    await input.fill('佐藤');
    await page.getByTestId('search-candidate').filter({ hasText: '佐藤さくら' }).click();
    await notice('搜索条件重复，添加失败').waitFor();

    // the candidates go 500 ms after the input loses focus
    await page.getByTestId('works-title').click();
    await page.getByTestId('search-candidates').waitFor({ state: 'detached' });

    await screenshot(page, 'library-search-1280-light');

    // removing a term widens the search: both works of the voice actor
    await page.getByRole('button', { name: '删除条件 添い寝' }).click();
    await poll(() => cards().count()).toBe(2);

    // a product code
    await pickOption('search-type', '自动/模糊');
    await input.fill('rj100003');
    await page.keyboard.press('Enter');
    await poll(() => terms.last().textContent()).toBe('作品编号：RJ100003');
    await poll(() => cards().count()).toBe(1);
    expect(await cards().first().getByTestId('code-chip').textContent()).toBe('RJ100003');

    // the terms are remembered
    await page.reload();
    await poll(() => terms.count()).toBe(2);
    await page.getByRole('button', { name: '清空条件' }).click();
    await poll(() => terms.count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('filters by lyrics and age, sorts, and starts over on the first page after each change', async () => {
    await page.goto('/works');
    await cards().first().waitFor();
    const shown = async () => Number(await page.getByTestId('works-list').getAttribute('data-total'));

    await page.getByTestId('lyric-filter').click();
    await page.getByTestId('lyric-option-local').click();
    await page.keyboard.press('Escape');
    const local = await total('/api/works?lyric=local');
    await poll(shown).toBe(local);
    await poll(() => page.getByTestId('lyric-filter').textContent()).toBe('本地歌词');

    // "no lyric" together with others leaves only "no lyric"
    await page.getByTestId('lyric-filter').click();
    await page.getByTestId('lyric-option-no').click();
    await page.keyboard.press('Escape');
    await poll(() => page.getByTestId('lyric-filter').textContent()).toBe('无歌词');
    await poll(shown).toBe(await total('/api/works?lyric=no'));
    await page.getByTestId('lyric-filter').click();
    await page.getByTestId('lyric-option-no').click();
    await page.keyboard.press('Escape');
    await poll(() => page.getByTestId('lyric-filter').textContent()).toBe('不限歌词');

    // an offline scan knows no adult works: R18 only is empty
    await pickOption('age-rating', '18禁');
    await page.getByTestId('works-empty').waitFor();
    await pickOption('age-rating', '全部');
    await cards().first().waitFor();

    await pickOption('sort-field', '作品编号');
    await page.getByTestId('sort-direction').click();
    await poll(() => cards().first().getByTestId('code-chip').textContent()).toBe('RJ100001');
    await page.getByTestId('sort-direction').click();
    await poll(() => cards().first().getByTestId('code-chip').textContent()).toBe('VJ300001');
    await pickOption('sort-field', '发售日期');
    expect(errors).toEqual([]);
  });

  it('switches between grid and list, labels, detail, zoom and the old card style', async () => {
    await page.goto('/works?tagId=' + (await app.api<{ id: number; name: string }[]>('GET', '/api/tags')).find((t) => t.name === '耳かき')!.id);
    await poll(() => page.getByTestId('works-title').textContent()).toBe('标签：耳かき');
    await poll(() => cards().count()).toBe(2);
    // each card's cover is the smallest size that fills its width (one device pixel per CSS pixel here)
    const coverTypes: string[] = [];
    const checkCoverSize = async () => {
      const cover = cards().first().getByTestId('cover').locator('img');
      const width = (await cover.boundingBox())!.width;
      const expected = width <= 200 ? '200x150' : width <= 280 ? '280x210' : 'main';
      await poll(async () => new URL(await cover.evaluate((img) => (img as unknown as { currentSrc: string }).currentSrc || 'http://x/')).searchParams.get('type')).toBe(expected);
      coverTypes.push(expected);
    };
    // compact cards: no tags; detail: tags, price and voice actors
    expect(await cards().first().getByTestId('tag-links').count()).toBe(0);
    await checkCoverSize();
    await page.getByTestId('toggle-detail').click();
    await cards().first().getByTestId('tag-links').waitFor();
    await cards().first().getByTestId('va-links').waitFor();
    await checkCoverSize();
    const columns = () => list().getAttribute('data-columns');
    const before = Number(await columns());
    await page.getByTestId('toggle-zoom').click();
    await poll(async () => Number(await columns())).toBe(3);
    expect(before).toBeGreaterThan(3);
    await checkCoverSize();
    // at 1280 px: six compact cards of 185 px, four detail cards of 285 px, three zoomed of 385 px
    expect(coverTypes).toEqual(['200x150', 'main', 'main']);
    await screenshot(page, 'library-works-detail-1280-light');

    await page.getByTestId('display-settings').click();
    await page.getByTestId('old-card').click();
    await page.keyboard.press('Escape');
    await page.getByTestId('old-card').waitFor({ state: 'hidden' });
    await poll(() => cards().first().getAttribute('data-style')).toBe('old');
    await screenshot(page, 'library-works-oldcard-1280-light');
    await page.getByTestId('display-settings').click();
    await page.getByTestId('old-card').click();
    await page.keyboard.press('Escape');

    // list mode: rows; labels (window wider than 700 px)
    await page.getByTestId('grid-list').locator('label').nth(1).click();
    await page.getByTestId('work-row').first().waitFor();
    expect(await page.getByTestId('toggle-zoom').count()).toBe(0);
    expect(await page.getByTestId('work-row').first().getByTestId('tag-links').count()).toBe(0);
    await page.getByTestId('toggle-label').click();
    await page.getByTestId('work-row').first().getByTestId('tag-links').waitFor();
    await screenshot(page, 'library-works-list-1280-light');
    await page.setViewportSize({ width: 640, height: 800 });
    await poll(() => page.getByTestId('toggle-label').isDisabled()).toBe(true);
    await poll(() => page.getByTestId('work-row').first().getByTestId('tag-links').count()).toBe(0);
    await page.setViewportSize(VIEWPORTS.desktop);

    // links on a card: the circle and a voice actor
    await page.getByTestId('grid-list').locator('label').first().click();
    await cards().first().getByTestId('circle-link').click();
    await poll(() => page.getByTestId('works-title').textContent()).toBe('社团：テストサークル');
    await poll(() => cards().count()).toBe(3);
    await cards().first().getByTestId('va-links').getByText('佐藤さくら').click();
    await poll(() => page.getByTestId('works-title').textContent()).toBe('声优：佐藤さくら');
    await poll(() => cards().count()).toBe(2);
    await page.getByTestId('toggle-detail').click();
    await page.getByTestId('toggle-zoom').click();
    expect(errors).toEqual([]);
  });

  it('says why the list could not be loaded and loads it again from 刷新页面', async () => {
    // a keyword list comes from /api/search
    const failing = (url: URL) => url.pathname === '/api/search';
    await page.route(failing, (route) => route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: '服务器暂时不可用' }) }));
    const failed = list().getByRole('alert');
    try {
      await page.goto('/works?keyword=' + encodeURIComponent('雨音'));
      await failed.waitFor();
      expect(await failed.textContent()).toContain('服务器暂时不可用');
      expect(await cards().count()).toBe(0);
    } finally {
      await page.unroute(failing);
    }
    await failed.getByRole('button', { name: '刷新页面' }).click();
    await poll(() => cards().count()).toBe(1);
    expect(await cards().first().getByTestId('work-title').textContent()).toBe('雨音の夜');
    await failed.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
  });
});
