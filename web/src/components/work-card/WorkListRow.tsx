/**
 * The list-item style of a work (list mode): a square thumbnail, the title, code, circle, release and
 * stars on one row. `labels` (list mode, wide screens) adds the tags and voice actors; `detail` adds
 * the price and sales, the chips and duration, and the store link.
 */
import { memo } from 'react';
import { Link } from 'react-router';
import { Anchor, Box, Group, Paper, Stack, Text } from '@mantine/core';
import type { WorkListItem } from '../../../../server/contract/works.js';
import { Cover } from '../cover/Cover.js';
import { t } from '../../i18n/index.js';
import { formatDate } from '../../i18n/format.js';
import { CircleLink, CodeChip, LyricBadges, PriceSales, RatingSummary, StoreLink, TagLinks, VaLinks, WorkExtras } from './card-parts.js';

interface WorkListRowProps {
  work: WorkListItem;
  labels: boolean;
  detail: boolean;
  eager?: boolean;
}

export const WorkListRow = memo(function WorkListRow({ work, labels, detail, eager }: WorkListRowProps) {
  const href = `/work/${work.id}`;
  return (
    <Paper withBorder radius="md" p="xs" data-testid="work-row" data-work-id={work.id}>
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <Box component={Link} to={href} aria-label={work.title} w={{ base: 72, sm: 96 }} style={{ flexShrink: 0 }}>
          <Cover workId={work.id} alt={t.library.card.cover(work.title)} size="thumb" radius="var(--mantine-radius-sm)" eager={eager} />
        </Box>
        <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
          <Anchor component={Link} to={href} fw={600} size="sm" lineClamp={2} c="var(--mantine-color-text)" title={work.title} data-testid="work-title">
            {work.title}
          </Anchor>
          <Group gap={6} wrap="wrap">
            <CodeChip work={work} size="xs" variant="light" />
            <CircleLink circle={work.circle} size="xs" />
            {work.release && (
              <Text size="xs" c="dimmed" data-testid="release">
                {formatDate(work.release)}
              </Text>
            )}
            <LyricBadges status={work.lyric_status} size="xs" />
          </Group>
          <RatingSummary work={work} size="xs" />
          {labels && (
            <>
              <TagLinks tags={work.tags} size="xs" />
              <VaLinks vas={work.vas} size="xs" />
            </>
          )}
          {detail && (
            <Group gap={8} wrap="wrap">
              <PriceSales work={work} />
              <WorkExtras work={work} size="xs" />
              <StoreLink workId={work.id} />
            </Group>
          )}
        </Stack>
      </Group>
    </Paper>
  );
});
