/**
 * End to end: the account page's Subsonic section (docs/API.md#subsonic-api), against the built
 * `kikoplay serve` in headless Chromium. A user makes an API key (shown once), a native app signs in with
 * it on /rest, the key's last use shows up, a second key of the same name is refused on its field, and a
 * revoked key stops working. The Subsonic password: too short is refused on the page, a saved one signs
 * in with the salted token form, a removed one no longer does. A guest sees the keys an admin made, and
 * no form. Screenshots at 375 and 1280 px, light and dark.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { shots } from '../helpers/browser.js';
import { servedApp } from '../helpers/e2e.js';
import { runCli } from '../helpers/run-cli.js';
import { zhCN } from '../../web/src/i18n/account-subsonic/zh-CN.js';

const M = zhCN;
const app = servedApp();

/** A /rest call as a native app makes it; the `subsonic-response` of its JSON answer. */
async function rest(method: string, credentials: Record<string, string>): Promise<{ status: string; error?: { code: number } }> {
  const query = new URLSearchParams({ ...credentials, v: '1.16.1', c: 'e2e-app', f: 'json' });
  const res = await fetch(`${app.url}/rest/${method}.view?${query}`);
  return ((await res.json()) as { 'subsonic-response': { status: string; error?: { code: number } } })['subsonic-response'];
}

/** The salted md5 token form of a password (what most Subsonic apps send). */
function tokenCredentials(user: string, password: string): Record<string, string> {
  const s = 'e2esalt42';
  return {
    u: user,
    t: createHash('md5')
      .update(password + s)
      .digest('hex'),
    s,
  };
}

describe('the Subsonic section of the account page', { timeout: 180_000 }, () => {
  it('makes an API key shown once that a native app signs in with, lists its use, and revokes it', async () => {
    const user = await app.addUser('user', 'symfonium');
    const { page, errors } = await app.open({ as: user });
    await page.goto('/account');
    const section = page.getByTestId('subsonic-section');
    await section.getByTestId('subsonic-no-keys').waitFor();
    // the hint names this server's address for the app's settings
    await section.getByText(new URL(app.url).host, { exact: false }).waitFor();

    // an empty name is refused on its field
    await section.getByTestId('subsonic-make-key').click();
    await section.getByText(M.nameMissing).waitFor();
    await section.getByTestId('subsonic-key-name').fill('phone');
    await section.getByTestId('subsonic-make-key').click();
    const made = section.getByTestId('subsonic-new-key');
    await made.getByText(M.keyOnce).waitFor();
    const key = (await made.getByTestId('subsonic-key-value').innerText()).trim();
    expect(key).toMatch(/^kps_[A-Za-z0-9_-]{40,}$/);
    await shots(page, 'account-subsonic-key', made);

    expect(await rest('ping', { apiKey: key })).toMatchObject({ status: 'ok' });
    expect((await rest('getAlbumList2', { apiKey: key, type: 'newest' })).status).toBe('ok');
    // the key is shown once: after "done" and a reload only its name and use are listed
    await made.getByRole('button', { name: M.done }).click();
    await page.reload();
    const table = section.getByTestId('subsonic-keys');
    await table.getByText('phone', { exact: true }).waitFor();
    expect(await page.getByText(key).count()).toBe(0);
    expect(await table.getByText(M.never).count()).toBe(0);

    // a second key of the same name is refused on the field, and nothing is made
    await section.getByTestId('subsonic-key-name').fill('phone');
    await section.getByTestId('subsonic-make-key').click();
    await section.getByText(M.nameTaken).waitFor();
    expect(await table.getByRole('row').count()).toBe(2);

    await table.getByRole('button', { name: M.revokeNamed('phone') }).click();
    await section.getByTestId('subsonic-no-keys').waitFor();
    expect((await rest('ping', { apiKey: key })).error?.code).toBe(44);
    expect(errors).toEqual([]);
  });

  it('sets the Subsonic password for apps without API keys, never the login password, and removes it', async () => {
    const user = await app.addUser('user', 'feishin');
    const { page, errors } = await app.open({ as: user });
    await page.goto('/account');
    const section = page.getByTestId('subsonic-section');
    const state = section.getByTestId('subsonic-password-state');
    await state.getByText(M.passwordNone).waitFor();
    expect((await rest('ping', tokenCredentials(user.name, user.password))).error?.code).toBe(40);

    await section.getByTestId('subsonic-password').fill('short');
    await section.getByTestId('subsonic-save-password').click();
    await section.getByText(M.passwordTooShort(8)).waitFor();
    expect((await rest('ping', tokenCredentials(user.name, 'short'))).error?.code).toBe(40);

    await section.getByTestId('subsonic-password').fill('for-my-car-app');
    await section.getByTestId('subsonic-save-password').click();
    await state.getByText(M.passwordSet).waitFor();
    expect(await section.getByTestId('subsonic-password').inputValue()).toBe('');
    expect(await rest('ping', tokenCredentials(user.name, 'for-my-car-app'))).toMatchObject({ status: 'ok' });
    // the login password still does not open /rest
    expect((await rest('ping', tokenCredentials(user.name, user.password))).error?.code).toBe(40);
    await shots(page, 'account-subsonic-password', state);

    await section.getByRole('button', { name: M.clearPassword }).click();
    await state.getByText(M.passwordNone).waitFor();
    expect((await rest('ping', tokenCredentials(user.name, 'for-my-car-app'))).error?.code).toBe(40);
    expect(errors).toEqual([]);
  });

  it('shows a guest the keys an admin made for it, and no form', async () => {
    const guest = await app.addUser('guest', 'carguest');
    // an admin makes the guest's key in the terminal, next to the running server
    const made = await runCli(['--data-dir', app.dataDir, 'user', 'api-key', 'create', guest.name, '--label', 'car'], { lang: 'en' });
    expect(made.code).toBe(0);
    const key = made.stdout.trim();
    const { page, errors } = await app.open({ as: guest });
    await page.goto('/account');
    const section = page.getByTestId('subsonic-section');
    await section.getByText(M.guestNote).waitFor();
    const table = section.getByTestId('subsonic-keys');
    await table.getByText('car', { exact: true }).waitFor();
    expect(await table.getByRole('button').count()).toBe(0);
    expect(await section.getByTestId('subsonic-key-name').count()).toBe(0);
    expect(await section.getByTestId('subsonic-password').count()).toBe(0);
    // the account routes refuse a guest's own key too
    expect((await app.api.call('POST', '/api/auth/me/subsonic/keys', { name: 'mine' }, guest.token)).status).toBe(403);
    // the guest's app browses with the key, and may not write (error 50)
    expect((await rest('getAlbumList2', { apiKey: key, type: 'newest' })).status).toBe('ok');
    expect((await rest('star', { apiKey: key, albumId: 'al-1' })).error?.code).toBe(50);
    expect(errors).toEqual([]);
  });
});
