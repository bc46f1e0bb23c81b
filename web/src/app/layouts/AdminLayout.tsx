/**
 * The admin layout at /admin/*: its own drawer with the admin screens and a link back to
 * /. Admins only: anyone else is sent to /; without a session the generic 401 handler goes to /login.
 */
import { useState } from 'react';
import { Link, Navigate, useLocation } from 'react-router';
import { Anchor, AppShell, Burger, Drawer, Group, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconHome } from '@tabler/icons-react';
import { isAdminUser } from '../../api/types.js';
import { NavItem } from '../../components/NavItem.js';
import { useSession } from '../../features/auth/use-session.js';
import { t } from '../../i18n/index.js';
import { LanguageMenu } from '../../components/LanguageMenu.js';
import { DESKTOP_QUERY, DRAWER_WIDTH, HEADER_HEIGHT, MINI_WIDTH } from './layout-sizes.js';
import { adminNav } from './nav-links.js';
import { SessionOutlet } from './SessionOutlet.js';

function AdminNav({ mini, onNavigate }: { mini: boolean; onNavigate?: () => void }) {
  const { pathname } = useLocation();
  return (
    <Stack gap={4} p={mini ? 8 : 'xs'} data-testid="admin-nav">
      {adminNav().map((entry) => (
        <NavItem key={entry.to} icon={entry.icon} label={entry.label} to={entry.to} active={entry.isActive(pathname)} mini={mini} onClick={onNavigate} />
      ))}
    </Stack>
  );
}

export function AdminLayout() {
  const session = useSession();
  const desktop = useMediaQuery(DESKTOP_QUERY, undefined, { getInitialValueInEffect: false });
  const [expanded, setExpanded] = useState(false);
  const [phoneOpen, setPhoneOpen] = useState(false);

  if (session.isSuccess && !isAdminUser(session.data.user)) return <Navigate to="/" replace />;

  return (
    <AppShell header={{ height: HEADER_HEIGHT }} navbar={{ width: expanded ? DRAWER_WIDTH : MINI_WIDTH, breakpoint: 'sm', collapsed: { mobile: true } }} padding={{ base: 'sm', sm: 'md' }}>
      <AppShell.Header>
        <Group h="100%" px={{ base: 'xs', sm: 'md' }} gap="sm" wrap="nowrap">
          <Burger opened={desktop ? expanded : phoneOpen} onClick={() => (desktop ? setExpanded((v) => !v) : setPhoneOpen((v) => !v))} size="sm" aria-label={t.header.menu} data-testid="menu-toggle" />
          <Text component="h1" m={0} fw={700} fz="lg" style={{ flex: 1 }}>
            {t.admin.title}
          </Text>
          <LanguageMenu account />
          <Anchor component={Link} to="/" aria-label={t.admin.backHome} c="dimmed" style={{ display: 'flex' }}>
            <IconHome size={22} />
          </Anchor>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar>{desktop && <AdminNav mini={!expanded} />}</AppShell.Navbar>
      <Drawer opened={!desktop && phoneOpen} onClose={() => setPhoneOpen(false)} size={DRAWER_WIDTH} withCloseButton={false} padding={0} title={t.header.menu} styles={{ header: { display: 'none' } }}>
        <AdminNav mini={false} onNavigate={() => setPhoneOpen(false)} />
      </Drawer>
      <AppShell.Main>
        <SessionOutlet session={session} />
      </AppShell.Main>
    </AppShell>
  );
}
