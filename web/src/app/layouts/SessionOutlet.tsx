import { Outlet } from 'react-router';
import type { UseQueryResult } from '@tanstack/react-query';
import { isUnauthorized } from '../../api/errors.js';
import type { Session } from '../../api/types.js';
import { LoadFailed } from '../../components/LoadFailed.js';
import { PageLoader } from '../../components/PageLoader.js';
import { PasswordBanner } from '../../features/account/PasswordBanner.js';

/**
 * The routed page once the session is known, under the banner asking to change a generated password
 * (when it is one). While it loads: a loader. A 401 is handled by the generic handler (to /login); any
 * other failure (server down) offers a retry.
 */
export function SessionOutlet({ session }: { session: UseQueryResult<Session> }) {
  if (session.isSuccess) {
    return (
      <>
        <PasswordBanner session={session.data} />
        <Outlet />
      </>
    );
  }
  if (session.isError && !isUnauthorized(session.error)) {
    return <LoadFailed error={session.error} onRetry={() => void session.refetch()} />;
  }
  return <PageLoader />;
}
