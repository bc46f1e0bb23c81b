/**
 * The interface language saved on the account (PUT /api/auth/me/locale, `locale` in GET /api/auth/me).
 * Once logged in the account's choice wins over the browser's; an account without one takes the
 * choice made on this browser.
 */
import { api } from '../api/client.js';
import { isLocale, rememberedLocale, setLocale, type Locale } from './index.js';

export const saveAccountLocale = (next: Locale) => api<{ locale: Locale }>('PUT', '/api/auth/me/locale', { body: { locale: next } });

/** Follow the session's saved language, or save this browser's choice on an account that has none. */
export function adoptAccountLocale(user: { locale?: string | null } | undefined): void {
  if (!user || !('locale' in user)) return; // a worker token, or a server without the field
  if (isLocale(user.locale)) {
    void setLocale(user.locale).catch(() => undefined); // stays in this language; the menu can try again
    return;
  }
  const chosen = rememberedLocale();
  if (chosen) void saveAccountLocale(chosen).catch(() => undefined);
}
