/**
 * Placeholders drawn while a list loads, shaped like what loads in: work cards (a 4:3 cover, the
 * title, the circle, the rating line) in the grid's columns, rows (a square cover and a few lines:
 * work list rows, favourites, play history), label buttons in their columns, file-tree rows. Each is a
 * `status` region named "loading" for screen readers; its shapes are hidden from them.
 */
import type { ReactNode } from 'react';
import { Box, Group, Paper, Skeleton, Stack } from '@mantine/core';
import { t } from '../i18n/index.js';

const GAP = 12;

function SkeletonBox({ children, kind, gap = GAP, columns = 1 }: { children: ReactNode; kind: string; gap?: number; columns?: number }) {
  return (
    <div role="status" aria-label={t.app.loading} aria-busy="true" data-testid="list-skeleton" data-kind={kind}>
      <div aria-hidden style={{ display: 'grid', gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`, gap }}>
        {children}
      </div>
    </div>
  );
}

/** A work card: cover, two title lines, the circle, the rating line. */
function CardShape() {
  return (
    <Paper withBorder radius="md" p="sm" data-testid="skeleton-item">
      <Skeleton radius={0} style={{ aspectRatio: '4 / 3', margin: 'calc(var(--mantine-spacing-sm) * -1) calc(var(--mantine-spacing-sm) * -1) 0', width: 'auto' }} />
      <Stack gap={8} mt="sm">
        <Skeleton h={14} radius="sm" />
        <Skeleton h={14} w="70%" radius="sm" />
        <Skeleton h={12} w="45%" radius="sm" />
        <Skeleton h={12} w="60%" radius="sm" />
      </Stack>
    </Paper>
  );
}

/** A row: a square cover (72 px, 96 px from `sm`) and three lines. */
function RowShape() {
  return (
    <Paper withBorder radius="md" p="xs" data-testid="skeleton-item">
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <Box w={{ base: 72, sm: 96 }} style={{ flexShrink: 0 }}>
          <Skeleton radius="sm" style={{ aspectRatio: '1' }} />
        </Box>
        <Stack gap={8} style={{ flex: 1, minWidth: 0 }} pt={4}>
          <Skeleton h={14} w="80%" radius="sm" />
          <Skeleton h={12} w="40%" radius="sm" />
          <Skeleton h={12} w="55%" radius="sm" />
        </Stack>
      </Group>
    </Paper>
  );
}

/** The work list: `columns` cards per row, two rows (or rows of the list view). */
export function WorksSkeleton({ columns, list }: { columns: number; list: boolean }) {
  const count = list ? 6 : Math.max(columns * 2, 4);
  return (
    <SkeletonBox kind={list ? 'rows' : 'cards'} columns={list ? 1 : columns} gap={list ? 8 : GAP}>
      {Array.from({ length: count }, (_, i) => (list ? <RowShape key={i} /> : <CardShape key={i} />))}
    </SkeletonBox>
  );
}

/** A list of rows (favourites, play history). */
export function RowsSkeleton({ count = 5 }: { count?: number }) {
  return (
    <SkeletonBox kind="rows" gap={8}>
      {Array.from({ length: count }, (_, i) => (
        <RowShape key={i} />
      ))}
    </SkeletonBox>
  );
}

/** Label buttons (36 px high) in `columns` columns. */
export function LabelsSkeleton({ columns, gap }: { columns: number; gap: number }) {
  return (
    <SkeletonBox kind="labels" columns={columns} gap={gap}>
      {Array.from({ length: Math.max(columns * 6, 8) }, (_, i) => (
        <Skeleton key={i} h={36} radius="md" data-testid="skeleton-item" />
      ))}
    </SkeletonBox>
  );
}

/** File-tree rows: an icon and a name, some indented. */
export function TreeSkeleton({ count = 6 }: { count?: number }) {
  return (
    <SkeletonBox kind="tree" gap={10}>
      {Array.from({ length: count }, (_, i) => (
        <Group key={i} gap="sm" wrap="nowrap" pl={i % 3 === 0 ? 0 : 28} data-testid="skeleton-item">
          <Skeleton h={20} w={20} radius="sm" style={{ flexShrink: 0 }} />
          <Skeleton h={14} w={`${50 + ((i * 17) % 40)}%`} radius="sm" />
        </Group>
      ))}
    </SkeletonBox>
  );
}
