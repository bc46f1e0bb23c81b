/** The main header: menu toggle, back, title home, keyword box, advanced search, interface language, user menu. */
import { Link, useLocation, useNavigate } from 'react-router';
import { ActionIcon, Anchor, Burger, Group, Text } from '@mantine/core';
import { IconAdjustmentsSearch, IconArrowLeft, IconHeadphones } from '@tabler/icons-react';
import { HoverTip } from '../../components/HoverTip.js';
import { t } from '../../i18n/index.js';
import { KeywordBox } from './KeywordBox.js';
import { FullScreenLink } from '../../features/player/FullScreenLink.js';
import { LanguageMenu } from '../../components/LanguageMenu.js';
import { UserMenu } from './UserMenu.js';

/** Where the back button is hidden. */
const NO_BACK = new Set(['/', '/works', '/favourites']);

interface AppHeaderProps {
  menuOpen: boolean;
  onToggleMenu(): void;
}

export function AppHeader({ menuOpen, onToggleMenu }: AppHeaderProps) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const showBack = !NO_BACK.has(pathname.replace(/\/+$/, '') || '/');
  const showKeyword = pathname !== '/search';

  const back = () => {
    // The router counts entries it pushed; with none (page opened directly) go home instead of leaving.
    const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (idx > 0) void navigate(-1);
    else void navigate('/works');
  };

  return (
    <Group h="100%" px={{ base: 'xs', sm: 'md' }} gap="xs" wrap="nowrap">
      <Burger opened={menuOpen} onClick={onToggleMenu} size="sm" aria-label={t.header.menu} data-testid="menu-toggle" />
      {showBack && (
        <HoverTip label={t.header.back}>
          <ActionIcon variant="subtle" color="gray" size="lg" onClick={back} aria-label={t.header.back}>
            <IconArrowLeft size={20} />
          </ActionIcon>
        </HoverTip>
      )}
      <Anchor component={Link} to="/" underline="never" c="var(--mantine-color-text)" aria-label={`${t.app.name} · ${t.header.home}`} style={{ flexShrink: 0 }}>
        <Group gap={6} wrap="nowrap">
          <IconHeadphones size={24} stroke={1.7} color="var(--mantine-primary-color-filled)" aria-hidden />
          <Text component="span" fw={700} fz="lg" visibleFrom="xs">
            {t.app.name}
          </Text>
        </Group>
      </Anchor>
      <Group gap="xs" wrap="nowrap" justify="flex-end" style={{ flex: 1, minWidth: 0 }}>
        {showKeyword && <KeywordBox />}
        <FullScreenLink />
        <HoverTip label={t.header.advancedSearch}>
          <ActionIcon component={Link} to="/search" variant="subtle" color="gray" size="lg" aria-label={t.header.advancedSearch}>
            <IconAdjustmentsSearch size={20} />
          </ActionIcon>
        </HoverTip>
        <LanguageMenu account />
        <UserMenu />
      </Group>
    </Group>
  );
}
