/**
 * End to end: the favourites area and the Recent Works strip, against the built `kikoplay serve` with a
 * scanned fixture library, in headless Chromium, as a user — works rated on their cards show up under
 * "my ratings", the sort select (not for history), progress marked from a list item and the progress
 * filter (marked by default), the empty texts, folder organising not implemented, the play history
 * (resume, delete) and the recent strip linking to it. Screenshots at 375 and 1280 px, light and dark.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { notice as toastNotice, screenshot, scrollWidthOf, VIEWPORTS, waitForColorScheme } from '../helpers/browser.js';
import { servedApp, type Account } from '../helpers/e2e.js';
import { makeTestLibrary } from '../helpers/library.js';
import { labelWorks } from '../helpers/work-labels.js';

const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 20_000, interval: 100 });

// one scanned library for the file; ratings, progress and history are per user: each test has its own
const app = servedApp({
  library: makeTestLibrary,
  seed: ({ api }) =>
    labelWorks(api, [
      { id: 100001, title: '耳かきと添い寝', circle: 'テストサークル', tags: ['耳かき'], vas: ['山田花子'] },
      { id: 100002, title: '雨音の夜', circle: 'テストサークル', tags: ['雨音'], vas: ['佐藤さくら'] },
    ]),
});

/** Save a play state for `workId` as `user`: its audio files, stopped at the second one. */
async function saveHistory(user: Account, workId: number, title: string): Promise<string> {
  const tree = await app.api<{ type: string; title: string; hash?: string }[]>('GET', `/api/tracks/${workId}`);
  const audio = tree.filter((n) => n.type === 'audio');
  const queue = audio.map((n) => ({ hash: n.hash, title: n.title, subtitle: null, workTitle: title, workId }));
  await app.api('PUT', '/api/histroy', { work_id: workId, state: { queue, index: 1, seconds: 65 } }, user.token);
  return audio[1].title;
}

