/**
 * The work card, new style: the cover carries the code chip, lyric badges and release date;
 * below it the title, circle and stars. With `detail` on, also the tags, the price and sales, the
 * all-ages / multi-language chips with the duration, the store link and the voice actors.
 *
 * The default look is drawn with plain elements and one CSS module (the waterfall mounts and unmounts
 * rows of these while it scrolls); the rarer detail parts keep the shared Mantine pieces.
 */
import { memo, useContext } from 'react';
import { Group } from '@mantine/core';
import type { WorkListItem } from '../../../../server/contract/works.js';
import { Cover } from '../cover/Cover.js';
import { t } from '../../i18n/index.js';
import { formatDate } from '../../i18n/format.js';
import { PriceSales, StoreLink, TagLinks, VaLinks, WorkExtras, hasStoreFacts, metadataStateText, workCode } from './card-parts.js';
import { FollowLinkContext, followLink } from './follow-link.js';
import { formatAverage } from './format.js';
import { WorkRating } from './WorkRating.js';
import classes from './work-card.module.css';

export interface WorkCardProps {
  work: WorkListItem;
  detail: boolean;
  /** Load the cover at once (first row). */
  eager?: boolean;
  /** The width the cover is shown at (`<img sizes>`), when the list knows it. */
  coverSizes?: string;
}

function LyricChips({ status }: { status: string }) {
  const parts = status.split('_');
  const ai = parts.includes('ai');
  const local = parts.includes('local');
  if (!ai && !local) return null;
  return (
    <span className={classes.badges}>
      {ai && (
        <span className={`${classes.badge} ${classes.ai}`} data-testid="lyric-ai">
          {t.library.card.lyricAi}
        </span>
      )}
      {local && (
        <span className={`${classes.badge} ${classes.local}`} data-testid="lyric-local">
          {t.library.card.lyricLocal}
        </span>
      )}
    </span>
  );
}

export const WorkCard = memo(function WorkCard({ work, detail, eager, coverSizes }: WorkCardProps) {
  const href = `/work/${work.id}`;
  const navigate = useContext(FollowLinkContext);
  // plain links (see follow-link.ts); the detail parts below keep the router's links
  return (
    <div className={classes.card} data-testid="work-card" data-work-id={work.id} onClick={(e) => followLink(e, navigate)}>
      <a href={href} className={classes.coverLink} data-in-app>
        <Cover workId={work.id} alt={t.library.card.cover(work.title)} size="card" sizes={coverSizes} eager={eager}>
          <span className={classes.chips}>
            <span className={`${classes.badge} ${classes.code}`} data-testid="code-chip">
              {workCode(work)}
            </span>
            <LyricChips status={work.lyric_status} />
          </span>
          {work.release && (
            <span className={classes.release} data-testid="release">
              {formatDate(work.release)}
            </span>
          )}
        </Cover>
      </a>
      <div className={classes.body}>
        <a href={href} className={classes.title} title={work.title} data-testid="work-title" data-in-app>
          {work.title}
        </a>
        {work.circle.name && (
          <a href={`/works?circleId=${encodeURIComponent(work.circle.id)}`} className={classes.circle} data-testid="circle-link" data-in-app>
            {work.circle.name}
          </a>
        )}
        <div className={classes.rating}>
          <WorkRating workId={work.id} value={work.userRating} size="xs" light />
          {hasStoreFacts(work) ? (
            <span>{`${formatAverage(work.rate_average_2dp, work.rate_count)} ${t.library.card.rateCount(work.rate_count)}`}</span>
          ) : (
            !detail && (
              <span title={work.metadata_error ?? undefined} data-testid="metadata-state" data-status={work.metadata_status}>
                {metadataStateText(work)}
              </span>
            )
          )}
          {work.review_count > 0 && (
            <span className={classes.reviews} title={t.library.card.reviews(work.review_count)}>
              <span className={classes.reviewIcon} aria-hidden />
              {work.review_count}
            </span>
          )}
        </div>
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
      </div>
    </div>
  );
});
