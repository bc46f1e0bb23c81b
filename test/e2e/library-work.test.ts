/**
 * End to end: the work page as the admin, against the built `kikoplay serve` with a scanned fixture
 * library, in headless Chromium — open a work from the list, browse its file tree (breadcrumbs, up entry,
 * natural order), hand tracks to the player, the per-item menu, AI lyric requests and their status badges,
 * the image preview, the play-history buttons, and editing the metadata with its rules. (Rating,
 * progress, reviews, guests and the screenshots: library-work-users.test.ts.)
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { readLocal, screenshot } from '../helpers/browser.js';
import { servedApp, type Account } from '../helpers/e2e.js';
import { makeTestLibrary } from '../helpers/library.js';
import { labelWorks } from '../helpers/work-labels.js';
import { WORK_PAGE_LABELS, workPage, type WorkDetail } from '../helpers/work-page.js';

const BJ = 1e12 + 200001;

const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 20_000, interval: 100 });

// one scanned library for the file; only the edit test changes a work (100004, which no other test reads)
const app = servedApp({
  library: makeTestLibrary,
  seed: ({ api }) => labelWorks(api, WORK_PAGE_LABELS),
});

describe('the work page, as the admin', { timeout: 90_000 }, () => {
  let admin: Account;
  let page: Page;
  let errors: string[];
  let h: ReturnType<typeof workPage>;

  // an admin of each test's own (play history is per account), in a fresh page
  beforeEach(async () => {
    admin = await app.addUser('admin');
    ({ page, errors } = await app.open({ as: admin, timeout: 20_000 }));
    h = workPage(page);
  });

  it('opens a work from the list and browses its tree: breadcrumbs, up entry, natural order, playing a folder', async () => {
    await page.goto('/works?keyword=nested');
    await page.getByTestId('work-card').getByTestId('work-title').click();
    await page.waitForURL('**/work/100030');
    expect(await page.getByTestId('work-detail-title').textContent()).toBe('nested');
    await poll(h.titles).toEqual(['mp3', 'wav', 'track0.m4a']);
    await h.row('mp3').getByRole('button', { name: 'mp3', exact: true }).click();
    await poll(h.titles).toEqual(['SEなし', 'track1.lrc']);
    expect(await page.getByTestId('tree-breadcrumbs').textContent()).toBe('全部文件/mp3');
    await h.row('SEなし').getByRole('button', { name: 'SEなし', exact: true }).click();
    await poll(h.titles).toEqual(['track1.mp3', 'track2.mp3', 'track10.mp3']);
    await h.row('track2.mp3').getByRole('button', { name: 'track2.mp3', exact: true }).click();
    await poll(() => h.row('track2.mp3').getAttribute('data-playing')).toBe('true');
    await page.getByTestId('tree-up').click();
    await poll(h.titles).toEqual(['SEなし', 'track1.lrc']);
    await page.getByTestId('tree-breadcrumbs').getByRole('button', { name: '全部文件' }).click();
    await poll(h.titles).toEqual(['mp3', 'wav', 'track0.m4a']);

    await h.rowMenu('wav', '加入播放列表');
    await h.notice('已加入播放列表').waitFor();
    await h.row('track0.m4a').getByTestId('tree-item-menu').click();
    const download = page.getByRole('menuitem', { name: '下载' });
    expect(await download.getAttribute('href')).toMatch(/^\/api\/media\/download\/100030\/\d+\?token=/);
    await page.keyboard.press('Escape');

    // back to the list inside the app (the page unmounts cleanly)
    await page.getByRole('button', { name: '返回' }).click();
    await page.waitForURL('**/works?keyword=nested');
    await page.getByTestId('work-card').waitFor();
    expect(errors).toEqual([]);
  });

  it('says why the file tree could not be loaded and loads it again from 刷新页面', async () => {
    const failing = (url: URL) => url.pathname === '/api/tracks/100030';
    await page.route(failing, (route) => route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: '服务器暂时不可用' }) }));
    // the toast is an alert too: the tree's is the one with the retry button
    const failed = page.getByRole('alert').filter({ has: page.getByRole('button', { name: '刷新页面' }) });
    try {
      await page.goto('/work/100030');
      await failed.waitFor();
      expect(await failed.textContent()).toContain('服务器暂时不可用');
      expect(await page.getByTestId('work-detail-title').textContent()).toBe('nested');
    } finally {
      await page.unroute(failing);
    }
    await failed.getByRole('button', { name: '刷新页面' }).click();
    await poll(h.titles).toEqual(['mp3', 'wav', 'track0.m4a']);
    await failed.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
  });

  it('requests AI lyrics per file and for the current folder, with status badges on files and folders', async () => {
    await page.goto('/work/100030');
    await poll(h.titles).toEqual(['mp3', 'wav', 'track0.m4a']);
    await h.rowMenu('track0.m4a', 'AI 翻译歌词');
    await h.notice('已提交翻译任务').waitFor();
    await poll(() => h.row('track0.m4a').getByTestId('ai-status').getAttribute('data-status')).toBe('pending');
    expect(await h.row('track0.m4a').getByTestId('ai-status').textContent()).toBe('排队中');

    // the folder's audio, one task each; a folder's badge sums up its children
    await h.row('mp3').getByRole('button', { name: 'mp3', exact: true }).click();
    await h.row('SEなし').getByRole('button', { name: 'SEなし', exact: true }).click();
    await poll(h.titles).toEqual(['track1.mp3', 'track2.mp3', 'track10.mp3']);
    await page.getByTestId('action-translate-folder').click();
    await page.getByRole('dialog').getByText('为当前文件夹的 3 个音频创建 AI 歌词翻译任务？').waitFor();
    await page.getByRole('button', { name: '确定' }).click();
    await h.notice('已提交 3 个翻译任务').waitFor();
    await poll(() => page.locator('[data-testid="tree-item"] [data-status="pending"]').count()).toBe(3);
    await page.getByTestId('tree-up').click();
    await poll(() => h.row('SEなし').getByTestId('ai-status').getAttribute('data-status')).toBe('pending');
    const tasks = await app.api<{ tasks: { audio_path: string; status: number }[] }>('GET', `/api/lyric/translate?page=-1&work_id=100030&status=${encodeURIComponent('[]')}`);
    expect(tasks.tasks.map((t) => t.audio_path.replace(/\\/g, '/')).sort()).toEqual(['mp3/SEなし/track1.mp3', 'mp3/SEなし/track10.mp3', 'mp3/SEなし/track2.mp3', 'track0.m4a']);
    expect(errors).toEqual([]);
  });

  it('previews images: previous and next wrap around, close, and "use as visual cover" while something plays', async () => {
    await page.goto(`/work/${BJ}`);
    await poll(h.titles).toEqual(['folder.png', 'page1.jpg', 'track.ogg']);
    await h.row('track.ogg').getByRole('button', { name: 'track.ogg', exact: true }).click();
    await h.row('folder.png').getByRole('button', { name: 'folder.png', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('图片 1 / 2 · folder.png').waitFor();
    await dialog.getByRole('button', { name: '下一张' }).click();
    await dialog.getByText('图片 2 / 2 · page1.jpg').waitFor();
    await dialog.getByRole('button', { name: '下一张' }).click();
    await dialog.getByText('图片 1 / 2 · folder.png').waitFor();
    await dialog.getByRole('button', { name: '上一张' }).click();
    await dialog.getByText('图片 2 / 2 · page1.jpg').waitFor();
    await poll(() => dialog.getByTestId('preview-image').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
    await screenshot(page, 'library-work-preview-1280-light', dialog.getByTestId('use-as-cover'));
    await dialog.getByTestId('use-as-cover').click();
    await h.notice('已设为这部作品的播放封面').waitFor();
    const covers = JSON.parse((await readLocal(page, 'kikoplay.visualCovers')) ?? '{}') as Record<string, string>;
    expect(covers[String(BJ)]).toMatch(new RegExp(`^${BJ}/\\d+$`));
    await dialog.getByRole('button', { name: '关闭' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
  });

  it('edits the metadata: title, circle, tags and voice actors, with the duplicate and voice-actor rules', async () => {
    await page.goto('/work/100004');
    await page.getByTestId('action-edit').click();
    const dialog = page.getByTestId('edit-meta-dialog');
    await page.getByTestId('edit-title').fill('星空のささやき（改）');

    await page.getByTestId('edit-circle').fill('テスト');
    await page.getByRole('option', { name: /テストサークル/ }).click();
    await poll(() => page.getByTestId('edit-circle-current').textContent()).toBe('テストサークル');

    await page.getByTestId('edit-tags').fill('耳か');
    await page.getByRole('option', { name: /耳かき/ }).click();
    await page.getByTestId('edit-tags').fill('耳かき');
    await page.getByRole('option', { name: /^耳かき/ }).click();
    await h.notice('项目已存在，无需重复添加').waitFor();
    await page.getByTestId('edit-tags').fill('新しいタグ');
    await page.getByTestId('edit-tags-custom').click();
    await poll(() => page.getByTestId('edit-tags-list').locator('.mantine-Pill-label').allTextContents()).toEqual(['癒やし', '耳かき', '新しいタグ *']);

    // the last voice actor cannot go: N/A stands in until another is added
    await page.getByRole('button', { name: '删除条件 鈴木みどり' }).click();
    await h.notice('声优至少得有一个').waitFor();
    await poll(() => page.getByTestId('edit-vas-list').locator('.mantine-Pill-label').allTextContents()).toEqual(['N/A']);
    await page.getByTestId('edit-vas').fill('佐藤');
    await page.getByRole('option', { name: /佐藤さくら/ }).click();
    await poll(() => page.getByTestId('edit-vas-list').locator('.mantine-Pill-label').allTextContents()).toEqual(['佐藤さくら']);
    await screenshot(page, 'library-work-edit-1280-light', page.getByTestId('edit-save'));

    const marker = () => page.evaluate(() => (globalThis as unknown as { beforeReload?: boolean }).beforeReload === true);
    await page.evaluate(() => void ((globalThis as unknown as { beforeReload?: boolean }).beforeReload = true));
    await page.getByTestId('edit-save').click();
    await h.notice('已保存，2 秒后刷新页面').waitFor();
    await dialog.getByTestId('edit-save').waitFor({ state: 'hidden' });
    // the page reloads after 2 s with the new data
    await poll(marker).toBe(false);
    await poll(() => page.getByTestId('work-detail-title').textContent()).toBe('星空のささやき（改）');
    const work = await app.api<WorkDetail>('GET', '/api/work/100004');
    expect(work.circle.name).toBe('テストサークル');
    expect(work.tags.map((t) => t.name).sort()).toEqual(['新しいタグ', '癒やし', '耳かき'].sort());
    expect(work.vas.map((v) => v.name)).toEqual(['佐藤さくら']);
    expect(errors).toEqual([]);
  });

  it('deletes the play record of the work, and resumes its saved play history', async () => {
    const tree = await app.api<{ type: string; title: string; hash?: string }[]>('GET', '/api/tracks/100001');
    const audio = tree.filter((n) => n.type === 'audio');
    const queue = audio.map((n) => ({ hash: n.hash, title: n.title, subtitle: null, workTitle: '耳かきと添い寝', workId: 100001 }));
    const save = () => app.api('PUT', '/api/histroy', { work_id: 100001, state: { queue, index: 1, seconds: 0.5 } }, admin.token);

    await save();
    await page.goto('/work/100001');
    await page.getByTestId('action-delete-history').click();
    await page.getByRole('button', { name: '确定' }).click();
    await h.notice('已删除播放记录').waitFor();
    await page.getByTestId('action-delete-history').waitFor({ state: 'detached' });
    await page.getByTestId('action-resume').waitFor({ state: 'detached' });
    expect((await app.api<{ state: unknown }>('GET', '/api/work/100001', undefined, admin.token)).state).toBeNull();

    await save();
    await page.reload();
    const resume = page.getByTestId('action-resume');
    await resume.waitFor();
    expect(await resume.getAttribute('title')).toBe(`从上次的进度继续：${audio[1].title}`);
    await resume.click();
    await poll(() => h.row(audio[1].title).getAttribute('data-playing')).toBe('true');
    // the work is playing now: no resume button
    await resume.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
  });
});
