/**
 * On every page while the logged-in user's password is still the one the server generated (the first
 * admin's, `mustChangePassword`): a banner that asks for a change and links to the account page.
 */
import { Link } from 'react-router';
import { Alert, Anchor, Group, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { Session } from '../../api/types.js';
import { t } from '../../i18n/index.js';

export function PasswordBanner({ session }: { session: Session }) {
  if (!session.auth || !session.user.mustChangePassword) return null;
  return (
    <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} />} mb="md" role="status" data-testid="password-banner">
      <Group gap="xs" justify="space-between" wrap="wrap">
        <Text size="sm">{t.account.banner}</Text>
        <Anchor component={Link} to="/account" size="sm" fw={600} c="var(--mantine-color-text)" underline="always">
          {t.account.bannerLink}
        </Anchor>
      </Group>
    </Alert>
  );
}
