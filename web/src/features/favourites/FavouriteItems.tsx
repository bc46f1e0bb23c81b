/**
 * Items of the favourites lists: a marked work (stars, progress and review text, editable in place) and
 * a play-history entry (where it stopped, resume, delete the record).
 */
import { Link } from 'react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ActionIcon, Anchor, Box, Button, Group, Paper, Select, Spoiler, Stack, Text } from '@mantine/core';
import { IconPlayerPlayFilled, IconTrash } from '@tabler/icons-react';
import { HoverTip } from '../../components/HoverTip.js';
import type { Progress } from '../../../../server/contract/works.js';
import { ApiError } from '../../api/client.js';
import { reportError } from '../../api/errors.js';
import { Cover } from '../../components/cover/Cover.js';
import { CircleLink, CodeChip } from '../../components/work-card/card-parts.js';
import { isProgress, PROGRESS_VALUES, putProgress } from '../../components/work-card/review-api.js';
import { WorkRating } from '../../components/work-card/WorkRating.js';
import { t } from '../../i18n/index.js';
import { notifyError, notifySuccess } from '../../lib/notify.js';
import { useSession } from '../auth/use-session.js';
import { formatDate, formatRelative, formatTime } from '../../i18n/format.js';
import { parsePlayState } from '../player/queue-entry.js';
import { usePlayer } from '../player/store.js';
import { deleteHistory, FAVOURITES_KEY, type HistoryListWork, type ReviewListWork } from './api.js';

const F = t.library.favourites;

function ItemFrame({ workId, title, children }: { workId: number; title: string; children: React.ReactNode }) {
  return (
    <Paper withBorder radius="md" p="xs" data-testid="favourite-item" data-work-id={workId}>
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <Box component={Link} to={`/work/${workId}`} aria-label={title} w={{ base: 72, sm: 96 }} style={{ flexShrink: 0 }}>
          <Cover workId={workId} alt={t.library.card.cover(title)} size="thumb" radius="var(--mantine-radius-sm)" />
        </Box>
        <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
          <Anchor component={Link} to={`/work/${workId}`} fw={600} size="sm" lineClamp={2} c="var(--mantine-color-text)" title={title}>
            {title}
          </Anchor>
          {children}
        </Stack>
      </Group>
    </Paper>
  );
}

export function ReviewItem({ work }: { work: ReviewListWork }) {
  const session = useSession();
  const queryClient = useQueryClient();
  const progress = useMutation({
    mutationFn: (value: Progress | null) => putProgress(session.data?.user.name ?? '', work.id, value),
    onSuccess: () => {
      notifySuccess(t.library.marks.progressSaved);
      void queryClient.invalidateQueries({ queryKey: [...FAVOURITES_KEY] });
    },
  });
  return (
    <ItemFrame workId={work.id} title={work.title}>
      <Group gap={6} wrap="wrap">
        <CodeChip work={work} size="xs" variant="light" />
        <CircleLink circle={work.circle} size="xs" />
      </Group>
      <Group gap="sm" wrap="wrap" align="center">
        <WorkRating workId={work.id} value={work.userRating} size="sm" light />
        <Select
          value={work.progress ?? ''}
          onChange={(v) => progress.mutate(isProgress(v) ? v : null)}
          data={[{ value: '', label: t.library.reviewDialog.noProgress }, ...PROGRESS_VALUES.map((p) => ({ value: p, label: t.library.progress[p] }))]}
          allowDeselect={false}
          size="xs"
          w={96}
          aria-label={t.library.reviewDialog.progress}
          disabled={progress.isPending}
          data-testid="favourite-progress"
        />
        <Text size="xs" c="dimmed">
          {F.markedAt(formatDate(work.updated_at))}
        </Text>
      </Group>
      {work.review_text && (
        <Spoiler maxHeight={60} showLabel="…" hideLabel="▲">
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} data-testid="favourite-review-text">
            {work.review_text}
          </Text>
        </Spoiler>
      )}
    </ItemFrame>
  );
}

export function HistoryItem({ work }: { work: HistoryListWork }) {
  const queryClient = useQueryClient();
  const resumeHistory = usePlayer((s) => s.resumeHistory);
  const state = parsePlayState(work.state);
  const current = state?.queue[state.index];
  const remove = useMutation({
    mutationFn: () => deleteHistory(work.id),
    meta: { silent: true },
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: [...FAVOURITES_KEY] }),
    onError: (err) => {
      if (err instanceof ApiError && (err.status === 401 || err.status === 403)) reportError(err);
      else {
        console.error(err);
        notifyError(t.library.detail.deleteHistoryFailed);
      }
    },
  });
  return (
    <ItemFrame workId={work.id} title={work.title}>
      <Group gap={6} wrap="wrap">
        <CodeChip work={work} size="xs" variant="light" />
        <CircleLink circle={work.circle} size="xs" />
      </Group>
      {current && (
        <Text size="xs" c="dimmed" lineClamp={1}>
          {F.lastTrack(current.title, formatTime(state?.seconds ?? 0))}
        </Text>
      )}
      <Group gap="xs" justify="space-between">
        <Text size="xs" c="dimmed">
          {F.playedAt(formatRelative(work.play_updated_at))}
        </Text>
        <Group gap={4}>
          {state && (
            <Button size="compact-sm" leftSection={<IconPlayerPlayFilled size={14} />} onClick={() => resumeHistory(work.state)} data-testid="history-resume">
              {F.resume}
            </Button>
          )}
          <HoverTip label={F.deleteHistory}>
            <ActionIcon variant="subtle" color="red" onClick={() => remove.mutate()} loading={remove.isPending} aria-label={F.deleteHistory} data-testid="history-delete">
              <IconTrash size={16} />
            </ActionIcon>
          </HoverTip>
        </Group>
      </Group>
    </ItemFrame>
  );
}
