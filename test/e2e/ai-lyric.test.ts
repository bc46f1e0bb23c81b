/**
 * End to end: the AI lyric centre (/ai_lyric) against the built `kikoplay serve`
 * with a scanned library, in headless Chromium. Tasks are queued through the API and moved along by a
 * "worker" speaking the worker protocol (acquire, status, finish). The page lists them with the
 * worker's name, status and progress; filters by work id number, file name and status; refreshes every
 * 5 s on its own; retries a failed task; deletes one; shows a finished task's LRC; a guest only looks.
 * Screenshots at 375 and 1280 px, light and dark.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { apiLogin, launchChromium, openLoggedInPage, screenshot, scrollWidthOf, VIEWPORTS, waitForColorScheme } from '../helpers/browser.js';
import { startCliServer, type CliServer } from '../helpers/cli-server.js';
import { makeTestLibrary } from '../helpers/library.js';
import { runCli } from '../helpers/run-cli.js';

type Lib = Awaited<ReturnType<typeof makeTestLibrary>>;
interface Node {
  type: string;
  title: string;
  hash?: string;
  children?: Node[];
}

/** Screenshots show the screen, not the last action's toast: wait for the toasts to close. */
const toastsGone = () => expect.poll(() => page.locator('.mantine-Notification-root').count(), { timeout: 10_000 }).toBe(0);
let lib: Lib;
let server: CliServer;
let browser: Browser;
let token: string;
let workerToken: string;
let context: BrowserContext;
let page: Page;
let errors: string[];
/** Task ids by role in the story. */
const ids: Record<'transcribing' | 'success' | 'error' | 'pendingA' | 'pendingB' | 'other', number> = {
  transcribing: 0,
  success: 0,
  error: 0,
  pendingA: 0,
  pendingB: 0,
  other: 0,
};
const secrets: Record<number, string> = {};
/** The audio of the task the delete test deletes (a retry queues it again). */
let pendingBHash = '';

