/**
 * End to end: each role sees only what it may do, against the built `kikoplay serve` with a scanned
 * library, in headless Chromium. A guest tours the works, a work page (and its file menu), plays a
 * track, the AI centre, favourites and the account page: no rate, review, progress, translate or edit
 * control anywhere, a note saying what a guest may do, and not one 403 answer on the way. A user gets
 * their own actions (stars, progress, review, translate) but no admin button or link, and in the AI
 * centre delete only on their own tasks. While a scan started by the admin holds the library, the
 * admin's page shows the scan notice with its start in the viewer's time zone (the browser runs in
 * Asia/Tokyo) and the link to the scanner; the user's page shows neither. Screenshots of the work page
 * as guest and as user at 375 and 1280 px, light and dark.
 *
 * DLsite is a loopback server that holds every request open while `hang` is on (so a refresh of the
 * library's metadata runs until it is cancelled) and resets connections otherwise.
 */
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { BrowserContext, Page, Response } from 'playwright-core';
import { screenshot, scrollWidthOf, VIEWPORTS, waitForColorScheme } from '../helpers/browser.js';
import { servedApp, type Account } from '../helpers/e2e.js';
import { makeTestLibrary } from '../helpers/library.js';
import { deadSites } from '../helpers/dead-sites.js';

const TIME_ZONE = 'Asia/Tokyo';
const WORK = 100002;
const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 20_000, interval: 100 });

const sites = deadSites();

const app = servedApp({ library: makeTestLibrary });

/** Every answer with status 403 the context receives (page loads, API calls, media). */
function watchRefusals(context: BrowserContext): string[] {
  const refused: string[] = [];
  context.on('response', (res: Response) => {
    if (res.status() === 403) refused.push(`${res.request().method()} ${res.url()}`);
  });
  return refused;
}

/** Controls only users and admins get on the work page. */
const WRITE_CONTROLS = ['action-progress', 'action-review', 'action-translate-folder', 'action-delete-history'];
/** Controls only admins get on the work page. */
const ADMIN_CONTROLS = ['action-edit', 'action-more'];

const count = (page: Page, testId: string) => page.getByTestId(testId).count();
const countAll = async (page: Page, ids: string[]) => Object.fromEntries(await Promise.all(ids.map(async (id) => [id, await count(page, id)] as const)));
const zeroes = (ids: string[]) => Object.fromEntries(ids.map((id) => [id, 0]));

/** The first audio file's row of the work page's tree. */
const firstAudio = (page: Page) => page.locator('[data-testid="tree-item"][data-type="audio"]').first();

/** Open the menu of a tree row and list its item names (then close it). */
async function rowMenu(page: Page): Promise<{ translate: number; download: number }> {
  await firstAudio(page).getByTestId('tree-item-menu').click();
  const menu = page.getByRole('menu');
  await menu.getByRole('menuitem').first().waitFor();
  const items = { translate: await menu.getByRole('menuitem', { name: 'AI 翻译歌词' }).count(), download: await menu.getByRole('menuitem', { name: '下载' }).count() };
  await page.keyboard.press('Escape');
  await menu.waitFor({ state: 'detached' });
  return items;
}

/** Let React apply what the last answer brought (two animation frames). */
const settle = (page: Page) =>
  page.evaluate(() => {
    const frame = (globalThis as unknown as { requestAnimationFrame(fn: () => void): number }).requestAnimationFrame;
    return new Promise<void>((resolve) => frame(() => frame(() => resolve())));
  });

/** The scan notice (a toast), by its words. */
const lockNotice = (page: Page) => page.locator('.mantine-Notification-root').filter({ hasText: '媒体库正在扫描中' });

/** Links into the admin area anywhere on the page. */
const adminLinks = (page: Page) => page.locator('a[href^="/admin"]').count();

async function workPageShots(page: Page, role: string): Promise<void> {
  for (const viewport of Object.values(VIEWPORTS)) {
    await page.setViewportSize(viewport);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await page.goto(`/work/${WORK}`);
      await waitForColorScheme(page, colorScheme);
      await page.getByTestId('file-tree').waitFor();
      await page.getByTestId('work-actions').waitFor();
      expect(await scrollWidthOf(page)).toBeLessThanOrEqual(viewport.width);
      await screenshot(page, `roles-work-${role}-${viewport.width}-${colorScheme}`);
    }
  }
}

