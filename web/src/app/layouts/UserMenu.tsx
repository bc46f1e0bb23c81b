/** The header's user menu: who is logged in, the account page, and logging out (when auth is on). */
import { Link } from 'react-router';
import { ActionIcon, Menu } from '@mantine/core';
import { IconLogout, IconUserCircle, IconUserCog } from '@tabler/icons-react';
import { HoverTip } from '../../components/HoverTip.js';
import { useLogout } from '../../features/auth/use-logout.js';
import { useSession } from '../../features/auth/use-session.js';
import { t } from '../../i18n/index.js';

export function UserMenu() {
  const session = useSession();
  const logout = useLogout();
  const data = session.data;
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <HoverTip label={t.account.menu}>
          <ActionIcon variant="subtle" color="gray" size="lg" aria-label={t.account.menu} data-testid="user-menu">
            <IconUserCircle size={20} stroke={1.7} />
          </ActionIcon>
        </HoverTip>
      </Menu.Target>
      <Menu.Dropdown>
        {data?.auth && <Menu.Label>{t.account.signedInAs(data.user.name)}</Menu.Label>}
        <Menu.Item component={Link} to="/account" leftSection={<IconUserCog size={16} />} data-testid="account-link">
          {t.account.link}
        </Menu.Item>
        {data?.auth && (
          <Menu.Item leftSection={<IconLogout size={16} />} onClick={logout} data-testid="user-menu-logout">
            {t.logout.label}
          </Menu.Item>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}
