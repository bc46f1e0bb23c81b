/**
 * End to end, issue 22 item 8 (the admin's half), against the built `kikoplay serve` over a scanned
 * fixture library in headless Chromium: Enter adds the typed tag in the metadata editor and Esc closes
 * only the open list; the advanced settings show the cover folder and database file in use; a too-short
 * login name is said as a name in all three languages; an admin creates another admin from the users
 * page; the About page tells how kikoplay runs today (no `npx kikoplay`). Screenshots of the users page
 * and the settings page at 375 and 1280 px, light and dark.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { shots, toastShown } from '../helpers/browser.js';
import { servedApp, uniqueName } from '../helpers/e2e.js';
import { makeTestLibrary } from '../helpers/library.js';
import { labelWorks } from '../helpers/work-labels.js';

const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 20_000, interval: 100 });

const app = servedApp({
  library: makeTestLibrary,
  seed: ({ api }) =>
    labelWorks(api, [
      // 耳かき exists as a tag (of 100001); 100002 starts with 癒やし only
      { id: 100001, title: '耳かきと添い寝', circle: 'テストサークル', tags: ['耳かき'], vas: ['山田花子'] },
      { id: 100002, title: '波の音', circle: 'テストサークル', tags: ['癒やし'], vas: ['佐藤さくら'] },
    ]),
});

describe('the admin polish of issue 22', { timeout: 120_000 }, () => {
  it('the tag editor: Enter adds the typed tag (the existing one when it exists), Esc closes only the list', async () => {
    // a busy machine: room for the dialog's lazy chunk and the candidates
    const { page, errors } = await app.open({ as: app.admin, timeout: 45_000 });
    await page.goto('/work/100002');
    await page.getByTestId('action-edit').click();
    const dialog = page.getByTestId('edit-meta-dialog');
    const box = page.getByTestId('edit-tags');
    const pills = () => page.getByTestId('edit-tags-list').locator('.mantine-Pill-label').allTextContents();
    await poll(pills).toEqual(['癒やし']);

    // a new name: Enter adds it as a new tag (*), and the box is empty again
    await box.fill('エンターで追加');
    await box.press('Enter');
    await poll(pills).toEqual(['癒やし', 'エンターで追加 *']);
    expect(await box.inputValue()).toBe('');
    // the name of an existing tag, Enter at once (before the list has caught up): that tag, not a new one
    await box.fill('耳かき');
    await box.press('Enter');
    await poll(pills).toEqual(['癒やし', 'エンターで追加 *', '耳かき']);

    // Esc with the list open closes the list; the dialog stays and still works
    await box.fill('abc');
    const list = page.getByRole('listbox');
    await list.waitFor();
    await box.press('Escape');
    await list.waitFor({ state: 'hidden' });
    await box.fill('そのまま');
    await box.press('Enter');
    await poll(pills).toEqual(['癒やし', 'エンターで追加 *', '耳かき', 'そのまま *']);
    expect(await page.getByTestId('edit-title').isVisible()).toBe(true);
    // with no list open, Esc closes the dialog, and nothing was saved
    await box.press('Escape');
    await dialog.getByTestId('edit-title').waitFor({ state: 'detached' });
    const saved = await app.api<{ tags: { name: string }[] }>('GET', '/api/work/100002');
    expect(saved.tags.map((t) => t.name)).toEqual(['癒やし']);
    expect(errors).toEqual([]);
  });

  it('the advanced settings show the cover folder and database file in use (screenshots)', async () => {
    const { page, errors } = await app.open({ as: app.admin });
    await page.goto('/admin/advanced');
    const paths = page.getByTestId('effective-paths');
    await paths.waitFor();
    expect(await paths.getByText('正在使用的路径').count()).toBe(1);
    expect(await page.getByTestId('effective-cover-dir').textContent()).toBe(path.join(app.dataDir, 'covers'));
    expect(await page.getByTestId('effective-database-file').textContent()).toBe(path.join(app.dataDir, 'kikoplay.db'));
    await shots(page, 'admin-advanced-paths', paths);
    expect(errors).toEqual([]);
  });

  it('the login page says a too-short name is too short, in all three languages', async () => {
    const { page, errors } = await app.open();
    await page.goto('/login');
    const fieldErrors = () => page.locator('.mantine-InputWrapper-error').allTextContents();
    const submit = async (name: string, password: string) => {
      await page.locator('input[name="name"]').fill(name);
      await page.locator('input[name="password"]').fill(password);
      await page.locator('button[type="submit"]').click();
    };
    // zh-CN (the browser's language): each field its own message
    await submit('abc', '1234');
    await poll(fieldErrors).toEqual(['用户名长度至少为 5', '密码长度至少为 5']);
    const said: [string, string, string][] = [
      ['简体中文', 'zh-CN', '用户名长度至少为 5'],
      ['English', 'en', 'Username must be at least 5 characters'],
      ['日本語', 'ja', 'ユーザー名は 5 文字以上にしてください'],
    ];
    for (const [language, code, text] of said) {
      await page.getByTestId('language-menu').first().click();
      await page.getByRole('menuitem', { name: language, exact: true }).click();
      // a language not loaded yet switches when its catalogue arrives, and the page is drawn anew
      await page.locator(`[data-testid="language-menu"][data-locale="${code}"]`).first().waitFor();
      await submit('abc', 'long-enough');
      await poll(fieldErrors).toEqual([text]);
    }
    expect(page.url()).toMatch(/\/login$/);
    expect(errors).toEqual([]);
  });

  it('an admin creates another admin from the users page (screenshots)', async () => {
    const { page, errors } = await app.open({ as: app.admin, timeout: 20_000 });
    await page.goto('/admin/usermanage');
    const form = page.getByTestId('add-user');
    const name = uniqueName('admin2');
    await form.getByLabel('用户名').fill(name);
    await form.getByLabel('密码').fill(`${name}-pass`);
    await form.getByText('管理员 (administrator)').click();
    await shots(page, 'admin-users-create', form.getByRole('button', { name: '添加用户' }));
    await form.getByRole('button', { name: '添加用户' }).click();
    await toastShown(page, `用户 ${name} 创建成功.`);
    const row = page.locator(`[data-testid="user-row"][data-name="${name}"]`);
    await poll(() => row.getByLabel(`角色 ${name}`).inputValue()).toBe('管理员');
    const users = await app.api<{ users: { name: string; group: string; role: string }[] }>('GET', '/api/credentials/users');
    expect(users.users.find((u) => u.name === name)).toMatchObject({ group: 'administrator', role: 'admin' });
    expect(errors).toEqual([]);
  });

  it('the About page tells how kikoplay runs today, without npx', async () => {
    const user = await app.addUser('user', 'reader');
    const { page, errors } = await app.open({ as: user });
    await page.goto('/about');
    const about = page.getByTestId('about-page');
    await about.waitFor();
    expect(await page.getByTestId('install-commands').textContent()).toBe('npm ci\nnpm run build\nnpm run serve');
    await about.getByText('kikoplay 尚未发布到 npm', { exact: false }).waitFor();
    expect(await about.textContent()).not.toContain('npx');
    expect(errors).toEqual([]);
  });
});
