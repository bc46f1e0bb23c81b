/**
 * End to end: `kikoplay serve --no-auth` in headless Chromium. With auth off there is nothing to log
 * in to: /login goes home, everyone acts as the admin, and the drawer offers no logout.
 */
import { describe, expect, it } from 'vitest';
import { readLocal, TOKEN_KEY } from '../helpers/browser.js';
import { servedApp } from '../helpers/e2e.js';

const app = servedApp({ args: ['--no-auth'] });

describe('the web app with auth off on the server', () => {
  it('sends /login home, shows the admin link and offers no logout', async () => {
    const { page, errors } = await app.open();
    await page.goto('/login?redirect=%2Fabout');
    await page.waitForURL((url) => url.pathname === '/works');
    await page.getByTestId('menu-toggle').click();
    const drawer = page.getByTestId('nav-drawer');
    await drawer.getByText('管理后台', { exact: true }).waitFor();
    expect(await page.getByTestId('logout').count()).toBe(0);
    // the main area opens without any token
    await page.goto('/about');
    await page.getByTestId('about-page').waitFor();
    expect(await readLocal(page, TOKEN_KEY)).toBeNull();
    // and so does the admin layout
    await page.goto('/admin/usermanage');
    await page.getByTestId('admin-nav').waitFor();
    expect(errors).toEqual([]);
  });
});
