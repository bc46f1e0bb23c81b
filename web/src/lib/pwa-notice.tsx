/** The '版本已更新' notice: 10 s, with a refresh action. */
import { Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconRefresh } from '@tabler/icons-react';
import { t } from '../i18n/index.js';

/** How long the update notice stays. */
export const UPDATE_NOTICE_MS = 10_000;
const NOTICE_ID = 'sw-update';

export function showUpdateNotice(onRefresh: () => void): void {
  notifications.show({
    id: NOTICE_ID,
    color: 'violet',
    autoClose: UPDATE_NOTICE_MS,
    icon: <IconRefresh size={18} />,
    message: (
      <Group justify="space-between" gap="sm" wrap="nowrap" data-testid="sw-update-notice">
        <Text size="sm">{t.library.pwa.updated}</Text>
        <Button
          size="compact-sm"
          variant="light"
          data-testid="sw-refresh"
          onClick={() => {
            notifications.hide(NOTICE_ID);
            onRefresh();
          }}
        >
          {t.library.pwa.refresh}
        </Button>
      </Group>
    ),
  });
}