describe('screens follow the role', { timeout: 180_000 }, () => {
  it('a guest sees no rate, review, progress, translate or edit control and meets no 403 on the tour', async () => {
    const guest = await app.addUser('guest', 'visitor');
    const { context, page, errors } = await app.open({ as: guest, timeout: 20_000 });
    const refused = watchRefusals(context);

    await page.goto('/');
    await page.getByTestId('work-card').first().waitFor();
    expect(await page.getByTestId('work-card').getByTestId('work-rating').count()).toBe(0);
    expect(await adminLinks(page)).toBe(0);

    await page.goto(`/work/${WORK}`);
    await page.getByTestId('file-tree').waitFor();
    await page.getByTestId('guest-note').waitFor();
    expect(await page.getByTestId('guest-note').textContent()).toBe('游客账号只能浏览和播放');
    expect(await count(page, 'work-rating')).toBe(0);
    expect(await countAll(page, [...WRITE_CONTROLS, ...ADMIN_CONTROLS])).toEqual(zeroes([...WRITE_CONTROLS, ...ADMIN_CONTROLS]));
    expect(await rowMenu(page)).toEqual({ translate: 0, download: 1 }); // download stays: guests play and take files

    // guests play: the player keeps no history on the server for them (it would be refused)
    const historyPut = page
      .waitForRequest((req) => req.method() === 'PUT' && req.url().includes('/api/histroy'), { timeout: 3_000 })
      .then(
        () => true,
        () => false,
      );
    await firstAudio(page).getByRole('button').first().click();
    await page.getByTestId('player-bar-title').waitFor();
    await poll(() => firstAudio(page).getAttribute('data-playing')).toBe('true');
    expect(await historyPut).toBe(false); // a user's play is saved within the debounce (0.5 s)

    await page.goto('/ai_lyric');
    await page.getByText('游客账号只能查看任务。').waitFor();
    expect(await count(page, 'ai-task-retry')).toBe(0);
    expect(await page.getByRole('button', { name: /^删除 / }).count()).toBe(0);

    await page.goto('/favourites');
    await page.getByTestId('favourites-empty').waitFor(); // a guest keeps no reviews
    await page.goto('/account');
    await page.getByTestId('guest-note').waitFor();
    expect(await adminLinks(page)).toBe(0);

    expect(refused).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('a user sees their own actions but no admin control or link; delete only on their own AI tasks', async () => {
    const user = await app.addUser('user', 'listener');
    const { context, page, errors } = await app.open({ as: user, timeout: 20_000 });
    const refused = watchRefusals(context);

    // one AI task of the admin's, one of the user's, on the work's two audio files
    const tree = await app.api<{ type: string; hash?: string }[]>('GET', `/api/tracks/${WORK}`, undefined, user.token);
    const [first, second] = tree.filter((n) => n.type === 'audio').map((n) => n.hash!);
    for (const id of (await app.api<{ tasks: { id: number }[] }>('GET', `/api/lyric/translate?page=-1&status=[]&work_id=${WORK}`)).tasks.map((task) => task.id)) {
      await app.api('DELETE', `/api/lyric/translate/${id}`);
    }
    const admins = (await app.api<{ id: number }>('PUT', `/api/lyric/translate/${first}`)).id;
    const own = (await app.api<{ id: number }>('PUT', `/api/lyric/translate/${second}`, undefined, user.token)).id;

    await page.goto('/');
    await page.getByTestId('work-card').first().waitFor();
    await poll(() => page.getByTestId('work-card').first().getByTestId('work-rating').count()).toBe(1);
    expect(await adminLinks(page)).toBe(0);

    await page.goto(`/work/${WORK}`);
    await page.getByTestId('file-tree').waitFor();
    await page.getByTestId('action-review').waitFor();
    expect(await count(page, 'work-rating')).toBe(1);
    expect(await countAll(page, ['action-progress', 'action-review', 'action-translate-folder'])).toEqual({ 'action-progress': 1, 'action-review': 1, 'action-translate-folder': 1 });
    expect(await countAll(page, ADMIN_CONTROLS)).toEqual(zeroes(ADMIN_CONTROLS));
    expect(await count(page, 'guest-note')).toBe(0);
    expect(await rowMenu(page)).toEqual({ translate: 1, download: 1 });

    await page.goto('/ai_lyric');
    const task = (id: number) => page.locator(`[data-testid="ai-task"][data-task-id="${id}"]`);
    await task(own).waitFor();
    await task(admins).waitFor();
    expect(
      await task(own)
        .getByRole('button', { name: /^删除 / })
        .count(),
    ).toBe(1);
    expect(
      await task(admins)
        .getByRole('button', { name: /^删除 / })
        .count(),
    ).toBe(0);
    expect(await adminLinks(page)).toBe(0);

    expect(refused).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("a scan started by the admin: the admin's page shows the notice in local time with the scanner link, the user's shows none", async () => {
    const own = await app.ownServer({ env: sites.env, scanned: app.libRoot });
    const user = await own.addUser('user', 'listener');
    sites.hang(true);
    const ws = new WebSocket(`${own.url.replace('http', 'ws')}/api/ws?token=${encodeURIComponent(own.admin.token)}`);
    try {
      await new Promise<void>((resolve, reject) => {
        ws.on('message', (data) => {
          if ((JSON.parse(data.toString()) as { event: string }).event === 'success') resolve();
        });
        ws.once('error', reject);
      });
      ws.send(JSON.stringify({ event: 'PERFORM_UPDATE' })); // refresh the library's metadata: it waits on "DLsite"
      await poll(() => sites.held).toBeGreaterThan(0);
      const version = await own.api<{ lockFileExists: boolean; lockStartedAt: string | null }>('GET', '/api/version');
      expect(version.lockFileExists).toBe(true);
      const startedAt = new Date(version.lockStartedAt!);
      const local = new Intl.DateTimeFormat('zh-CN', { dateStyle: 'medium', timeStyle: 'short', timeZone: TIME_ZONE }).format(startedAt);
      const utcClock = version.lockStartedAt!.slice(11, 16);

      // the admin: the notice, its start in Tokyo time (not UTC), and the way to the scanner
      const admin = await app.open({ as: own.admin, on: own, timezoneId: TIME_ZONE, timeout: 20_000 });
      await admin.page.goto('/');
      const notice = lockNotice(admin.page);
      await notice.waitFor({ timeout: 60_000 });
      const text = (await notice.textContent()) ?? '';
      expect(text).toContain(`媒体库正在扫描中（开始于 ${local}），部分作品信息可能暂不完整。`);
      expect(text).not.toContain(utcClock);
      await admin.page.getByRole('button', { name: '前往扫描页' }).click();
      await admin.page.waitForURL('**/admin/scanner');
      expect(admin.errors).toEqual([]);
      await admin.context.close(); // one page in front: a page behind another draws no frames

      // the user: the same moment, no notice and no way to the scanner
      const userPage = await app.open({ as: user, on: own, timezoneId: TIME_ZONE, timeout: 20_000 });
      const refused = watchRefusals(userPage.context);
      await userPage.page.bringToFront();
      // the version is asked for once the first cards are drawn: slow on a busy machine
      const versionSeen = userPage.page.waitForResponse((res) => res.url().endsWith('/api/version'), { timeout: 60_000 });
      await userPage.page.goto('/');
      expect((await versionSeen).status()).toBe(200);
      await userPage.page.getByTestId('work-card').first().waitFor();
      await settle(userPage.page);
      expect(await lockNotice(userPage.page).count()).toBe(0);
      expect(await userPage.page.locator('.mantine-Notification-root').count()).toBe(0);
      expect(await userPage.page.getByText('前往扫描页').count()).toBe(0);
      expect(await adminLinks(userPage.page)).toBe(0);
      expect(refused).toEqual([]);
      expect(userPage.errors).toEqual([]);

      ws.send(JSON.stringify({ event: 'KILL_SCAN_PROCESS' }));
      await poll(async () => (await own.api<{ lockFileExists: boolean }>('GET', '/api/version')).lockFileExists).toBe(false);
    } finally {
      sites.hang(false);
      sites.dropHeld();
      ws.close();
    }
  });

  it('fits 375 and 1280 px, light and dark (screenshots of the work page as guest and as user)', async () => {
    for (const role of ['guest', 'user'] as const) {
      const account: Account = await app.addUser(role, role === 'guest' ? 'visitor' : 'listener');
      const { page, errors } = await app.open({ as: account, timeout: 20_000 });
      await workPageShots(page, role);
      expect(errors).toEqual([]);
    }
  });
});
