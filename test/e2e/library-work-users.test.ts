/**
 * End to end: the work page as a user and as a guest, against the built `kikoplay serve` with a scanned
 * fixture library, in headless Chromium — rate a work, mark progress, write and delete a review; a guest
 * is offered none of these (and the server refuses them: nothing is saved). Screenshots at 375 and 1280 px, light and dark.
 */
import { describe, expect, it } from 'vitest';
import { screenshot, scrollWidthOf, VIEWPORTS, waitForColorScheme } from '../helpers/browser.js';
import { servedApp } from '../helpers/e2e.js';
import { makeTestLibrary } from '../helpers/library.js';
import { labelWorks } from '../helpers/work-labels.js';
import { WORK_PAGE_LABELS, workPage, type WorkDetail } from '../helpers/work-page.js';

const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 20_000, interval: 100 });

// one scanned library for the file; ratings, progress and reviews are per user: each test has its own
const app = servedApp({
  library: makeTestLibrary,
  seed: ({ api }) => labelWorks(api, WORK_PAGE_LABELS.slice(0, 2)),
});

describe('the work page, as a user and as a guest', { timeout: 90_000 }, () => {
  it('rates, marks progress, writes and deletes a review', async () => {
    const user = await app.addUser('user', 'listener');
    const { page, errors } = await app.open({ as: user, timeout: 20_000 });
    const h = workPage(page);
    const detail = () => app.api<WorkDetail>('GET', '/api/work/100003', undefined, user.token);
    await page.goto('/work/100003');
    await page.getByTestId('work-header').waitFor();
    expect(await page.getByTestId('action-edit').count()).toBe(0); // not an admin

    // the hover fills the stars by changing colours, not elements, so a quick click is not lost
    expect(await h.starKeptUnderHover(4)).toBe(true);
    await h.star(4);
    await h.notice('评价成功').waitFor();
    await poll(async () => (await detail()).userRating).toBe(4);

    await page.getByTestId('action-progress').click();
    await page.getByTestId('progress-listening').click();
    await h.notice('更新进度成功').waitFor();
    await poll(() => page.getByTestId('action-progress').textContent()).toBe('在听');

    await page.getByTestId('action-review').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('雨音の夜').waitFor();
    // the dialog takes the work's progress once open, and the select shows its label a render later
    await poll(() => page.getByTestId('review-progress').inputValue()).toBe('在听');
    await page.getByTestId('review-text').fill('雨の音がとても良い。');
    await screenshot(page, 'library-work-review-1280-light', page.getByTestId('review-submit'));
    await page.getByTestId('review-submit').click();
    await dialog.waitFor({ state: 'detached' });
    await poll(async () => (await detail()).review_text).toBe('雨の音がとても良い。');
    expect((await detail()).userRating).toBe(4);

    await page.getByTestId('action-review').click();
    await poll(() => page.getByTestId('review-text').inputValue()).toBe('雨の音がとても良い。');
    await page.getByTestId('review-delete').click();
    await h.notice('删除标记成功').waitFor();
    await poll(async () => {
      const d = await detail();
      return [d.userRating, d.progress, d.review_text];
    }).toEqual([null, null, null]);
    await poll(() => page.getByTestId('action-progress').textContent()).toBe('标记进度');
    expect(errors).toEqual([]);
  });

  it('offers a guest no admin buttons and no rating or marking; the server refuses them anyway, nothing saved', async () => {
    const guest = await app.addUser('guest', 'visitor');
    const { page, errors } = await app.open({ as: guest, viewport: VIEWPORTS.phone, timeout: 20_000 });
    await page.goto('/work/100001');
    await page.getByTestId('work-header').waitFor();
    await page.getByTestId('guest-note').waitFor();
    for (const id of ['action-edit', 'action-more', 'action-progress', 'action-review', 'work-rating']) expect(await page.getByTestId(id).count(), id).toBe(0);
    // what the page no longer offers is still refused by the server
    const refusal = '游客账号只能浏览和播放，不能进行此操作.';
    const rate = await app.api.call<{ error: string }>('PUT', '/api/review?starOnly=true', { user_name: guest.name, work_id: 100001, rating: 3 }, guest.token);
    expect([rate.status, rate.body.error]).toEqual([403, refusal]);
    const mark = await app.api.call<{ error: string }>('PUT', '/api/review?starOnly=false&progressOnly=true', { user_name: guest.name, work_id: 100001, progress: 'marked' }, guest.token);
    expect([mark.status, mark.body.error]).toEqual([403, refusal]);
    const work = await app.api<WorkDetail>('GET', '/api/work/100001', undefined, guest.token);
    expect([work.userRating, work.progress]).toEqual([null, null]);
    expect(errors).toEqual([]);
  });

  it('fits 375 and 1280 px, light and dark (screenshots of the work page)', async () => {
    const { page, errors } = await app.open({ as: await app.addUser('user', 'listener'), timeout: 20_000 });
    for (const viewport of Object.values(VIEWPORTS)) {
      await page.setViewportSize(viewport);
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        const tag = `${viewport.width}-${colorScheme}`;
        await page.goto('/work/100001');
        await waitForColorScheme(page, colorScheme);
        await page.getByTestId('file-tree').waitFor();
        expect(await scrollWidthOf(page)).toBeLessThanOrEqual(viewport.width);
        await screenshot(page, `library-work-${tag}`);
      }
    }
    expect(errors).toEqual([]);
  });
});
