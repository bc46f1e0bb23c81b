/**
 * The data of the work list: all loaded pages for the waterfall, or one page for numbered pagination.
 * A change of what is listed (route query, sort, filters, keywords) is debounced 100 ms and starts over with a new seed and the first page.
 */
import { useRef } from 'react';
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useDebouncedValue } from '@mantine/hooks';
import type { WorkListItem } from '../../../../server/contract/works.js';
import { fetchWorksPage } from './api.js';
import { pagedKey, waterfallKey } from './query-keys.js';
import { randomSeed, resetKey, worksRequest, type ListFilters, type WorksSource } from './works-source.js';

export const RESET_DEBOUNCE_MS = 100;

interface ListInput {
  source: WorksSource;
  filters: ListFilters;
}

export type DebouncedListInput = ListInput & { key: string; seed: number };

/**
 * The debounced list input and its seed. The seed changes with every reset; it only matters for the
 * random order, so other orders keep one cache entry (going back to the list shows it at once).
 */
export function useListInput(source: WorksSource, filters: ListFilters): DebouncedListInput {
  const key = resetKey(source, filters);
  const [debouncedKey] = useDebouncedValue(key, RESET_DEBOUNCE_MS);
  const committed = useRef({ key, source, filters });
  if (debouncedKey === key) committed.current = { key, source, filters };
  const current = committed.current;
  const seedRef = useRef<{ key: string; seed: number } | null>(null);
  if (!seedRef.current || seedRef.current.key !== current.key) seedRef.current = { key: current.key, seed: randomSeed() };
  const seed = current.filters.sortField === 'random' ? seedRef.current.seed : 0;
  return { source: current.source, filters: current.filters, key: current.key, seed };
}

export function useWorksWaterfall(input: DebouncedListInput, enabled: boolean) {
  const query = useInfiniteQuery({
    queryKey: waterfallKey(input.key, input.seed),
    queryFn: ({ pageParam, signal }) => fetchWorksPage(worksRequest(input.source, input.filters, input.seed, pageParam), signal),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((n, p) => n + p.works.length, 0);
      return last.works.length > 0 && loaded < last.pagination.totalCount ? last.pagination.currentPage + 1 : undefined;
    },
    enabled,
  });
  const works: WorkListItem[] = [];
  const seen = new Set<number>();
  for (const page of query.data?.pages ?? []) {
    for (const w of page.works) {
      // a work that moved between pages while scrolling (a new rating) is shown once
      if (!seen.has(w.id)) {
        seen.add(w.id);
        works.push(w);
      }
    }
  }
  const last = query.data?.pages.at(-1);
  return { query, works, total: last?.pagination.totalCount ?? 0, pageSize: last?.pagination.pageSize ?? 12 };
}

export function useWorksPaged(input: DebouncedListInput, page: number, enabled: boolean) {
  const query = useQuery({
    queryKey: pagedKey(input.key, input.seed, page),
    queryFn: ({ signal }) => fetchWorksPage(worksRequest(input.source, input.filters, input.seed, page), signal),
    placeholderData: keepPreviousData,
    enabled,
  });
  return {
    query,
    works: query.data?.works ?? [],
    total: query.data?.pagination.totalCount ?? 0,
    pageSize: query.data?.pagination.pageSize ?? 12,
  };
}
