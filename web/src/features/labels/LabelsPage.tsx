/**
 * `/circles`, `/tags`, `/vas`: every item as a button "name (count)" linking to its works,
 * with a filter box. Rows of buttons are virtualised over the window scroll, so 8,000 voice actors
 * scroll as smoothly as 80.
 */
import { useDeferredValue, useMemo, useState, type CSSProperties } from 'react';
import { Link } from 'react-router';
import { Virtuoso } from 'react-virtuoso';
import { Box, CloseButton, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { LabelsSkeleton } from '../../components/ListSkeleton.js';
import { IconSearch } from '@tabler/icons-react';
import type { LabelItem, LabelKind } from '../../../../server/contract/labels.js';
import { LoadFailed } from '../../components/LoadFailed.js';
import { t } from '../../i18n/index.js';
import { useElementWidth } from '../../lib/use-element-width.js';
import { chunk } from '../works/layout.js';
import { useScrollToTop } from '../works/use-scroll-memory.js';
import { useLabels } from './api.js';
import classes from './labels.module.css';

const L = t.library.lists;
const PARAM: Record<LabelKind, string> = { circles: 'circleId', tags: 'tagId', vas: 'vaId' };
const COLOR: Record<LabelKind, string> = { circles: 'orange', tags: 'teal', vas: 'blue' };
const MIN_BUTTON_WIDTH = 200;
const GAP = 8;

const norm = (s: string) => s.normalize('NFKC').toLowerCase();

export function filterLabels(items: readonly LabelItem[], text: string): LabelItem[] {
  const q = norm(text.trim());
  return q ? items.filter((i) => norm(i.name).includes(q)) : [...items];
}

function LabelButton({ kind, item }: { kind: LabelKind; item: LabelItem }) {
  const color = COLOR[kind];
  return (
    <Link
      to={`/works?${PARAM[kind]}=${encodeURIComponent(item.id)}`}
      className={classes.item}
      style={
        {
          '--label-light': `var(--mantine-color-${color}-light)`,
          '--label-hover': `var(--mantine-color-${color}-light-hover)`,
          '--label-text': `var(--mantine-color-${color}-light-color)`,
        } as CSSProperties
      }
      title={`${item.name} (${item.count})`}
      data-testid="label-item"
    >
      <span className={classes.name}>{item.name}</span>
      <span className={classes.count}>{item.count}</span>
    </Link>
  );
}

export function LabelsPage({ kind }: { kind: LabelKind }) {
  const labels = useLabels(kind);
  useScrollToTop();
  const [text, setText] = useState('');
  const deferred = useDeferredValue(text);
  const { ref, width } = useElementWidth();
  const items = useMemo(() => filterLabels(labels.data ?? [], deferred), [labels.data, deferred]);
  const columns = Math.max(1, Math.floor((width + GAP) / (MIN_BUTTON_WIDTH + GAP)));
  const rows = useMemo(() => chunk(items, columns), [items, columns]);
  const total = labels.data?.length ?? 0;

  return (
    <Stack gap="md" data-testid="labels-page" data-kind={kind}>
      <Group justify="space-between" align="baseline">
        <Title order={1} size="h3" fw={600}>
          {L.titles[kind]}
        </Title>
        {labels.isSuccess && (
          <Text size="sm" c="dimmed" data-testid="labels-count">
            {L.count(items.length, total)}
          </Text>
        )}
      </Group>
      <TextInput
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        placeholder={L.filter}
        aria-label={L.filter}
        leftSection={<IconSearch size={16} />}
        rightSection={text ? <CloseButton size="sm" aria-label={t.header.clearKeyword} onClick={() => setText('')} /> : null}
        maw={420}
        data-testid="labels-filter"
      />
      <Box ref={ref} data-testid="labels-list" data-shown={items.length}>
        {labels.isPending ? (
          <LabelsSkeleton columns={columns} gap={GAP} />
        ) : labels.isError ? (
          <LoadFailed error={labels.error} onRetry={() => void labels.refetch()} py={48} />
        ) : items.length === 0 ? (
          <Text c="dimmed" ta="center" py={48}>
            {L.empty}
          </Text>
        ) : (
          <Virtuoso
            useWindowScroll
            data={rows}
            increaseViewportBy={{ top: 400, bottom: 400 }}
            computeItemKey={(i, row) => `${columns}:${row[0]?.id ?? i}`}
            itemContent={(_, row) => (
              <div style={{ display: 'grid', gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`, gap: GAP, paddingBottom: GAP }}>
                {row.map((item) => (
                  <LabelButton key={item.id} kind={kind} item={item} />
                ))}
              </div>
            )}
          />
        )}
      </Box>
    </Stack>
  );
}

export const CirclesPage = () => <LabelsPage kind="circles" />;
export const TagsPage = () => <LabelsPage kind="tags" />;
export const VasPage = () => <LabelsPage kind="vas" />;
