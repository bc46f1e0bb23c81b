/**
 * End to end: the AI lyric centre (/ai_lyric) against the built `kikoplay serve`
 * with a scanned library, in headless Chromium. Tasks are queued through the API and moved along by a
 * "worker" speaking the worker protocol (acquire, status, finish). The page lists them with the
 * worker's name, status and progress; filters by work id number, file name and status; refreshes every
 * 5 s on its own; retries a failed task; deletes one; shows a finished task's LRC; a guest only looks.
 * Screenshots at 375 and 1280 px, light and dark. The queue is the whole server's: every test
 * starts a server of its own (a copy of one scanned data dir) and queues the story's tasks itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { shots, VIEWPORTS } from '../helpers/browser.js';
import { servedApp, type E2eServer } from '../helpers/e2e.js';
import { makeTestLibrary } from '../helpers/library.js';
import { runCli } from '../helpers/run-cli.js';

type Lib = Awaited<ReturnType<typeof makeTestLibrary>>;
interface Node {
  type: string;
  title: string;
  hash?: string;
  children?: Node[];
}

let lib: Lib;
beforeAll(async () => {
  lib = await makeTestLibrary();
});
const app = servedApp();
afterAll(() => lib?.cleanup());

const audioHashes = (nodes: Node[]): { title: string; hash: string }[] =>
  nodes.flatMap((n) => (n.type === 'folder' ? audioHashes(n.children ?? []) : n.type === 'audio' && n.hash ? [{ title: n.title, hash: n.hash }] : []));

interface Story {
  own: E2eServer;
  /** Task ids by role in the story. */
  ids: Record<'transcribing' | 'success' | 'error' | 'pendingA' | 'pendingB' | 'other', number>;
  secrets: Record<number, string>;
  /** The admin's page on the story's server, at /ai_lyric with every task listed. */
  page: Page;
  errors: string[];
}

/**
 * A server of the test's own over the scanned library, with six tasks queued (five audio files of
 * RJ100030 and one of RJ100001, in this order): workers calling themselves "gpu-box" took the first
 * three (oldest first): one is working (the admin acting as a worker), one succeeded (a worker token
 * "lab-box"), one failed.
 */
async function story(): Promise<Story> {
  const own = await app.ownServer({ scanned: lib.root });
  const { api } = own;
  const secrets: Record<number, string> = {};
  const acquire = async (as?: string): Promise<number> => {
    const got = await api<{ id: number; secret: string }>('POST', '/api/lyric/translate/acquire', { worker_name: 'gpu-box' }, as);
    secrets[got.id] = got.secret;
    return got.id;
  };
  const tracks = audioHashes(await api<Node[]>('GET', '/api/tracks/100030'));
  const other = audioHashes(await api<Node[]>('GET', '/api/tracks/100001'));
  expect(tracks.length).toBe(5);
  const created: number[] = [];
  for (const t of [...tracks, other[0]]) created.push((await api<{ id: number }>('PUT', `/api/lyric/translate/${t.hash}`)).id);
  const [transcribing, success, error, pendingA, pendingB, otherId] = created;
  const ids = { transcribing, success, error, pendingA, pendingB, other: otherId };

  const issued = await runCli(['--data-dir', own.dataDir, 'worker-token', 'create', 'lab-box'], { timeoutMs: 60_000 });
  if (issued.code !== 0) throw new Error(`worker-token create failed: ${issued.stderr}`);
  const workerToken = issued.stdout.trim();

  expect(await acquire()).toBe(ids.transcribing);
  await api('POST', '/api/lyric/translate/status', { id: String(ids.transcribing), secret: secrets[ids.transcribing], worker_status: 'transcribing 2/5 chunks' });
  expect(await acquire(workerToken)).toBe(ids.success);
  await api('POST', '/api/lyric/translate/finish', { id: ids.success, secret: secrets[ids.success], success: true, lrc_content: '[00:00.00]はじめに\n[00:01.50]AI の歌詞\n' }, workerToken);
  expect(await acquire()).toBe(ids.error);
  await api('POST', '/api/lyric/translate/finish', { id: ids.error, secret: secrets[ids.error], success: false, lrc_content: '' });

  const { page, errors } = await app.open({ as: own.admin, on: own });
  await page.goto('/ai_lyric');
  await page.getByTestId('ai-total').getByText('共 6 个任务').waitFor();
  return { own, ids, secrets, page, errors };
}

const card = (page: Page, id: number) => page.locator(`[data-testid="ai-task"][data-task-id="${id}"]`);
const cards = (page: Page) => page.getByTestId('ai-task');

