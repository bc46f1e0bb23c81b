/**
 * The write-review dialog: stars, progress and text saved together
 * (PUT /api/review?starOnly=false), or the whole mark deleted. It closes and reports "modified" after a
 * save or a delete.
 */
import { useState } from 'react';
import { Button, Group, Modal, Rating, Select, Stack, Text, Textarea } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import type { Progress, WorkDetail } from '../../../../server/contract/works.js';
import { deleteReview, isProgress, PROGRESS_VALUES, putReview } from '../../components/work-card/review-api.js';
import { useSession } from '../auth/use-session.js';
import { t } from '../../i18n/index.js';
import { notifySuccess } from '../../lib/notify.js';

const R = t.library.reviewDialog;
const NONE = '';

interface ReviewDialogProps {
  work: WorkDetail;
  opened: boolean;
  onClose(modified: boolean): void;
}

export function ReviewDialog({ work, opened, onClose }: ReviewDialogProps) {
  const session = useSession();
  const userName = session.data?.user.name ?? '';
  const [rating, setRating] = useState(work.userRating ?? 0);
  const [progress, setProgress] = useState<Progress | typeof NONE>(work.progress ?? NONE);
  const [text, setText] = useState(work.review_text ?? '');

  // on opening (and when the saved mark changes while open) the fields show the saved mark, in the
  // same render: an effect drew the dialog once with what the last opening left
  const mark = opened ? JSON.stringify([work.userRating, work.progress, work.review_text]) : null;
  const [shownMark, setShownMark] = useState<string | null>(null);
  if (mark !== shownMark) {
    setShownMark(mark);
    if (opened) {
      setRating(work.userRating ?? 0);
      setProgress(work.progress ?? NONE);
      setText(work.review_text ?? '');
    }
  }

  const save = useMutation({
    mutationFn: () => putReview(userName, work.id, { rating: rating || null, review_text: text, progress: progress || null }),
    onSuccess: () => {
      notifySuccess(t.library.marks.rated);
      onClose(true);
    },
  });
  const remove = useMutation({
    mutationFn: () => deleteReview(work.id),
    onSuccess: () => {
      notifySuccess(t.library.marks.removed);
      onClose(true);
    },
  });
  const hasMark = work.user_name !== null || work.userRating !== null || work.progress !== null || !!work.review_text;
  const busy = save.isPending || remove.isPending;

  return (
    <Modal opened={opened} onClose={() => onClose(false)} title={R.title} centered size="lg" data-testid="review-dialog">
      <Stack gap="md">
        <Text size="sm" fw={600} lineClamp={2}>
          {work.title}
        </Text>
        <Group gap="sm">
          <Text size="sm" w={48}>
            {R.rating}
          </Text>
          <Rating value={rating} onChange={setRating} size="lg" allowClear aria-label={R.rating} data-testid="review-rating" />
        </Group>
        <Select
          label={R.progress}
          value={progress}
          onChange={(v) => setProgress(isProgress(v) ? v : NONE)}
          data={[{ value: NONE, label: R.noProgress }, ...PROGRESS_VALUES.map((p) => ({ value: p, label: t.library.progress[p] }))]}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
          data-testid="review-progress"
        />
        <Textarea
          label={R.text}
          placeholder={R.placeholder}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          autosize
          minRows={4}
          maxRows={12}
          maxLength={20_000}
          data-testid="review-text"
        />
        <Group justify="space-between">
          {hasMark ? (
            <Button color="red" variant="subtle" onClick={() => remove.mutate()} loading={remove.isPending} disabled={busy} data-testid="review-delete">
              {R.delete}
            </Button>
          ) : (
            <span />
          )}
          <Group gap="xs">
            <Button variant="default" onClick={() => onClose(false)} disabled={busy}>
              {R.cancel}
            </Button>
            <Button onClick={() => save.mutate()} loading={save.isPending} disabled={busy} data-testid="review-submit">
              {R.submit}
            </Button>
          </Group>
        </Group>
      </Stack>
    </Modal>
  );
}
