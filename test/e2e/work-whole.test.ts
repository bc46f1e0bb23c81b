/**
 * End to end: a whole work from the work page (play all, shuffle, the work's and a folder's zip) and
 * the AI centre's "no worker is running" hint, against the built `kikoplay serve` with a scanned
 * fixture library in headless Chromium. Screenshots of both screens.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { shots } from '../helpers/browser.js';
import { servedApp } from '../helpers/e2e.js';
import { makeTestLibrary } from '../helpers/library.js';
import { tempDir } from '../helpers/app.js';

const run = promisify(execFile);

const app = servedApp({ library: makeTestLibrary });

/** Every audio file of RJ100030 in the order of its file tree (sub-folders first, natural order). */
const TREE_ORDER = ['track1.mp3', 'track2.mp3', 'track10.mp3', 'track1.wav', 'track0.m4a'];

interface Node {
  type: string;
  title: string;
  hash?: string;
  children?: Node[];
}

/** The hash of the file titled `title` anywhere in the tree. */
const hashOf = (nodes: Node[], title: string): string | undefined => {
  for (const n of nodes) {
    if (n.type !== 'folder' && n.title === title) return n.hash;
    const inner = n.children ? hashOf(n.children, title) : undefined;
    if (inner) return inner;
  }
  return undefined;
};

function listTree(dir: string, base = ''): string[] {
  const out: string[] = [];
  for (const d of readdirSync(path.join(dir, base), { withFileTypes: true })) {
    const rel = base ? `${base}/${d.name}` : d.name;
    if (d.isDirectory()) out.push(...listTree(dir, rel));
    else out.push(rel);
  }
  return out.sort();
}

async function openQueue(page: Page): Promise<string[]> {
  if (!(await page.getByTestId('expanded-player').isVisible())) {
    await page.getByTestId('player-bar-open').click();
    await page.getByTestId('expanded-player').waitFor();
  }
  await page.getByTestId('queue-open').click();
  await page.getByTestId('queue-list').waitFor();
  return page.getByTestId('queue-title').allTextContents();
}

