/** The drawer content of the main layout: nav links, the dark-mode cycle and logout. */
import { Link, useLocation, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { Anchor, Divider, Group, ScrollArea, Stack, Text } from '@mantine/core';
import { IconArrowsShuffle, IconHeadphones, IconLogout } from '@tabler/icons-react';
import type { Session } from '../../api/types.js';
import { isAdminUser } from '../../api/types.js';
import { NavItem } from '../../components/NavItem.js';
import { useDarkMode } from '../../components/use-dark-mode.js';
import { useLogout } from '../../features/auth/use-logout.js';
import { t } from '../../i18n/index.js';
import { mainNav } from './nav-links.js';
import { SleepTimerNavItem } from '../../features/sleep-timer/SleepTimerNavItem.js';

interface MainNavProps {
  session: Session | undefined;
  mini: boolean;
  /** Called after a link is followed (closes the phone drawer). */
  onNavigate?: () => void;
  /** Show the app name on top (the phone drawer covers the header). */
  brand?: boolean;
}

export function MainNav({ session, mini, onNavigate, brand = false }: MainNavProps) {
  const { pathname } = useLocation();
  const dark = useDarkMode();
  const logout = useLogout();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // random play is loaded on first use: it is not part of the first page load
  const randomPlay = () => {
    onNavigate?.();
    void import('../../features/works/random-play.js').then((m) => m.randomPlay(navigate, queryClient));
  };
  const admin = isAdminUser(session?.user);
  const links = mainNav().filter((entry) => !entry.adminOnly || admin);

  return (
    <Stack h="100%" gap={0} data-testid="nav-drawer">
      {brand && (
        <>
          <Anchor component={Link} to="/" onClick={onNavigate} underline="never" c="var(--mantine-color-text)" px="md" py="sm">
            <Group gap={8} wrap="nowrap">
              <IconHeadphones size={26} stroke={1.7} color="var(--mantine-primary-color-filled)" aria-hidden />
              <Text fw={700} fz="lg">
                {t.app.name}
              </Text>
            </Group>
          </Anchor>
          <Divider />
        </>
      )}
      <ScrollArea style={{ flex: 1 }} type="never">
        <Stack gap={4} p={mini ? 8 : 'xs'}>
          {links.map((entry) => (
            <NavItem key={entry.to} icon={entry.icon} label={entry.label} to={entry.to} active={entry.isActive(pathname)} mini={mini} onClick={onNavigate} />
          ))}
        </Stack>
      </ScrollArea>
      <Divider />
      <Stack gap={4} p={mini ? 8 : 'xs'}>
        <NavItem icon={IconArrowsShuffle} label={t.library.works.random} onClick={randomPlay} mini={mini} testId="random-play" />
        <SleepTimerNavItem mini={mini} onNavigate={onNavigate} />
        <NavItem icon={dark.icon} label={dark.label} onClick={dark.cycle} mini={mini} testId="dark-mode-cycle" />
        {session?.auth && <NavItem icon={IconLogout} label={t.logout.label} description={session.user.name} onClick={logout} mini={mini} testId="logout" />}
      </Stack>
    </Stack>
  );
}
