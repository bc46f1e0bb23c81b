/**
 * Route loaders that start the first requests of the work list while the screen's code is still
 * downloading (the router runs them at navigation start, in parallel with the lazy route chunks): the
 * session and the first page of works, under the same query keys the screens read, so the first cards
 * do not wait for a chain of chunk → render → request. They never block the navigation.
 */
import type { LoaderFunctionArgs } from 'react-router';
import { queryClient } from '../../api/query-client.js';
import { fetchSession } from '../../api/session.js';
import { getPref } from '../../lib/prefs.js';
import { SESSION_KEY } from '../auth/use-session.js';
import { fetchWorksPage } from './api.js';
import { pagedKey, waterfallKey } from './query-keys.js';
import { parsePage, resetKey, sourceOf, worksRequest, type ListFilters } from './works-source.js';

/** GET /api/auth/me for the main layout (its own query; errors are handled where it is read). */
export function prefetchSession(): null {
  void queryClient.prefetchQuery({ queryKey: SESSION_KEY, queryFn: ({ signal }) => fetchSession(signal), staleTime: 5 * 60_000 });
  return null;
}

/** The first page of `/works` or `/search` as the list will ask for it. */
export function prefetchWorks({ request }: LoaderFunctionArgs): null {
  const url = new URL(request.url);
  const filters: ListFilters = {
    sortField: getPref('sortField'),
    sortDirection: getPref('sortDirection'),
    ageRating: getPref('ageRating'),
    lyricOptions: getPref('lyricOptions'),
  };
  // a random order gets a new seed on the page; nothing to prepare
  if (filters.sortField === 'random') return null;
  const source = sourceOf(url.pathname, url.searchParams, getPref('advancedKeywords'));
  const key = resetKey(source, filters);
  const seed = 0;
  if (getPref('listMode') === 'pagination') {
    const page = parsePage(url.searchParams.get('page')) ?? 1;
    void queryClient.prefetchQuery({ queryKey: pagedKey(key, seed, page), queryFn: ({ signal }) => fetchWorksPage(worksRequest(source, filters, seed, page), signal) });
  } else {
    void queryClient.prefetchInfiniteQuery({
      queryKey: waterfallKey(key, seed),
      queryFn: ({ signal }) => fetchWorksPage(worksRequest(source, filters, seed, 1), signal),
      initialPageParam: 1,
    });
  }
  return null;
}
