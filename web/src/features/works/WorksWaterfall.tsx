/**
 * The waterfall (infinite scroll): rows of works virtualised with react-virtuoso over the
 * window scroll, so thousands of loaded works keep the page light; the next page is requested when the
 * end of the list comes within 250 px of the viewport.
 */
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Virtuoso, type StateSnapshot, type VirtuosoHandle } from 'react-virtuoso';
import { Button, Center, Loader, Text } from '@mantine/core';
import type { WorkListItem } from '../../../../server/contract/works.js';
import { t } from '../../i18n/index.js';
import { GRID_GAP, rowsKeeping, withNextRow } from './layout.js';
import { WorkItem, type ItemLook } from './WorkItem.js';

/** Load more when the end of the list is this close below the viewport. */
export const LOAD_MORE_OFFSET_PX = 250;
const INITIAL_ROWS = 3;

interface FooterContext {
  count: number;
  hasMore: boolean;
  loading: boolean;
  /** The last load failed: wait for a click instead of retrying in a loop. */
  failed: boolean;
  /** Height of the rendered list; 0 until virtuoso has measured it. */
  listHeight: number;
  onLoadMore(): void;
}

/** The list may ask for its next page: measured, more to come, no load running or failed. */
const mayLoadMore = (ctx: FooterContext | undefined): ctx is FooterContext => !!ctx && ctx.listHeight > 0 && ctx.hasMore && !ctx.loading && !ctx.failed;

function LoadMoreFooter({ context }: { context?: FooterContext }) {
  const ref = useRef<HTMLDivElement>(null);
  const observer = useRef<IntersectionObserver | null>(null);
  const latest = useRef(context);
  latest.current = context;

  // Loads when the end of the list is within 250 px below the viewport, as an intersection observer
  // reports it: the browser works that out after its own layout, so nothing here forces one (reading
  // the end's position after every new row laid the page out again in the middle of each frame).
  // Not before the list has its height: an unmeasured list would put its end at the top.
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const io = new IntersectionObserver(
      (entries) => {
        const ctx = latest.current;
        if (entries[entries.length - 1]?.isIntersecting && mayLoadMore(ctx)) ctx.onLoadMore();
      },
      { rootMargin: `0px 0px ${LOAD_MORE_OFFSET_PX}px 0px` },
    );
    io.observe(el);
    observer.current = io;
    return () => {
      io.disconnect();
      observer.current = null;
    };
  }, []);

  // An observer reports changes only, and after a load the end can still be in range (a short page):
  // after every change of the list, observing again asks for the current state.
  useEffect(() => {
    const io = observer.current;
    const el = ref.current;
    if (!io || !el || !mayLoadMore(context)) return;
    io.unobserve(el);
    io.observe(el);
  }, [context]);

  return (
    <div ref={ref} data-testid="waterfall-end">
      <Center py="md" mih={56}>
        {context?.loading ? (
          <Loader size="sm" type="dots" />
        ) : context?.failed && context.hasMore ? (
          <Button variant="light" size="xs" onClick={context.onLoadMore}>
            {t.library.works.loadMore}
          </Button>
        ) : !context?.hasMore && (context?.count ?? 0) > 0 ? (
          <Text size="sm" c="dimmed">
            {t.library.works.noMore}
          </Text>
        ) : null}
      </Center>
    </div>
  );
}

const COMPONENTS = { Footer: LoadMoreFooter };

/**
 * One row of cards. Memoised: the list re-renders on every scroll step, and only the rows that enter
 * the window should do any work.
 */
const WorksRow = memo(function WorksRow({ row, columns, look, eager }: { row: WorkListItem[]; columns: number; look: ItemLook; eager: boolean }) {
  return (
    <div style={{ display: 'grid', gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`, gap: GRID_GAP, paddingBottom: GRID_GAP, contain: 'layout style' }}>
      {row.map((work) => (
        <WorkItem key={work.id} work={work} look={look} eager={eager} />
      ))}
    </div>
  );
});

/**
 * How many of `count` works to draw: all of them at first (the first page, a list restored by going
 * back), then, as more pages arrive, one more row per frame. A page drawn at once (its cards' render,
 * layout and paint in one go) held up the frames of a scroll for 50–100 ms on a slow machine; a row
 * per frame keeps each frame's share small.
 */
function useRowByRow(count: number, columns: number): number {
  const [shown, setShown] = useState(count);
  const visible = Math.min(shown, count);
  useEffect(() => {
    if (shown > count) {
      setShown(count);
      return;
    }
    if (shown === count) return;
    const frame = requestAnimationFrame(() => setShown((s) => withNextRow(s, count, columns)));
    return () => cancelAnimationFrame(frame);
  }, [shown, count, columns]);
  return visible;
}

/**
 * The list's measured row sizes per history entry: going back, the window's old scroll position
 * shows the same rows again (rows differ in height, and a fresh virtual list only knows the ones it
 * has drawn, estimating the rest). The position itself is restored by the page (use-scroll-memory).
 */
const snapshots = new Map<string, StateSnapshot>();

interface WorksWaterfallProps {
  works: WorkListItem[];
  columns: number;
  look: ItemLook;
  hasMore: boolean;
  loading: boolean;
  failed: boolean;
  onLoadMore(): void;
  /** The history entry the list belongs to. */
  entryKey: string;
  /** Arrived by going back: restore the list's last state for this entry. */
  restore: boolean;
}

export function WorksWaterfall({ works, columns, look, hasMore, loading, failed, onLoadMore, entryKey, restore }: WorksWaterfallProps) {
  const ref = useRef<VirtuosoHandle>(null);
  const [restoreFrom] = useState(() => (restore ? snapshots.get(`${entryKey}:${columns}`) : undefined));
  // saved while the list is taken down (a layout effect: before its rows leave the page)
  useLayoutEffect(() => {
    const handle = ref.current;
    const key = `${entryKey}:${columns}`;
    return () => handle?.getState((state) => snapshots.set(key, state));
  }, [entryKey, columns]);
  // rows that did not change keep their identity (a new page re-renders only the rows it adds)
  const lastRows = useRef<WorkListItem[][]>([]);
  const shown = useRowByRow(works.length, columns);
  const rows = useMemo(() => (lastRows.current = rowsKeeping(works, shown, columns, lastRows.current)), [works, columns, shown]);
  const [listHeight, setListHeight] = useState(0);
  const context = useMemo<FooterContext>(() => ({ count: works.length, hasMore, loading, failed, listHeight, onLoadMore }), [works.length, hasMore, loading, failed, listHeight, onLoadMore]);
  const computeItemKey = useCallback((index: number, row: WorkListItem[]) => `${columns}:${row[0]?.id ?? index}`, [columns]);
  const itemContent = useCallback((index: number, row: WorkListItem[]) => <WorksRow row={row} columns={columns} look={look} eager={index === 0} />, [columns, look]);
  return (
    <Virtuoso
      ref={ref}
      useWindowScroll
      restoreStateFrom={restoreFrom}
      data={rows}
      context={context}
      components={COMPONENTS}
      increaseViewportBy={{ top: 300, bottom: 600 }}
      totalListHeightChanged={setListHeight}
      // the first rows are drawn at once instead of after a measuring pass (first cards sooner)
      initialItemCount={restoreFrom ? undefined : Math.min(rows.length, INITIAL_ROWS)}
      computeItemKey={computeItemKey}
      itemContent={itemContent}
    />
  );
}
