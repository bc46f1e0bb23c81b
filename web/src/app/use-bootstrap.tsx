/**
 * What the main layout loads once the session is known:
 * the version (update notice 5 s when `update_available && notifyUser`; for the admin only, the
 * library-lock notice 60 s with the scan's start in the viewer's time and a link to the scanner) and
 * the shared config into its store.
 */
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCloudDownload, IconLock } from '@tabler/icons-react';
import { fetchSharedConfig } from '../api/session.js';
import { formatDateTime } from '../i18n/format.js';
import type { VersionInfo } from '../api/types.js';
import { t } from '../i18n/index.js';
import { useSharedConfig } from '../lib/shared-config.js';
import { useVersion } from './use-version.js';

export const UPDATE_NOTICE_MS = 5_000;
export const LOCK_NOTICE_MS = 60_000;

/** The notices are shown once per page load, not on every remount of the layout. */
let noticesShown = false;

/** The lock notice's text: the start of the scan in the viewer's time zone and language (the server's own text is Chinese, in UTC). */
export function lockNoticeText(info: VersionInfo): string {
  return info.lockStartedAt ? t.notices.lockSince(formatDateTime(info.lockStartedAt)) : t.notices.lockDefault;
}

/** `admin`: the scan notice and its link to the scanner are the admin's (the scanner is theirs alone). */
function showVersionNotices(info: VersionInfo, admin: boolean, goScanner: () => void): void {
  if (info.update_available && info.notifyUser) {
    notifications.show({ id: 'update-notice', color: 'violet', icon: <IconCloudDownload size={18} />, autoClose: UPDATE_NOTICE_MS, message: t.notices.updateAvailable });
  }
  if (admin && info.lockFileExists) {
    const id = 'lock-notice';
    notifications.show({
      id,
      color: 'yellow',
      icon: <IconLock size={18} />,
      autoClose: LOCK_NOTICE_MS,
      message: (
        <>
          <Text size="sm" data-testid="lock-notice">
            {lockNoticeText(info)}
          </Text>
          <Group gap="xs" mt="xs">
            <Button size="compact-sm" variant="subtle" color="gray" onClick={() => notifications.hide(id)}>
              {t.notices.lockLater}
            </Button>
            <Button
              size="compact-sm"
              variant="light"
              color="yellow"
              onClick={() => {
                notifications.hide(id);
                goScanner();
              }}
            >
              {t.notices.lockGoScanner}
            </Button>
          </Group>
        </>
      ),
    });
  }
}

export function useBootstrap(enabled: boolean, admin: boolean): void {
  const navigate = useNavigate();
  const version = useVersion(enabled);
  const shared = useQuery({ queryKey: ['config', 'shared'], queryFn: ({ signal }) => fetchSharedConfig(signal), enabled, staleTime: Infinity });
  const apply = useSharedConfig((s) => s.apply);

  useEffect(() => {
    if (shared.data) apply(shared.data);
  }, [shared.data, apply]);

  useEffect(() => {
    if (!version.data || noticesShown) return;
    noticesShown = true;
    showVersionNotices(version.data, admin, () => void navigate('/admin/scanner'));
  }, [version.data, admin, navigate]);
}
