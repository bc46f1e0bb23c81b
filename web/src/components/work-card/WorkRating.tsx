/**
 * The current user's editable stars on a work. Clicking a star saves it at once
 * (PUT /api/review, stars only); the server's message is the brief success toast; a refusal shows the
 * generic warning, after which the stars go back to what was saved. Guests may not rate: they get no stars.
 */
import { useEffect, useState } from 'react';
import { Rating } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { IconStar } from '@tabler/icons-react';
import { HoverTip } from '../HoverTip.js';
import type { RateCountDetail } from '../../../../server/contract/works.js';
import { reportError } from '../../api/errors.js';
import { canWriteUser, type Session } from '../../api/types.js';
import { SESSION_KEY } from '../../api/session.js';
import { t } from '../../i18n/index.js';
import { notifySuccess } from '../../lib/notify.js';
import { putRating } from './review-api.js';
import { StarInput } from './StarInput.js';

interface WorkRatingProps {
  workId: number;
  value: number | null;
  size?: 'xs' | 'sm' | 'md' | 'lg';
  /** Per-star tooltip with the DLsite distribution (the work page). */
  detail?: RateCountDetail[] | null;
  /** The light star input of the lists (no tooltips, no hidden inputs). */
  light?: boolean;
  onSaved?: (rating: number) => void;
}

const FULL = 'var(--mantine-color-yellow-5)';
const EMPTY = 'var(--mantine-color-gray-5)';

/** Queries that show the user's stars: refreshed after a change. */
export const RATING_KEYS = [['work'], ['favourites']] as const;

function starTip(stars: number, detail: RateCountDetail[] | null | undefined): string {
  const row = detail?.find((d) => d.review_point === stars);
  return row ? t.library.card.ratingTip(stars, row.count, row.ratio) : t.library.card.noRatingDetail(stars);
}

export function WorkRating({ workId, value, size = 'sm', detail, light = false, onSaved }: WorkRatingProps) {
  // no query or mutation observers here: a list shows dozens of these, each would subscribe
  const queryClient = useQueryClient();
  const [shown, setShown] = useState(value ?? 0);
  useEffect(() => {
    setShown(value ?? 0);
  }, [value]);

  // pages render once the session is known (SessionOutlet); read it without subscribing every card
  const user = queryClient.getQueryData<Session>(SESSION_KEY)?.user;

  const change = (rating: number) => {
    if (rating === shown) return;
    setShown(rating);
    const userName = user?.name ?? '';
    putRating(userName, workId, rating).then(
      () => {
        notifySuccess(t.library.marks.rated);
        onSaved?.(rating);
        for (const key of RATING_KEYS) void queryClient.invalidateQueries({ queryKey: [...key] });
      },
      (err: unknown) => {
        setShown(value ?? 0);
        reportError(err);
      },
    );
  };

  if (!canWriteUser(user)) return null;

  if (light) {
    return (
      <span data-testid="work-rating" data-value={shown}>
        <StarInput value={shown} onChange={change} size={size} label={t.library.card.myRating} />
      </span>
    );
  }

  // one element for both states, only its colours change: the pointer's hover fills stars, and a star
  // element swapped for another under a click (between its mousedown and mouseup) would lose the click
  const symbol = (filled: boolean) => (stars: number) => {
    const icon = filled ? <IconStar size="1em" color={FULL} fill={FULL} /> : <IconStar size="1em" color={EMPTY} fill="none" />;
    if (detail === undefined) return icon;
    return (
      <HoverTip label={starTip(stars, detail)} withArrow openDelay={200}>
        <span style={{ display: 'inline-flex' }}>{icon}</span>
      </HoverTip>
    );
  };

  return (
    <Rating
      value={shown}
      onChange={change}
      size={size}
      emptySymbol={symbol(false)}
      fullSymbol={symbol(true)}
      getSymbolLabel={(stars) => `${t.library.card.myRating} ${stars}`}
      aria-label={t.library.card.myRating}
      data-testid="work-rating"
      data-value={shown}
    />
  );
}
