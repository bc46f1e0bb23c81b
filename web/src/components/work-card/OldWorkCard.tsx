/**
 * The work card, old style (the "old card UI" preference): the plain cover with only the code chip on
 * it, then every item in a column as the original kikoeru card lists them — title, circle, stars,
 * price and sales, release date and lyric badges; with `detail`, the chips, tags and voice actors.
 */
import { memo } from 'react';
import { Link } from 'react-router';
import { Anchor, Box, Divider, Group, Paper, Stack, Text } from '@mantine/core';
import { Cover } from '../cover/Cover.js';
import { t } from '../../i18n/index.js';
import { formatDate } from '../../i18n/format.js';
import { CircleLink, CodeChip, LyricBadges, PriceSales, RatingSummary, StoreLink, TagLinks, VaLinks, WorkExtras } from './card-parts.js';
import type { WorkCardProps } from './WorkCard.js';

export const OldWorkCard = memo(function OldWorkCard({ work, detail, eager, coverSizes }: WorkCardProps) {
  const href = `/work/${work.id}`;
  return (
    <Paper shadow="xs" radius="sm" withBorder h="100%" style={{ overflow: 'hidden', display: 'flex', flexDirection: 'column' }} data-testid="work-card" data-style="old" data-work-id={work.id}>
      <Link to={href} style={{ display: 'block' }}>
        <Cover workId={work.id} alt={t.library.card.cover(work.title)} size="card" sizes={coverSizes} eager={eager}>
          <Box pos="absolute" left={6} bottom={6}>
            <CodeChip work={work} size="sm" />
          </Box>
        </Cover>
      </Link>
      <Stack gap={6} p="xs" style={{ flex: 1 }}>
        <Anchor component={Link} to={href} fw={500} size="sm" lineClamp={2} c="var(--mantine-color-text)" title={work.title} data-testid="work-title">
          {work.title}
        </Anchor>
        <CircleLink circle={work.circle} size="xs" />
        <Divider />
        <RatingSummary work={work} size="xs" />
        <Group gap={6} justify="space-between" wrap="nowrap">
          <PriceSales work={work} />
          <StoreLink workId={work.id} />
        </Group>
        <Group gap={6} justify="space-between" wrap="nowrap">
          <Text size="xs" c="dimmed" data-testid="release">
            {formatDate(work.release)}
          </Text>
          <LyricBadges status={work.lyric_status} size="xs" />
        </Group>
        {detail && (
          <>
            <WorkExtras work={work} size="xs" />
            <TagLinks tags={work.tags} size="xs" />
            <VaLinks vas={work.vas} size="xs" />
          </>
        )}
      </Stack>
    </Paper>
  );
});
