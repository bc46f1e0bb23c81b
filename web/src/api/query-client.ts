/**
 * The TanStack Query client. Every failed query or mutation goes through the generic handler
 * (errors.ts) unless its `meta.silent` says the caller handles (or only logs) the error itself.
 */
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from './client.js';
import { reportError } from './errors.js';

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: { silent?: boolean };
    mutationMeta: { silent?: boolean };
  }
}

/** Client errors (4xx) are answers, not hiccups: do not retry them. */
const shouldRetry = (failures: number, err: unknown): boolean => !(err instanceof ApiError && err.status < 500) && failures < 2;

export const queryClient = new QueryClient({
  queryCache: new QueryCache({
    onError: (err, query) => {
      if (query.meta?.silent) console.error(err);
      else reportError(err);
    },
  }),
  mutationCache: new MutationCache({
    onError: (err, _vars, _ctx, mutation) => {
      if (!mutation.meta?.silent) reportError(err);
    },
  }),
  defaultOptions: {
    queries: { retry: shouldRetry, refetchOnWindowFocus: false, staleTime: 30_000 },
    mutations: { retry: false },
  },
});