describe('favourites, as a user', { timeout: 90_000 }, () => {
  let user: Account;
  let page: Page;
  let errors: string[];

  const notice = (text: string) => toastNotice(page, text);
  const items = () => page.getByTestId('favourite-item');
  const itemIds = () => items().evaluateAll((els) => els.map((el) => Number((el as unknown as { dataset: { workId?: string } }).dataset.workId)));
  const card = (id: number) => page.locator(`[data-testid="work-card"][data-work-id="${id}"]`);
  const starOnCard = (id: number, n: number) =>
    card(id)
      .getByRole('radio', { name: `我的评分 ${n}`, exact: true })
      .click();
  const pickOption = async (testId: string, option: string) => {
    await page.getByTestId(testId).click();
    await page.getByRole('option', { name: option, exact: true }).click();
  };

  beforeEach(async () => {
    user = await app.addUser('user', 'listener');
    ({ page, errors } = await app.open({ as: user, timeout: 20_000 }));
  });

  it('starts empty, with the progress filter on "marked" by default and no folder tab', async () => {
    await page.goto('/favourites');
    await page.getByTestId('favourites-empty').waitFor();
    expect(await page.getByTestId('favourites-empty').textContent()).toContain('打星');
    await page.getByTestId('favourites-sort').waitFor();
    await page.goto('/favourites/progress');
    await page.getByTestId('favourites-progress-filter').waitFor();
    expect(await page.getByTestId('favourites-progress-filter').locator('input:checked').inputValue()).toBe('marked');
    await page.getByTestId('favourites-empty').waitFor();
    expect(await page.getByTestId('favourites-mode').getByText('文件夹整理').count()).toBe(0);
    // the old address of the removed tab leads to the ratings
    await page.goto('/favourites/folder');
    await page.waitForURL((url) => url.pathname === '/favourites');
    await page.getByTestId('favourites-empty').waitFor();
    await page.getByTestId('favourites-mode').getByText('播放历史').click();
    await page.waitForURL('**/favourites/histroy');
    await page.getByText('还没有播放记录，播放一部作品后它会出现在这里。').waitFor();
    expect(await page.getByTestId('favourites-sort').count()).toBe(0);
    await page.goto('/favourites/nothing-here');
    await page.getByTestId('not-found').waitFor();
    expect(errors).toEqual([]);
  });

  it('shows works rated on their cards under "my ratings", sorts them, marks progress and filters by it', async () => {
    const circle = (await app.api<{ id: number; name: string }[]>('GET', '/api/circles')).find((c) => c.name === 'テストサークル')!;
    await page.goto(`/works?circleId=${circle.id}`);
    await card(100001).waitFor();
    await starOnCard(100001, 5);
    await notice('评价成功').waitFor();
    await starOnCard(100002, 3);
    await notice('评价成功').waitFor();
    await poll(async () => (await app.api<{ userRating: number | null }>('GET', '/api/work/100002', undefined, user.token)).userRating).toBe(3);

    await page.getByTestId('nav-drawer').getByRole('link', { name: '我的收藏' }).click();
    await page.waitForURL('**/favourites');
    await poll(itemIds).toEqual([100002, 100001]); // last marked first
    const byRating = page.waitForRequest((req) => req.url().includes('/api/review') && req.url().includes('order=userRating'));
    await pickOption('favourites-sort', '我的评价');
    await byRating;
    await poll(itemIds).toEqual([100001, 100002]);
    const allAgesFirst = page.waitForRequest((req) => /\/api\/review\?.*order=nsfw&sort=asc/.test(req.url()));
    await pickOption('favourites-sort', '全年龄优先');
    await allAgesFirst;
    await pickOption('favourites-sort', '我的评价');

    // progress from the list item, then the progress mode and its filter
    const item = page.locator('[data-testid="favourite-item"][data-work-id="100001"]');
    await item.getByTestId('favourite-progress').click();
    await page.getByRole('option', { name: '在听', exact: true }).click();
    await notice('更新进度成功').waitFor();
    await page.getByTestId('favourites-mode').getByText('我的进度').click();
    await page.waitForURL('**/favourites/progress/marked');
    await page.getByTestId('favourites-empty').waitFor();
    await page.getByTestId('favourites-progress-filter').getByText('在听').click();
    await page.waitForURL('**/favourites/progress/listening');
    await poll(itemIds).toEqual([100001]);

    // the review text shows on the item
    await app.api('PUT', '/api/review?starOnly=false', { work_id: 100001, rating: 5, review_text: '何度も聴きたい。', progress: 'listening' }, user.token);
    await page.reload();
    await poll(() => page.getByTestId('favourite-review-text').textContent()).toBe('何度も聴きたい。');
    await screenshot(page, 'favourites-progress-1280-light');
    expect(errors).toEqual([]);
  });

  it('lists the play history (the recent strip links to it), resumes an entry and deletes one', async () => {
    const last1 = await saveHistory(user, 100001, '耳かきと添い寝');
    await saveHistory(user, 100002, '雨音の夜');
    await page.goto('/works');
    const strip = page.getByTestId('recent-works');
    await poll(() => strip.getByTestId('recent-item').count()).toBe(2);
    expect(await strip.getByTestId('recent-item').first().textContent()).toContain('雨音の夜');
    await screenshot(page, 'favourites-recent-strip-1280-light');
    await strip.getByRole('link', { name: '全部播放历史' }).click();
    await page.waitForURL('**/favourites/histroy');
    await poll(itemIds).toEqual([100002, 100001]);
    const first = page.locator('[data-testid="favourite-item"][data-work-id="100001"]');
    expect(await first.textContent()).toContain(`上次听到：${last1} 1:05`);

    await first.getByTestId('history-resume').click();
    await first.getByRole('link', { name: '耳かきと添い寝' }).last().click();
    await page.waitForURL('**/work/100001');
    await poll(() => page.locator(`[data-testid="tree-item"][data-title="${last1}"]`).getAttribute('data-playing')).toBe('true');

    await page.goBack();
    await page.waitForURL('**/favourites/histroy');
    await page.locator('[data-testid="favourite-item"][data-work-id="100002"]').getByTestId('history-delete').click();
    await poll(itemIds).toEqual([100001]);
    // with a search the strip is hidden; and it can be switched off
    await page.goto('/works?keyword=耳');
    await page.getByTestId('works-title').waitFor();
    expect(await page.getByTestId('recent-works').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('fits 375 and 1280 px, light and dark (screenshots of my ratings and the history)', async () => {
    for (const [id, rating, title] of [
      [100001, 5, '耳かきと添い寝'],
      [100002, 3, '雨音の夜'],
    ] as const) {
      await app.api('PUT', '/api/review?starOnly=true', { work_id: id, rating }, user.token);
      await saveHistory(user, id, title);
    }
    for (const viewport of Object.values(VIEWPORTS)) {
      await page.setViewportSize(viewport);
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        const tag = `${viewport.width}-${colorScheme}`;
        await page.goto('/favourites/review');
        await waitForColorScheme(page, colorScheme);
        await items().first().waitFor();
        expect(await scrollWidthOf(page)).toBeLessThanOrEqual(viewport.width);
        await screenshot(page, `favourites-review-${tag}`);
        await page.goto('/favourites/histroy');
        await items().first().waitFor();
        expect(await scrollWidthOf(page)).toBeLessThanOrEqual(viewport.width);
        await screenshot(page, `favourites-history-${tag}`);
      }
    }
    expect(errors).toEqual([]);
  });
});