// each test starts and fills a server of its own first
describe('the AI lyric centre', { timeout: 180_000 }, () => {
  it('lists the tasks with status, worker name, the account behind it, worker status and progress', async () => {
    const { own, ids, page, errors } = await story();
    expect(await cards(page).count()).toBe(6);

    const working = card(page, ids.transcribing);
    expect(await working.getAttribute('data-status')).toBe('transcribing');
    await working.getByText('转写中').waitFor();
    await working.getByTestId('ai-task-worker').getByText('gpu-box · transcribing 2/5 chunks').waitFor();
    // the self-chosen worker name is shown with the account that really acquired the task
    expect(await working.getByTestId('ai-task-account').textContent()).toBe(`领取账号：用户 ${own.admin.name}`);
    expect(await card(page, ids.success).getByTestId('ai-task-account').textContent()).toBe('领取账号：令牌 lab-box');
    expect(await card(page, ids.pendingA).getByTestId('ai-task-account').count()).toBe(0);
    const bar = working.getByRole('progressbar');
    expect(await bar.getAttribute('aria-valuenow')).toBe('40');
    await working.getByRole('link', { name: 'RJ100030' }).waitFor();

    await card(page, ids.success).getByText('已完成').waitFor();
    await card(page, ids.error).getByText('失败').waitFor();
    await card(page, ids.pendingA).getByText('等待中').waitFor();
    await card(page, ids.pendingA).getByText('尚未被领取').waitFor();
    // file name and extension from audio_path
    await card(page, ids.other).getByRole('link', { name: 'RJ100001' }).waitFor();
    expect(errors).toEqual([]);
  });

  it('shows the LRC of a finished task', async () => {
    const { ids, page } = await story();
    await card(page, ids.success).getByRole('button', { name: '查看歌词' }).click();
    const lrc = page.getByTestId('ai-lrc');
    await lrc.getByText('[00:01.50]AI の歌詞', { exact: false }).waitFor();
    await page.keyboard.press('Escape');
    await lrc.waitFor({ state: 'detached' });
  });

  it('filters by status, work id number (or code) and file name', async () => {
    const { ids, page } = await story();
    // the pill box around the input takes the click (Mantine MultiSelect)
    const statusFilter = page.locator('.mantine-MultiSelect-input').filter({ has: page.getByTestId('ai-filter-status') });
    await statusFilter.click();
    await page.getByRole('option', { name: '失败' }).click();
    await page.keyboard.press('Escape');
    await expect.poll(() => cards(page).count()).toBe(1);
    expect(await cards(page).first().getAttribute('data-task-id')).toBe(String(ids.error));
    // picking it again takes the condition off
    await statusFilter.click();
    await page.getByRole('option', { name: '失败' }).click();
    await page.keyboard.press('Escape');
    await expect.poll(() => cards(page).count()).toBe(6);

    const work = page.getByTestId('ai-filter-work');
    await work.fill('RJ100001');
    await expect.poll(() => cards(page).count()).toBe(1);
    await work.fill('100030');
    await expect.poll(() => cards(page).count()).toBe(5);
    await work.fill('not a code');
    await page.getByText('作品编号无效').waitFor();
    await work.fill('');
    await expect.poll(() => cards(page).count()).toBe(6);

    await page.getByTestId('ai-filter-file').fill('track1');
    await expect.poll(() => cards(page).count()).toBe(3); // track1.mp3, track10.mp3, track1.wav
    await page.getByTestId('ai-filter-file').fill('');
    await expect.poll(() => cards(page).count()).toBe(6);
  });

  it('retries a failed task: back to pending', async () => {
    const { own, ids, page } = await story();
    const failed = card(page, ids.error);
    await failed.getByTestId('ai-task-retry').click();
    await page.getByText('已重新加入转写队列').waitFor();
    await expect.poll(() => failed.getAttribute('data-status')).toBe('pending');
    const list = await own.api<{ tasks: { id: number; status: number; worker_name: string }[] }>('GET', `/api/lyric/translate?page=1&status=[]&work_id=100030`);
    expect(list.tasks.find((t) => t.id === ids.error)).toMatchObject({ status: 1, worker_name: '' });
  });

  it('follows the queue on its own (5 s auto refresh)', async () => {
    const { own, ids, secrets, page } = await story();
    await expect.poll(() => card(page, ids.transcribing).getAttribute('data-status')).toBe('transcribing');
    await own.api('POST', '/api/lyric/translate/finish', { id: ids.transcribing, secret: secrets[ids.transcribing], success: true, lrc_content: '[00:00.00]おわり\n' });
    // no click: the list refreshes itself
    await expect.poll(() => card(page, ids.transcribing).getAttribute('data-status'), { timeout: 15_000 }).toBe('success');
  });

  it('deletes a task after asking', async () => {
    const { ids, page, errors } = await story();
    await card(page, ids.pendingB)
      .getByRole('button', { name: /^删除 / })
      .click();
    await page.getByText('的转写任务吗？', { exact: false }).waitFor();
    await page.getByRole('dialog').getByRole('button', { name: '删除' }).click();
    await card(page, ids.pendingB).waitFor({ state: 'detached' });
    await page.getByTestId('ai-total').getByText('共 5 个任务').waitFor();
    expect(errors).toEqual([]);
  });

  it('fits 375 and 1280 px, light and dark (screenshots)', async () => {
    const { page } = await story();
    await shots(page, 'ai-lyric', cards(page).first());
  });

  it('lets a guest look but not retry or delete', async () => {
    const { own } = await story();
    const guest = await own.addUser('guest', 'visitor');
    const { page, errors } = await app.open({ as: guest, on: own, viewport: VIEWPORTS.phone });
    await page.goto('/ai_lyric');
    await page.getByText('游客账号只能查看任务。').waitFor();
    await page.getByTestId('ai-task').first().waitFor();
    expect(await page.getByTestId('ai-task').count()).toBe(6);
    expect(await page.getByTestId('ai-task-retry').count()).toBe(0);
    expect(await page.getByRole('button', { name: /^删除 / }).count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
