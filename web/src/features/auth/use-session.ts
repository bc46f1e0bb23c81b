/** GET /api/auth/me as a query: who is logged in, and whether the server has auth on. */
import { useQuery } from '@tanstack/react-query';
import { SESSION_KEY, fetchSession } from '../../api/session.js';
import { canWriteUser, isAdminUser } from '../../api/types.js';

export { SESSION_KEY };

export function useSession() {
  return useQuery({ queryKey: SESSION_KEY, queryFn: ({ signal }) => fetchSession(signal), staleTime: 5 * 60_000 });
}

/**
 * What the signed-in user may do, for screens that offer only that: `admin` (the admin's tools and
 * notices) and `canWrite` (rate, review, progress, play history, AI lyric requests — users and admins;
 * guests only browse and play). With auth off the server answers as the admin, so everything is offered.
 */
export function useAbilities(): { admin: boolean; canWrite: boolean } {
  const user = useSession().data?.user;
  return { admin: isAdminUser(user), canWrite: canWriteUser(user) };
}