/** Download `href` (a link of the page) and unpack it with the system's unzip. */
async function unpack(href: string): Promise<string> {
  const res = await fetch(new URL(href, app.url));
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/zip');
  const dir = tempDir('kikoplay-e2e-zip-');
  const zip = path.join(dir, 'a.zip');
  writeFileSync(zip, Buffer.from(await res.arrayBuffer()));
  await run('unzip', ['-q', zip, '-d', path.join(dir, 'out')], { env: { ...process.env, LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' } });
  return path.join(dir, 'out');
}

describe('a whole work from the work page', { timeout: 120_000 }, () => {
  it('plays all audio in tree order from the first, shuffles the same tracks, and links the zip downloads', async () => {
    const user = await app.addUser('user');
    const { page, errors } = await app.open({ as: user, timeout: 20_000 });
    await page.goto('/work/100030');
    await page.getByTestId('tree-item').first().waitFor();

    // the tracks are short and play on: the first one asked for tells where play all started
    const tree = await app.api<Node[]>('GET', '/api/tracks/100030', undefined, user.token);
    const firstStream = page.waitForRequest((r) => r.url().includes('/api/media/stream/'));
    await page.getByTestId('play-all').click();
    expect(/\/api\/media\/stream\/(\d+\/\d+)/.exec((await firstStream).url())?.[1]).toBe(hashOf(tree, TREE_ORDER[0]));
    expect(await openQueue(page)).toEqual(TREE_ORDER);
    await page.keyboard.press('Escape');
    expect(await page.getByTestId('player-mode').first().getAttribute('data-mode')).toBe('order');

    await page.getByTestId('player-collapse').click();
    await page.getByTestId('expanded-player').waitFor({ state: 'hidden' });
    await page.getByTestId('play-shuffle').click();
    const shuffled = await openQueue(page);
    expect([...shuffled].sort()).toEqual([...TREE_ORDER].sort());
    await page.keyboard.press('Escape');
    // the player's own shuffle mode (its button is in the expanded player)
    expect(await page.getByTestId('player-mode').first().getAttribute('data-mode')).toBe('shuffle');
    await page.getByTestId('player-collapse').click();
    await page.getByTestId('expanded-player').waitFor({ state: 'hidden' });

    // the work's zip: every file of the work folder, byte for byte, under the work folder's name
    const workHref = await page.getByTestId('download-work').getAttribute('href');
    expect(workHref).toMatch(/^\/api\/media\/download-work\/100030\?token=/);
    const out = await unpack(workHref!);
    const onDisk = path.join(app.libRoot, 'circle-a', 'RJ100030 nested');
    expect(readdirSync(out)).toEqual(['RJ100030 nested']);
    const files = listTree(path.join(out, 'RJ100030 nested'));
    expect(files).toEqual(listTree(onDisk));
    for (const rel of files) expect(readFileSync(path.join(out, 'RJ100030 nested', rel)).equals(readFileSync(path.join(onDisk, rel))), rel).toBe(true);

    // a folder's zip from its menu in the tree
    await page.locator('[data-testid="tree-item"][data-title="mp3"]').getByTestId('tree-item-menu').click();
    const folderHref = await page.getByTestId('tree-folder-zip').getAttribute('href');
    expect(folderHref).toMatch(/^\/api\/media\/download-work\/100030\?path=mp3&token=/);
    await page.keyboard.press('Escape');
    expect(listTree(await unpack(folderHref!))).toEqual(['mp3/SEなし/track1.mp3', 'mp3/SEなし/track10.mp3', 'mp3/SEなし/track2.mp3', 'mp3/track1.lrc']);

    await page.evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0));
    await shots(page, 'work-whole', page.getByTestId('whole-work'));
    expect(errors).toEqual([]);
  });
});

describe('the AI centre when no worker runs', { timeout: 120_000 }, () => {
  it('shows admins the worker command with a fresh token, and others that an admin must start one', async () => {
    const user = await app.addUser('user');
    const tree = await app.api<{ type: string; hash?: string }[]>('GET', '/api/tracks/100030', undefined, user.token);
    const first = tree.find((n) => n.type === 'audio')!;
    await app.api('PUT', `/api/lyric/translate/${first.hash}`, undefined, user.token);

    const asUser = await app.open({ as: user, timeout: 20_000 });
    await asUser.page.goto('/ai_lyric');
    await asUser.page.getByTestId('ai-worker-hint').waitFor();
    expect(await asUser.page.getByTestId('ai-worker-hint').textContent()).toContain('请联系管理员启动一个工作节点');
    expect(await asUser.page.getByTestId('ai-worker-make-token').count()).toBe(0);
    expect(asUser.errors).toEqual([]);

    const admin = await app.addUser('admin');
    const { page, errors } = await app.open({ as: admin, timeout: 20_000 });
    await page.goto('/ai_lyric');
    const hint = page.getByTestId('ai-worker-hint');
    await hint.waitFor();
    expect(await hint.textContent()).toContain('服务器启动以来还没有工作节点连接过');
    await page.getByTestId('ai-worker-make-token').click();
    const command = page.getByTestId('ai-worker-command');
    await command.waitFor();
    const line = (await command.textContent()) ?? '';
    expect(line).toMatch(new RegExp(`^kikoplay worker --server ${app.url.replace(/[.]/g, '\\.')} --token kpw_[A-Za-z0-9_-]{43}$`));

    await shots(page, 'ai-worker-hint', hint);

    // the token made there is a worker token the worker routes take
    const token = line.split('--token ')[1];
    const acquired = await fetch(`${app.url}/api/lyric/translate/acquire`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'worker_name=e2e',
    });
    expect(acquired.status).toBe(200);
    expect(errors).toEqual([]);
  });
});
