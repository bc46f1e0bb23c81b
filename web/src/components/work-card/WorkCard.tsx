/**
 * The work card (spec §2.4), new style: the cover carries the code chip, lyric badges and release date;
 * below it the title, circle and stars. With `detail` on, also the tags, the price and sales, the
 * all-ages / multi-language chips with the duration, the store link and the voice actors.
 */
import { memo } from 'react';
import { Link } from 'react-router';
import { Anchor, Box, Card, Group, Stack, Text } from '@mantine/core';
import type { WorkListItem } from '../../../../server/contract/works.js';
import { Cover } from '../cover/Cover.js';
import { t } from '../../i18n/index.js';
import { CircleLink, CodeChip, LyricBadges, PriceSales, RatingSummary, StoreLink, TagLinks, VaLinks, WorkExtras } from './card-parts.js';

export interface WorkCardProps {
  work: WorkListItem;
  detail: boolean;
  /** Load the cover at once (first row). */
  eager?: boolean;
}

const overlayText = { color: '#fff', textShadow: '0 1px 2px rgba(0,0,0,.6)' } as const;

export const WorkCard = memo(function WorkCard({ work, detail, eager }: WorkCardProps) {
  const href = `/work/${work.id}`;
  return (
    <Card withBorder padding="sm" radius="md" h="100%" data-testid="work-card" data-work-id={work.id}>
      <Card.Section>
        <Link to={href} aria-label={work.title} style={{ display: 'block' }}>
          <Cover workId={work.id} alt={t.library.card.cover(work.title)} size="card" eager={eager}>
            <Group pos="absolute" top={6} left={6} right={6} justify="space-between" wrap="nowrap" gap={4}>
              <CodeChip work={work} size="sm" />
              <LyricBadges status={work.lyric_status} size="sm" />
            </Group>
            {work.release && (
              <Box pos="absolute" left={0} right={0} bottom={0} px={8} py={4} style={{ background: 'linear-gradient(transparent, rgba(0,0,0,.55))' }}>
                <Text size="xs" fw={500} style={overlayText} data-testid="release">
                  {work.release}
                </Text>
              </Box>
            )}
          </Cover>
        </Link>
      </Card.Section>
      <Stack gap={4} mt="xs" style={{ flex: 1 }}>
        <Anchor component={Link} to={href} fw={600} size="sm" lineClamp={2} c="var(--mantine-color-text)" title={work.title} data-testid="work-title">
          {work.title}
        </Anchor>
        <CircleLink circle={work.circle} size="xs" />
        <RatingSummary work={work} size="xs" />
        {detail && (
          <>
            <TagLinks tags={work.tags} size="xs" />
            <Group gap={6} justify="space-between" wrap="nowrap">
              <PriceSales work={work} />
              <StoreLink workId={work.id} />
            </Group>
            <WorkExtras work={work} size="xs" />
            <VaLinks vas={work.vas} size="xs" />
          </>
        )}
      </Stack>
    </Card>
  );
});