const api = async (method: string, p: string, body?: unknown, as = token) => {
  const res = await fetch(server.url + p, {
    method,
    headers: { Authorization: `Bearer ${as}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json().catch(() => null)) as Record<string, unknown> | null;
  if (res.status !== 200) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(json)}`);
  return json!;
};

const audioHashes = (nodes: Node[]): { title: string; hash: string }[] =>
  nodes.flatMap((n) => (n.type === 'folder' ? audioHashes(n.children ?? []) : n.type === 'audio' && n.hash ? [{ title: n.title, hash: n.hash }] : []));

async function acquire(as = token): Promise<number> {
  const got = (await api('POST', '/api/lyric/translate/acquire', { worker_name: 'gpu-box' }, as)) as { id: number; secret: string };
  secrets[got.id] = got.secret;
  return got.id;
}

/** A task of RJ100030 as the server has it (status 1 pending, 2 transcribing, 3 success, 4 error), or undefined. */
async function taskOf(id: number): Promise<{ id: number; status: number } | undefined> {
  const list = (await api('GET', `/api/lyric/translate?page=-1&status=[]&work_id=100030`)) as { tasks: { id: number; status: number }[] };
  return list.tasks.find((t) => t.id === id);
}

const card = (id: number) => page.locator(`[data-testid="ai-task"][data-task-id="${id}"]`);
const cards = () => page.getByTestId('ai-task');

beforeAll(async () => {
  [lib, server, browser] = await Promise.all([makeTestLibrary(), startCliServer(), launchChromium()]);
  if (!server.admin) throw new Error(`no initial admin password was written:\n${server.output()}`);
  token = await apiLogin(server.url, server.admin.name, server.admin.password);
  await api('POST', '/api/config/folders', { name: 'lib', path: lib.root });
  const scan = await runCli(['--data-dir', server.dataDir, 'scan', '--offline', '--json'], { timeoutMs: 60_000 });
  if (scan.code !== 0) throw new Error(`scan failed: ${scan.stderr}`);

  // five audio files of RJ100030 and one of RJ100001, queued in this order
  const tracks = audioHashes((await api('GET', '/api/tracks/100030')) as unknown as Node[]);
  const other = audioHashes((await api('GET', '/api/tracks/100001')) as unknown as Node[]);
  expect(tracks.length).toBe(5);
  const created: number[] = [];
  for (const t of [...tracks, other[0]]) created.push(((await api('PUT', `/api/lyric/translate/${t.hash}`)) as { id: number }).id);
  [ids.transcribing, ids.success, ids.error, ids.pendingA, ids.pendingB, ids.other] = created;
  pendingBHash = tracks[4].hash;

  // a worker token "lab-box"
  const issued = await runCli(['--data-dir', server.dataDir, 'worker-token', 'create', 'lab-box'], { timeoutMs: 60_000 });
  if (issued.code !== 0) throw new Error(`worker-token create failed: ${issued.stderr}`);
  workerToken = issued.stdout.trim();

  // workers calling themselves "gpu-box" take the first three (oldest first): one is working (the admin
  // acting as a worker), one succeeded (a worker token), one failed
  expect(await acquire()).toBe(ids.transcribing);
  await api('POST', '/api/lyric/translate/status', { id: String(ids.transcribing), secret: secrets[ids.transcribing], worker_status: 'transcribing 2/5 chunks' });
  expect(await acquire(workerToken)).toBe(ids.success);
  await api('POST', '/api/lyric/translate/finish', { id: ids.success, secret: secrets[ids.success], success: true, lrc_content: '[00:00.00]はじめに\n[00:01.50]AI の歌詞\n' }, workerToken);
  expect(await acquire()).toBe(ids.error);
  await api('POST', '/api/lyric/translate/finish', { id: ids.error, secret: secrets[ids.error], success: false, lrc_content: '' });

  ({ context, page, errors } = await openLoggedInPage(browser, token, { baseURL: server.url, viewport: VIEWPORTS.desktop }));
  context.setDefaultTimeout(15_000);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
  lib?.cleanup();
});

describe('the AI lyric centre', () => {
  it('lists the tasks with status, worker name, the account behind it, worker status and progress', async () => {
    await page.goto('/ai_lyric');
    await page.getByTestId('ai-total').getByText('共 6 个任务').waitFor();
    expect(await cards().count()).toBe(6);

    const working = card(ids.transcribing);
    expect(await working.getAttribute('data-status')).toBe('transcribing');
    await working.getByText('转写中').waitFor();
    await working.getByTestId('ai-task-worker').getByText('gpu-box · transcribing 2/5 chunks').waitFor();
    // the self-chosen worker name is shown with the account that really acquired the task
    expect(await working.getByTestId('ai-task-account').textContent()).toBe(`领取账号：用户 ${server.admin!.name}`);
    expect(await card(ids.success).getByTestId('ai-task-account').textContent()).toBe('领取账号：令牌 lab-box');
    expect(await card(ids.pendingA).getByTestId('ai-task-account').count()).toBe(0);
    const bar = working.getByRole('progressbar');
    expect(await bar.getAttribute('aria-valuenow')).toBe('40');
    await working.getByRole('link', { name: 'RJ100030' }).waitFor();

    await card(ids.success).getByText('已完成').waitFor();
    await card(ids.error).getByText('失败').waitFor();
    await card(ids.pendingA).getByText('等待中').waitFor();
    await card(ids.pendingA).getByText('尚未被领取').waitFor();
    // file name and extension from audio_path
    await card(ids.other).getByRole('link', { name: 'RJ100001' }).waitFor();
    expect(errors).toEqual([]);
  });

  it('shows the LRC of a finished task', async () => {
    await card(ids.success).getByRole('button', { name: '查看歌词' }).click();
    const lrc = page.getByTestId('ai-lrc');
    await lrc.getByText('[00:01.50]AI の歌詞', { exact: false }).waitFor();
    await page.keyboard.press('Escape');
    await lrc.waitFor({ state: 'detached' });
  });

  it('filters by status, work id number (or code) and file name', async () => {
    // the filters live in the page: a retry starts from an unfiltered list too
    await page.goto('/ai_lyric');
    await page.getByTestId('ai-total').getByText('共 6 个任务').waitFor();
    // the pill box around the input takes the click (Mantine MultiSelect)
    const statusFilter = page.locator('.mantine-MultiSelect-input').filter({ has: page.getByTestId('ai-filter-status') });
    await statusFilter.click();
    await page.getByRole('option', { name: '失败' }).click();
    await page.keyboard.press('Escape');
    await expect.poll(() => cards().count()).toBe(1);
    expect(await cards().first().getAttribute('data-task-id')).toBe(String(ids.error));
    // picking it again takes the condition off
    await statusFilter.click();
    await page.getByRole('option', { name: '失败' }).click();
    await page.keyboard.press('Escape');
    await expect.poll(() => cards().count()).toBe(6);

    const work = page.getByTestId('ai-filter-work');
    await work.fill('RJ100001');
    await expect.poll(() => cards().count()).toBe(1);
    await work.fill('100030');
    await expect.poll(() => cards().count()).toBe(5);
    await work.fill('not a code');
    await page.getByText('作品编号无效').waitFor();
    await work.fill('');
    await expect.poll(() => cards().count()).toBe(6);

    await page.getByTestId('ai-filter-file').fill('track1');
    await expect.poll(() => cards().count()).toBe(3); // track1.mp3, track10.mp3, track1.wav
    await page.getByTestId('ai-filter-file').fill('');
    await expect.poll(() => cards().count()).toBe(6);
  });

  it('retries a failed task: back to pending', async () => {
    // a retry finds the task its failed attempt put back in the queue: a worker fails it again (the
    // oldest pending task: the ones queued before it are taken)
    if ((await taskOf(ids.error))?.status !== 4) {
      expect(await acquire()).toBe(ids.error);
      await api('POST', '/api/lyric/translate/finish', { id: ids.error, secret: secrets[ids.error], success: false, lrc_content: '' });
      await page.goto('/ai_lyric');
    }
    const failed = card(ids.error);
    await failed.getByTestId('ai-task-retry').click();
    await page.getByText('已重新加入转写队列').waitFor();
    await expect.poll(() => failed.getAttribute('data-status')).toBe('pending');
    const list = (await api('GET', `/api/lyric/translate?page=1&status=[]&work_id=100030`)) as { tasks: { id: number; status: number; worker_name: string }[] };
    expect(list.tasks.find((t) => t.id === ids.error)).toMatchObject({ status: 1, worker_name: '' });
  });

  it('follows the queue on its own (5 s auto refresh)', async () => {
    // a retry finds the task its failed attempt finished: back in the queue, taken again (the oldest), working
    if ((await taskOf(ids.transcribing))?.status !== 2) {
      await api('POST', `/api/lyric/translate/redo/${ids.transcribing}`);
      expect(await acquire()).toBe(ids.transcribing);
      await api('POST', '/api/lyric/translate/status', { id: String(ids.transcribing), secret: secrets[ids.transcribing], worker_status: 'transcribing 2/5 chunks' });
      await page.goto('/ai_lyric');
      await expect.poll(() => card(ids.transcribing).getAttribute('data-status')).toBe('transcribing');
    }
    await api('POST', '/api/lyric/translate/finish', { id: ids.transcribing, secret: secrets[ids.transcribing], success: true, lrc_content: '[00:00.00]おわり\n' });
    // no click: the list refreshes itself
    await expect.poll(() => card(ids.transcribing).getAttribute('data-status'), { timeout: 15_000 }).toBe('success');
  });

  it('deletes a task after asking', async () => {
    // a retry finds the task its failed attempt deleted: queued again
    if (!(await taskOf(ids.pendingB))) ids.pendingB = ((await api('PUT', `/api/lyric/translate/${pendingBHash}`)) as { id: number }).id;
    await page.goto('/ai_lyric');
    await page.getByTestId('ai-total').getByText('共 6 个任务').waitFor();
    await card(ids.pendingB).getByRole('button', { name: /^删除 / }).click();
    await page.getByText('的转写任务吗？', { exact: false }).waitFor();
    await page.getByRole('dialog').getByRole('button', { name: '删除' }).click();
    await card(ids.pendingB).waitFor({ state: 'detached' });
    await page.getByTestId('ai-total').getByText('共 5 个任务').waitFor();
    expect(errors).toEqual([]);
  });

  it('fits 375 and 1280 px, light and dark (screenshots)', async () => {
    await toastsGone();
    for (const viewport of Object.values(VIEWPORTS)) {
      await page.setViewportSize(viewport);
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        await waitForColorScheme(page, colorScheme);
        expect(await scrollWidthOf(page)).toBeLessThanOrEqual(viewport.width);
        await screenshot(page, `ai-lyric-${viewport.width}-${colorScheme}`, cards().first());
      }
    }
    await page.setViewportSize(VIEWPORTS.desktop);
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('lets a guest look but not retry or delete', async () => {
    // a retry finds the guest its failed attempt made: made again
    const users = (await api('GET', '/api/credentials/users')) as { users: { name: string }[] };
    if (users.users.some((u) => u.name === 'visitor')) await api('DELETE', '/api/credentials/user', { users: [{ name: 'visitor' }] });
    await api('POST', '/api/credentials/user', { name: 'visitor', password: 'visitor-pass', group: 'guest' });
    const guest = await openLoggedInPage(browser, await apiLogin(server.url, 'visitor', 'visitor-pass'), { baseURL: server.url, viewport: VIEWPORTS.phone });
    try {
      await guest.page.goto('/ai_lyric');
      await guest.page.getByText('游客账号只能查看任务。').waitFor();
      await guest.page.getByTestId('ai-task').first().waitFor();
      expect(await guest.page.getByTestId('ai-task').count()).toBe(5);
      expect(await guest.page.getByTestId('ai-task-retry').count()).toBe(0);
      expect(await guest.page.getByRole('button', { name: /^删除 / }).count()).toBe(0);
      expect(guest.errors).toEqual([]);
    } finally {
      await guest.context.close();
    }
  });
});
