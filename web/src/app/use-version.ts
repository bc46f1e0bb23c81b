/** GET /api/version, once per session; failures are only logged. */
import { useQuery } from '@tanstack/react-query';
import { fetchVersion } from '../api/session.js';

export const VERSION_KEY = ['version'] as const;

export function useVersion(enabled = true) {
  return useQuery({ queryKey: VERSION_KEY, queryFn: ({ signal }) => fetchVersion(signal), enabled, staleTime: Infinity, retry: false, meta: { silent: true } });
}
