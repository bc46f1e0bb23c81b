/**
 * The favourites area: a mode toggle — play history (`/favourites/histroy`), my
 * ratings (`/favourites`, `/favourites/review`), my progress (`/favourites/progress/{state}`, marked by
 * default) — a sort select except for history, the progress filter, numbered pages and the empty text.
 * The old `/favourites/folder` address leads to the ratings.
 */
import { Fragment, useEffect, useState, type ReactNode } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Group, Pagination, SegmentedControl, Select, Stack, Text, Title } from '@mantine/core';
import type { Progress } from '../../../../server/contract/works.js';
import { RowsSkeleton } from '../../components/ListSkeleton.js';
import { NotFoundPage } from '../../components/NotFoundPage.js';
import { isProgress, PROGRESS_VALUES } from '../../components/work-card/review-api.js';
import { t } from '../../i18n/index.js';
import { FAVOURITES_SORTS, usePref, type FavouritesSort } from '../../lib/prefs.js';
import { pageCount } from '../works/works-source.js';
import { PAGE_SIBLINGS } from '../works/WorksPager.js';
import { useScrollToTop } from '../works/use-scroll-memory.js';
import { fetchHistory, fetchReviews, FAVOURITES_KEY, HISTORY_KEY, type HistoryListWork, type ListPage, type ReviewListWork } from './api.js';
import { HistoryItem, ReviewItem } from './FavouriteItems.js';

const F = t.library.favourites;

export type FavouritesMode = 'histroy' | 'review' | 'progress';
const MODES: FavouritesMode[] = ['histroy', 'review', 'progress'];

export function modeOf(pathname: string): FavouritesMode | null {
  const part = pathname.replace(/\/+$/, '').split('/')[2];
  if (part === undefined) return 'review';
  return (MODES as string[]).includes(part) ? (part as FavouritesMode) : null;
}

const MODE_PATH: Record<FavouritesMode, string> = {
  histroy: '/favourites/histroy',
  review: '/favourites/review',
  progress: '/favourites/progress/marked',
};

interface PagedListProps<T extends { id: number }> {
  queryKey: readonly unknown[];
  fetch(page: number, signal: AbortSignal): Promise<ListPage<T>>;
  render(work: T): ReactNode;
  emptyText: string;
}

function PagedList<T extends { id: number }>({ queryKey, fetch, render, emptyText }: PagedListProps<T>) {
  const [page, setPage] = useState(1);
  const query = useQuery({
    queryKey: [...queryKey, page],
    queryFn: ({ signal }) => fetch(page, signal),
    placeholderData: keepPreviousData,
  });
  const total = query.data ? pageCount(query.data.pagination.totalCount, query.data.pagination.pageSize) : 1;
  // a list that got shorter (an item deleted on the last page) shows its new last page
  useEffect(() => {
    if (query.data && page > total) setPage(total);
  }, [query.data, page, total]);

  if (query.isPending) return <RowsSkeleton />;
  const works = query.data?.works ?? [];
  if (!works.length) {
    return (
      <Text c="dimmed" ta="center" py={48} maw={480} mx="auto" data-testid="favourites-empty">
        {emptyText}
      </Text>
    );
  }
  return (
    <Stack gap="xs" data-testid="favourites-list" style={{ opacity: query.isPlaceholderData ? 0.6 : 1 }}>
      {works.map((work) => (
        <Fragment key={work.id}>{render(work)}</Fragment>
      ))}
      {total > 1 && (
        <Group justify="center" py="sm">
          <Pagination
            value={Math.min(page, total)}
            onChange={(p) => {
              setPage(p);
              window.scrollTo({ top: 0 });
            }}
            total={total}
            siblings={PAGE_SIBLINGS}
            size="sm"
          />
        </Group>
      )}
    </Stack>
  );
}

export function FavouritesPage() {
  const { pathname } = useLocation();
  const params = useParams();
  const navigate = useNavigate();
  const [sort, setSort] = usePref('favouritesSort');
  const mode = modeOf(pathname);
  useScrollToTop();

  if (mode === null || (mode === 'progress' && params.state !== undefined && !isProgress(params.state))) return <NotFoundPage />;
  const filter: Progress = isProgress(params.state) ? params.state : 'marked';

  return (
    <Stack gap="md" data-testid="favourites-page" data-mode={mode}>
      <Title order={1} size="h3" fw={600}>
        {F.title}
      </Title>
      <SegmentedControl
        value={mode}
        onChange={(m) => void navigate(MODE_PATH[m as FavouritesMode])}
        data={MODES.map((m) => ({ value: m, label: F.modes[m] }))}
        fullWidth
        maw={560}
        data-testid="favourites-mode"
      />
      {(mode === 'review' || mode === 'progress') && (
        <Group gap="sm" wrap="wrap" justify="space-between">
          {mode === 'progress' ? (
            <SegmentedControl
              value={filter}
              onChange={(p) => void navigate(`/favourites/progress/${p}`)}
              data={PROGRESS_VALUES.map((p) => ({ value: p, label: t.library.progress[p] }))}
              size="sm"
              aria-label={F.progressFilter}
              data-testid="favourites-progress-filter"
            />
          ) : (
            <span />
          )}
          <Select
            value={sort}
            onChange={(v) => v && setSort(v as FavouritesSort)}
            data={FAVOURITES_SORTS.map((s) => ({ value: s, label: F.sorts[s] }))}
            allowDeselect={false}
            aria-label={F.sort}
            w={140}
            size="sm"
            data-testid="favourites-sort"
          />
        </Group>
      )}
      {mode === 'histroy' ? (
        <PagedList
          key="histroy"
          queryKey={HISTORY_KEY}
          fetch={(page, signal) => fetchHistory(page, signal)}
          render={(work: HistoryListWork) => <HistoryItem work={work} />}
          emptyText={F.historyEmpty}
        />
      ) : (
        <PagedList
          key={`${mode}:${filter}:${sort}`}
          queryKey={[...FAVOURITES_KEY, mode, mode === 'progress' ? filter : null, sort]}
          fetch={(page, signal) => fetchReviews(page, sort, mode === 'progress' ? filter : undefined, signal)}
          render={(work: ReviewListWork) => <ReviewItem work={work} />}
          emptyText={F.empty}
        />
      )}
    </Stack>
  );
}
