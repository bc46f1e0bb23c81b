/**
 * The work list screen at `/works` (keyword, circleId, tagId, vaId, page) and `/search`
 * (advanced search): the title, the Recent Works strip, the advanced search box, the controls and the
 * list — waterfall or numbered pages, card-shaped placeholders while it loads. On the first screen of a page load the controls and the strip
 * come just after the first cards (lib/first-screen.ts).
 */
import { LoadFailed } from '../../components/LoadFailed.js';
import { WorksSkeleton } from '../../components/ListSkeleton.js';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Box, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useViewportSize } from '@mantine/hooks';
import { FollowLinkContext } from '../../components/work-card/follow-link.js';
import { MINI_WIDTH } from '../../app/layouts/layout-sizes.js';
import { t } from '../../i18n/index.js';
import { notifyWarning } from '../../lib/notify.js';
import { FirstScreenStage, markFirstScreen, useFirstScreenShown } from '../../lib/first-screen.js';
import { usePref } from '../../lib/prefs.js';
import { useElementWidth } from '../../lib/use-element-width.js';
import { AdvancedSearch } from '../search/AdvancedSearch.js';
import { fetchLabel, fetchLibrarySize, WORKS_KEY } from './api.js';
import { isAdminUser } from '../../api/types.js';
import { useSession } from '../auth/use-session.js';
import { columnsFor, GRID_GAP, LABEL_MIN_WIDTH, ZOOM_MIN_WIDTH } from './layout.js';
import { RecentWorks } from './RecentWorks.js';
import { useScrollMemory } from './use-scroll-memory.js';
import { useListInput, useWorksPaged, useWorksWaterfall } from './use-works-list.js';
import { WorkItem, type ItemLook } from './WorkItem.js';
import { WorksPager } from './WorksPager.js';
import { WorksToolbar } from './WorksToolbar.js';
import { WorksWaterfall } from './WorksWaterfall.js';
import { hasSearchTerms, pageCount, parsePage, sourceOf, type ListFilters, type WorksSource } from './works-source.js';

const M = t.library.works;
/** The first-run panel of an empty library: loaded only when the library is empty. */
const EmptyLibrary = lazy(async () => ({ default: (await import('./EmptyLibrary.js')).EmptyLibrary }));
/** The toolbar's height on a wide screen (one row of `sm` controls): kept while it is not drawn yet. */
const TOOLBAR_HEIGHT = 36;

/** The main area's width: the window minus the mini drawer and the padding (phones: padding only). */
function estimatedListWidth(windowWidth: number): number {
  const w = windowWidth || (typeof window === 'undefined' ? 0 : window.innerWidth);
  return w >= 768 ? w - MINI_WIDTH - 32 : w - 24;
}

function useTitle(source: WorksSource): string {
  const label = source.kind === 'label' ? source : null;
  const name = useQuery({
    queryKey: ['label', label?.label, label?.id],
    queryFn: ({ signal }) => fetchLabel(label!.label, label!.id, signal),
    enabled: label !== null,
    staleTime: 5 * 60_000,
    meta: { silent: true },
  });
  switch (source.kind) {
    case 'all':
      return M.titleAll;
    case 'keyword':
      return M.titleKeyword(source.keyword);
    case 'advanced':
      return M.titleAdvanced;
    case 'label': {
      const shown = name.data?.name ?? source.id;
      return source.label === 'circles' ? M.titleCircle(shown) : source.label === 'tags' ? M.titleTag(shown) : M.titleVa(shown);
    }
  }
}

/**
 * The source whose results the list shows: `listed` (the source of the loaded list) once its results
 * are in, the previous one while they load (older results still show, or a placeholder does), and
 * `wanted` (the address's source) on the first load, when there is nothing older to name.
 */
function useShownSource(wanted: WorksSource, listed: WorksSource, loading: boolean): WorksSource {
  const [shown, setShown] = useState<WorksSource | null>(null);
  useEffect(() => {
    if (!loading) setShown(listed);
  }, [loading, listed]);
  if (!loading) return listed;
  return shown ?? wanted;
}

