/**
 * The pieces a work is shown with: code chip, lyric badges, label links, rating summary,
 * price and sales, the all-ages / multi-language chips and duration, the store link. The new card, the
 * old card, the list item and the work page arrange the same pieces.
 */
import { Link } from 'react-router';
import { Anchor, Badge, Group, Text } from '@mantine/core';
import { IconClock, IconExternalLink, IconMessage } from '@tabler/icons-react';
import type { LabelRef, WorkListItem } from '../../../../server/contract/works.js';
import { formatWorkCode, storeUrl } from '../../../../server/domain/work-code.js';
import { t } from '../../i18n/index.js';
import { formatAverage } from './format.js';
import { formatDuration } from '../../i18n/format.js';
import { WorkRating } from './WorkRating.js';

type Size = 'xs' | 'sm' | 'md';

export const workCode = (work: Pick<WorkListItem, 'id'> & { code?: string }): string => work.code || formatWorkCode(work.id);

export function CodeChip({ work, size = 'sm', variant = 'filled' }: { work: Pick<WorkListItem, 'id' | 'code'>; size?: Size; variant?: 'filled' | 'light' }) {
  return (
    <Badge size={size} variant={variant} color="violet" radius="sm" tt="none" style={{ fontFamily: 'var(--mantine-font-family-monospace)' }} data-testid="code-chip">
      {workCode(work)}
    </Badge>
  );
}

export function LyricBadges({ status, size = 'sm' }: { status: string; size?: Size }) {
  const parts = status.split('_').filter(Boolean);
  if (!parts.length) return null;
  return (
    <Group gap={4} wrap="nowrap">
      {parts.includes('ai') && (
        <Badge size={size} color="grape" variant="filled" radius="sm" data-testid="lyric-ai">
          {t.library.card.lyricAi}
        </Badge>
      )}
      {parts.includes('local') && (
        <Badge size={size} color="teal" variant="filled" radius="sm" data-testid="lyric-local">
          {t.library.card.lyricLocal}
        </Badge>
      )}
    </Group>
  );
}

export function CircleLink({ circle, size = 'sm' }: { circle: LabelRef<number>; size?: Size }) {
  if (!circle.name) return null;
  return (
    <Anchor component={Link} to={`/works?circleId=${encodeURIComponent(circle.id)}`} size={size} c="dimmed" lineClamp={1} data-testid="circle-link">
      {circle.name}
    </Anchor>
  );
}

export function TagLinks({ tags, size = 'sm', max }: { tags: LabelRef<number>[]; size?: Size; max?: number }) {
  const shown = max === undefined ? tags : tags.slice(0, max);
  if (!shown.length) return null;
  return (
    <Group gap={4} data-testid="tag-links">
      {shown.map((tag) => (
        <Badge key={tag.id} component={Link} to={`/works?tagId=${encodeURIComponent(tag.id)}`} size={size} variant="light" color="gray" radius="sm" tt="none" style={{ cursor: 'pointer' }}>
          {tag.name}
        </Badge>
      ))}
    </Group>
  );
}

export function VaLinks({ vas, size = 'sm', max }: { vas: LabelRef<string>[]; size?: Size; max?: number }) {
  const shown = (max === undefined ? vas : vas.slice(0, max)).filter((va) => va.name);
  if (!shown.length) return null;
  return (
    <Group gap={4} data-testid="va-links">
      {shown.map((va) => (
        <Badge key={va.id} component={Link} to={`/works?vaId=${encodeURIComponent(va.id)}`} size={size} variant="light" color="blue" radius="sm" tt="none" style={{ cursor: 'pointer' }}>
          {va.name}
        </Badge>
      ))}
    </Group>
  );
}

/** Whether the store's facts (price, sales, age rating, DLsite ratings) of a work are known. */
export const hasStoreFacts = (work: Pick<WorkListItem, 'metadata_status'>): boolean => (work.metadata_status ?? 'ok') === 'ok';

