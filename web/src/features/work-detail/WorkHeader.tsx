/**
 * The work page header: cover, title, circle link, the user's stars with a tooltip per star
 * (the DLsite distribution), average, rating count, review count, store link, price in yen, sales,
 * total duration, tags and voice actors; the action buttons go below.
 */
import type { ReactNode } from 'react';
import { Box, Group, Stack, Text, Title } from '@mantine/core';
import type { WorkDetail } from '../../../../server/contract/works.js';
import { Cover } from '../../components/cover/Cover.js';
import { CircleLink, CodeChip, LyricBadges, PriceSales, StoreLink, TagLinks, VaLinks, WorkExtras, hasStoreFacts } from '../../components/work-card/card-parts.js';
import { formatAverage } from '../../components/work-card/format.js';
import { WorkRating } from '../../components/work-card/WorkRating.js';
import { t } from '../../i18n/index.js';
import { formatDate } from '../../i18n/format.js';

export function WorkHeader({ work, actions }: { work: WorkDetail; actions: ReactNode }) {
  const failure = work.metadata_status === 'failed' ? work.metadata_error : null;
  return (
    <Group align="flex-start" gap="lg" wrap="wrap" data-testid="work-header">
      <Box w={{ base: '100%', sm: 360 }} style={{ flexShrink: 0 }}>
        <Cover workId={work.id} alt={t.library.card.cover(work.title)} size="large" eager radius="var(--mantine-radius-md)">
          <Group pos="absolute" top={8} left={8} right={8} justify="space-between" wrap="nowrap">
            <CodeChip work={work} />
            <LyricBadges status={work.lyric_status} />
          </Group>
        </Cover>
      </Box>
      <Stack gap="sm" style={{ flex: '1 1 320px', minWidth: 0 }}>
        <Title order={1} size="h3" fw={600} style={{ overflowWrap: 'anywhere' }} data-testid="work-detail-title">
          {work.title}
        </Title>
        <Group gap="sm">
          <CircleLink circle={work.circle} size="sm" />
          {work.release && (
            <Text size="sm" c="dimmed">
              {formatDate(work.release)}
            </Text>
          )}
        </Group>
        <Group gap="sm" align="center">
          <WorkRating workId={work.id} value={work.userRating} size="md" detail={work.rate_count_detail} />
          {hasStoreFacts(work) && (
            <Text size="sm" c="dimmed">
              {formatAverage(work.rate_average_2dp, work.rate_count)} {t.library.card.rateCount(work.rate_count)}
            </Text>
          )}
          {work.review_count > 0 && (
            <Text size="sm" c="dimmed">
              {t.library.card.reviews(work.review_count)}
            </Text>
          )}
          <StoreLink workId={work.id} label />
        </Group>
        <Group gap="sm">
          {/* a failure with its reason (below) stands for price and sales */}
          {!failure && <PriceSales work={work} />}
          <WorkExtras work={work} />
        </Group>
        {failure && (
          <Text size="sm" c="red" data-testid="metadata-error">
            {t.library.card.metadataFailedWith(failure)}
          </Text>
        )}
        <TagLinks tags={work.tags} />
        <VaLinks vas={work.vas} />
        {actions}
      </Stack>
    </Group>
  );
}