export function WorksPage() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const [conditions] = usePref('advancedKeywords');
  const [sortField] = usePref('sortField');
  const [sortDirection] = usePref('sortDirection');
  const [ageRating] = usePref('ageRating');
  const [lyricOptions] = usePref('lyricOptions');
  const [listMode] = usePref('listMode');
  const [listView] = usePref('listView');
  const [showLabel] = usePref('showLabel');
  const [showDetail] = usePref('showDetail');
  const [showRecent] = usePref('showRecent');
  const [oldCardUi] = usePref('oldCardUi');
  const [zoom, setZoom] = useState(false);
  const { width: windowWidth } = useViewportSize();
  const { ref: boxRef, width: boxWidth } = useElementWidth();

  const paramsKey = params.toString();
  const source = useMemo(() => sourceOf(pathname, new URLSearchParams(paramsKey), conditions), [pathname, paramsKey, conditions]);
  const filters = useMemo<ListFilters>(() => ({ sortField, sortDirection, ageRating, lyricOptions }), [sortField, sortDirection, ageRating, lyricOptions]);
  const input = useListInput(source, filters);

  // ---- the `page` query parameter: forced in paged mode (default 1), removed in waterfall mode ----
  const paged = listMode === 'pagination';
  const rawPage = params.get('page');
  const page = parsePage(rawPage) ?? 1;
  const setPage = useCallback(
    (next: number | null, replace: boolean) =>
      setParams(
        (p) => {
          const out = new URLSearchParams(p);
          if (next === null) out.delete('page');
          else out.set('page', String(next));
          return out;
        },
        { replace },
      ),
    [setParams],
  );
  useEffect(() => {
    if (!paged) {
      if (rawPage !== null) setPage(null, true);
      return;
    }
    if (rawPage === null) setPage(1, true);
    else if (parsePage(rawPage) === null) {
      notifyWarning(M.invalidPage(rawPage));
      setPage(1, true);
    }
  }, [paged, rawPage, setPage]);

  // a change of what is listed starts over on the first page
  const lastKey = useRef(input.key);
  useEffect(() => {
    if (lastKey.current === input.key) return;
    lastKey.current = input.key;
    if (paged && parsePage(rawPage) !== 1) setPage(1, true);
  }, [input.key, paged, rawPage, setPage]);

  const waterfall = useWorksWaterfall(input, !paged);
  const pages = useWorksPaged(input, page, paged);
  const current = paged ? pages : waterfall;
  const totalPages = pageCount(pages.total, pages.pageSize);

  // a page past the end (a shorter list, a hand-written URL) goes to the last page
  useEffect(() => {
    if (paged && pages.query.isSuccess && !pages.query.isPlaceholderData && pages.total > 0 && page > totalPages) {
      notifyWarning(M.invalidPage(String(page)));
      setPage(totalPages, true);
    }
  }, [paged, pages.query.isSuccess, pages.query.isPlaceholderData, pages.total, page, totalPages, setPage]);

  const effectiveZoom = zoom && !listView && windowWidth >= ZOOM_MIN_WIDTH;
  // before the list box is measured, its width is estimated from the window (no one-column first frame)
  const listWidth = boxWidth || estimatedListWidth(windowWidth);
  const columns = columnsFor(listWidth, { list: listView, detail: showDetail, zoom: effectiveZoom });
  // the width of a card (whole pixels, so small changes of the list's width do not redraw every card)
  const cardWidth = Math.ceil((listWidth - GRID_GAP * (columns - 1)) / columns);
  const look = useMemo<ItemLook>(
    () => ({ list: listView, oldCard: oldCardUi, labels: showLabel && windowWidth > LABEL_MIN_WIDTH, detail: showDetail, coverSizes: `${cardWidth}px` }),
    [listView, oldCardUi, showLabel, windowWidth, showDetail, cardWidth],
  );

  const { fetchNextPage, hasNextPage, isFetchingNextPage, isFetchNextPageError } = waterfall.query;
  const loadMore = useCallback(() => void fetchNextPage(), [fetchNextPage]);

  const loaded = current.query.isSuccess;
  // the heading names what the list shows: it follows the results when they arrive, not the keystrokes
  const shown = useShownSource(source, input.source, current.query.isPending || current.query.isPlaceholderData);
  const title = useTitle(shown);
  // going back: the window's position is restored; the waterfall also restores its measured rows, so
  // that position shows the same works again
  const { key: entryKey, back } = useScrollMemory(loaded);

  const showStrip = showRecent && !hasSearchTerms(source);
  const query = current.query;

  // an empty list: an empty library (no works at all) shows the next step instead
  const session = useSession();
  const listEmpty = query.isSuccess && current.works.length === 0;
  const librarySize = useQuery({ queryKey: [...WORKS_KEY, 'library-size'], queryFn: ({ signal }) => fetchLibrarySize(signal), enabled: listEmpty, meta: { silent: true } });
  const emptyLibrary = listEmpty && librarySize.data === 0;

  // the first screen of a page load: the cards first, the toolbar and the recent strip just after
  const extras = useFirstScreenShown(FirstScreenStage.list);
  const settled = !query.isPending;
  useEffect(() => {
    if (settled) markFirstScreen();
  }, [settled]);

  return (
    <Stack gap="md" data-testid="works-page">
      <Group justify="space-between" align="baseline" gap="xs">
        <Title order={1} size="h3" fw={600} data-testid="works-title" style={{ overflowWrap: 'anywhere' }}>
          {title}
        </Title>
        {loaded && (
          <Text size="sm" c="dimmed" data-testid="works-total">
            {M.total(current.total)}
          </Text>
        )}
      </Group>
      {extras && showStrip && <RecentWorks />}
      {source.kind === 'advanced' && <AdvancedSearch />}
      {extras ? <WorksToolbar windowWidth={windowWidth} zoom={zoom} onZoom={setZoom} /> : <div style={{ minHeight: TOOLBAR_HEIGHT }} />}
      <FollowLinkContext value={navigate}>
        <Box ref={boxRef} data-testid="works-list" data-loaded={current.works.length} data-total={current.total} data-columns={columns} data-mode={paged ? 'pagination' : 'waterfall'}>
          {query.isPending ? (
            <WorksSkeleton columns={columns} list={listView} />
          ) : query.isError && !current.works.length ? (
            <LoadFailed error={query.error} onRetry={() => void query.refetch()} py={48} />
          ) : emptyLibrary ? (
            <Suspense
              fallback={
                <Center py={64}>
                  <Loader type="dots" />
                </Center>
              }
            >
              <EmptyLibrary admin={isAdminUser(session.data?.user)} />
            </Suspense>
          ) : current.works.length === 0 && librarySize.isPending ? (
            <Center py={64}>
              <Loader type="dots" />
            </Center>
          ) : current.works.length === 0 ? (
            <Text c="dimmed" ta="center" py={48} data-testid="works-empty">
              {M.empty}
            </Text>
          ) : paged ? (
            <>
              <div style={{ display: 'grid', gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`, gap: GRID_GAP, opacity: pages.query.isPlaceholderData ? 0.6 : 1 }}>
                {pages.works.map((work, i) => (
                  <WorkItem key={work.id} work={work} look={look} eager={i < columns} />
                ))}
              </div>
              <WorksPager
                page={Math.min(page, totalPages)}
                total={totalPages}
                onChange={(p) => {
                  setPage(p, false);
                  window.scrollTo({ top: 0 });
                }}
              />
            </>
          ) : (
            <WorksWaterfall
              works={waterfall.works}
              columns={columns}
              look={look}
              hasMore={hasNextPage}
              loading={isFetchingNextPage}
              failed={isFetchNextPageError}
              onLoadMore={loadMore}
              entryKey={entryKey}
              restore={back}
            />
          )}
        </Box>
      </FollowLinkContext>
    </Stack>
  );
}
