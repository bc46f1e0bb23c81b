import { Outlet } from 'react-router';
import { Button, Stack, Text } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { errorText, isUnauthorized } from '../../api/errors.js';
import type { Session } from '../../api/types.js';
import { PageLoader } from '../../components/PageLoader.js';
import { t } from '../../i18n/index.js';

/**
 * The routed page once the session is known. While it loads: a loader. A 401 is handled by the
 * generic handler (to /login); any other failure (server down) offers a retry.
 */
export function SessionOutlet({ session }: { session: UseQueryResult<Session> }) {
  if (session.isSuccess) return <Outlet />;
  if (session.isError && !isUnauthorized(session.error)) {
    return (
      <Stack align="center" py={64} gap="md" ta="center" role="alert">
        <Text c="dimmed">{errorText(session.error)}</Text>
        <Button variant="light" onClick={() => void session.refetch()}>
          {t.routeError.reload}
        </Button>
      </Stack>
    );
  }
  return <PageLoader />;
}