/** What is known of a work's metadata when it is not there: pending, failed or not on DLsite. */
export function metadataStateText(work: Pick<WorkListItem, 'metadata_status'>): string {
  const c = t.library.card;
  return work.metadata_status === 'failed' ? c.metadataFailed : work.metadata_status === 'not_found' ? c.metadataNotFound : c.metadataPending;
}

/** The metadata state of a work without metadata, the failure's reason as its tooltip. */
export function MetadataState({ work, size = 'xs' }: { work: Pick<WorkListItem, 'metadata_status' | 'metadata_error'>; size?: 'xs' | 'sm' }) {
  return (
    <Text size={size} c="dimmed" component="span" title={work.metadata_error ?? undefined} data-testid="metadata-state" data-status={work.metadata_status}>
      {metadataStateText(work)}
    </Text>
  );
}

/** Editable stars (the light input of the lists), DLsite average, rating count and review count. */
export function RatingSummary({ work, size = 'sm', withReviews = true }: { work: WorkListItem; size?: Size; withReviews?: boolean }) {
  return (
    <Group gap={6} wrap="wrap" align="center">
      <WorkRating workId={work.id} value={work.userRating} size={size} light />
      {hasStoreFacts(work) && (
        <Text size={size === 'md' ? 'sm' : 'xs'} c="dimmed" component="span">
          {formatAverage(work.rate_average_2dp, work.rate_count)} {t.library.card.rateCount(work.rate_count)}
        </Text>
      )}
      {withReviews && work.review_count > 0 && (
        <Group gap={2} wrap="nowrap" c="dimmed" title={t.library.card.reviews(work.review_count)}>
          <IconMessage size={14} aria-hidden />
          <Text size="xs" component="span">
            {work.review_count}
          </Text>
        </Group>
      )}
    </Group>
  );
}

/** The DLsite page of the work; a plain title instead of a tooltip (cheap in long lists). */
export function StoreLink({ workId, label = false }: { workId: number; label?: boolean }) {
  return (
    <Anchor href={storeUrl(workId)} target="_blank" rel="noopener noreferrer" size="xs" aria-label={t.library.card.store} title={t.library.card.store} data-testid="store-link">
      <Group gap={2} wrap="nowrap" component="span">
        <IconExternalLink size={14} aria-hidden />
        {label && t.library.card.store}
      </Group>
    </Anchor>
  );
}

/** Price and sales; the metadata state instead when they are not known (never an invented "0"). */
export function PriceSales({ work }: { work: WorkListItem }) {
  if (!hasStoreFacts(work)) return <MetadataState work={work} />;
  return (
    <Text size="xs" c="dimmed" component="span">
      {t.library.card.price(work.price)} · {t.library.card.sales(work.dl_count)}
    </Text>
  );
}

/** All-ages chip, multi-language chip (other language editions in the library), total duration. */
export function WorkExtras({ work, size = 'sm' }: { work: WorkListItem; size?: Size }) {
  const duration = formatDuration(work.memo?.totalDuration);
  const multi = (work.relatedWorks?.length ?? 0) > 1;
  // the age rating is a store fact: unknown without metadata
  const allAges = !work.nsfw && hasStoreFacts(work);
  if (!allAges && !multi && !duration) return null;
  return (
    <Group gap={4} wrap="nowrap">
      {allAges && (
        <Badge size={size} color="green" variant="outline" radius="sm" data-testid="all-ages">
          {t.library.card.allAges}
        </Badge>
      )}
      {multi && (
        <Badge size={size} color="orange" variant="outline" radius="sm" data-testid="multi-language">
          {t.library.card.multiLanguage}
        </Badge>
      )}
      {duration && (
        <Badge size={size} color="gray" variant="outline" radius="sm" leftSection={<IconClock size={11} aria-hidden />} data-testid="duration">
          {duration}
        </Badge>
      )}
    </Group>
  );
}
