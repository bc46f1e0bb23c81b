/**
 * Logout: ask, revoke the token on the server, clear the stored token and the cached
 * data, go to /login.
 */
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { modals } from '@mantine/modals';
import { logout } from '../../api/session.js';
import { clearToken, getToken } from '../../api/token.js';
import { t } from '../../i18n/index.js';
import { LOGIN_PATH } from './redirect.js';

export function useLogout(): () => void {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useCallback(() => {
    modals.openConfirmModal({
      title: t.logout.confirmTitle,
      children: t.logout.confirm,
      labels: { confirm: t.logout.ok, cancel: t.logout.cancel },
      confirmProps: { color: 'red' },
      centered: true,
      onConfirm: async () => {
        // the token stops working on the server; offline or already stale, it is dropped here anyway
        if (getToken()) await logout().catch(() => undefined);
        clearToken();
        // leave first, so the page being left does not refetch its data without a token
        await navigate(LOGIN_PATH, { replace: true });
        queryClient.clear();
      },
    });
  }, [navigate, queryClient]);
}
