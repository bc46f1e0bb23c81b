/** GET /api/auth/me as a query: who is logged in, and whether the server has auth on. */
import { useQuery } from '@tanstack/react-query';
import { SESSION_KEY, fetchSession } from '../../api/session.js';

export { SESSION_KEY };

export function useSession() {
  return useQuery({ queryKey: SESSION_KEY, queryFn: ({ signal }) => fetchSession(signal), staleTime: 5 * 60_000 });
}
