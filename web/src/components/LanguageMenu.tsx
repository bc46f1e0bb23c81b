/**
 * The interface language menu (header and login page): each language under its own name. The choice is
 * remembered in this browser and, with `account`, saved on the logged-in user's account.
 */
import { ActionIcon, Menu } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { IconCheck, IconWorld } from '@tabler/icons-react';
import type { Session } from '../api/types.js';
import { SESSION_KEY } from '../api/session.js';
import { saveAccountLocale } from '../i18n/account.js';
import { LANGUAGE_NAMES, LOCALES, locale, setLocale, t, type Locale } from '../i18n/index.js';
import { notifyWarning } from '../lib/notify.js';
import { HoverTip } from './HoverTip.js';

export function LanguageMenu({ account = false }: { account?: boolean }) {
  const queryClient = useQueryClient();
  const active = locale();

  const choose = (next: Locale) => {
    void setLocale(next).catch(() => notifyWarning(t.routeError.chunk));
    if (!account) return;
    queryClient.setQueryData<Session>(SESSION_KEY, (s) => (s && 'locale' in s.user ? { ...s, user: { ...s.user, locale: next } } : s));
    void saveAccountLocale(next).catch(() => notifyWarning(t.language.saveFailed));
  };

  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <HoverTip label={t.language.menu}>
          <ActionIcon variant="subtle" color="gray" size="lg" aria-label={t.language.menu} data-testid="language-menu" data-locale={active}>
            <IconWorld size={20} stroke={1.7} />
          </ActionIcon>
        </HoverTip>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t.language.menu}</Menu.Label>
        {LOCALES.map((l) => (
          <Menu.Item key={l} lang={l} onClick={() => choose(l)} rightSection={l === active ? <IconCheck size={14} /> : null} data-testid={`language-${l}`}>
            {LANGUAGE_NAMES[l]}
          </Menu.Item>
        ))}
        <Menu.Divider />
        <Menu.Label maw={260} style={{ whiteSpace: 'normal' }}>
          {t.language.hint}
        </Menu.Label>
      </Menu.Dropdown>
    </Menu>
  );
}
