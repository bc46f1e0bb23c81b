/**
 * The work page's buttons: edit work info (admin), mark progress, write review, play the
 * saved history of this work (when there is one and the work is not already playing), delete the play
 * record, translate the current folder's audio, and "more" (admin): scan local files, fix GBK /
 * Shift-JIS file names — both reload the page when the server answers with a `memo`. Each button is
 * offered only to the roles the server lets do it: guests (browse and play only) get resume and a note
 * in place of progress, review, history and translate; edit and "more" are the admin's.
 */
import { Button, Group, Menu, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useMutation } from '@tanstack/react-query';
import {
  IconBookmark,
  IconCheck,
  IconChevronDown,
  IconDots,
  IconEdit,
  IconHistory,
  IconInfoCircle,
  IconLanguage,
  IconPencil,
  IconPlayerPlayFilled,
  IconRefresh,
  IconTextRecognition,
} from '@tabler/icons-react';
import type { Progress, WorkDetail } from '../../../../server/contract/works.js';
import { ApiError } from '../../api/client.js';
import { PROGRESS_VALUES, putProgress } from '../../components/work-card/review-api.js';
import { t } from '../../i18n/index.js';
import { notifyError, notifySuccess, notifyWarning } from '../../lib/notify.js';
import { reportError } from '../../api/errors.js';
import { deleteHistory } from '../favourites/api.js';
import { parsePlayState } from '../player/queue-entry.js';
import { usePlayer } from '../player/store.js';
import { fixGbkNames, scanWorkFiles, type MemoAnswer } from './api.js';

const D = t.library.detail;

interface WorkActionsProps {
  work: WorkDetail;
  userName: string;
  admin: boolean;
  /** Users and admins (not guests): progress, review, play history, AI lyric requests. */
  canWrite: boolean;
  /** Audio files of the folder the tree shows, for "translate current folder". */
  folderAudioCount: number;
  onTranslateFolder(): Promise<{ done: number; failed: number }>;
  onEdit(): void;
  onReview(): void;
  /** Refetch the work after a change. */
  onChanged(): void;
  /** Reload the page (after a rescan or a name repair). */
  onReload(): void;
}

function confirm(message: string, onConfirm: () => void, danger = false) {
  modals.openConfirmModal({
    children: message,
    labels: { confirm: D.confirm, cancel: D.cancel },
    confirmProps: danger ? { color: 'red' } : undefined,
    centered: true,
    onConfirm,
  });
}

export function WorkActions({ work, userName, admin, canWrite, folderAudioCount, onTranslateFolder, onEdit, onReview, onChanged, onReload }: WorkActionsProps) {
  const resumeHistory = usePlayer((s) => s.resumeHistory);
  const playingThis = usePlayer((s) => s.playing && s.queue[s.index]?.workId === work.id);
  const saved = parsePlayState(work.state);

  const progress = useMutation({
    mutationFn: (value: Progress) => putProgress(userName, work.id, value),
    onSuccess: () => {
      notifySuccess(t.library.marks.progressSaved);
      onChanged();
    },
  });

  const removeHistory = useMutation({
    mutationFn: () => deleteHistory(work.id),
    meta: { silent: true },
    onSuccess: () => {
      notifySuccess(D.deleteHistoryDone);
      onChanged();
    },
    onError: (err) => {
      // a guest's 403 and a lost session go through the generic handler; anything else is the page's own text
      if (err instanceof ApiError && (err.status === 401 || err.status === 403)) reportError(err);
      else {
        console.error(err);
        notifyError(D.deleteHistoryFailed);
      }
    },
  });

  const afterMemo = (answer: MemoAnswer, message: string) => {
    if (answer && typeof answer === 'object' && 'memo' in answer && answer.memo) {
      notifySuccess(message);
      onReload();
    }
  };
  const scan = useMutation({ mutationFn: () => scanWorkFiles(work.id), onSuccess: (a) => afterMemo(a, D.scanDone) });
  const fixGbk = useMutation({ mutationFn: () => fixGbkNames(work.id), onSuccess: (a) => afterMemo(a, D.fixDone) });

  const translate = useMutation({
    mutationFn: onTranslateFolder,
    meta: { silent: true },
    onSuccess: ({ done, failed }) => (failed && !done ? notifyError(D.translateDone(done, failed)) : notifySuccess(D.translateDone(done, failed), { autoClose: 2000 })),
    onError: reportError,
  });

  return (
    <Group gap="xs" mt="xs" data-testid="work-actions">
      {admin && (
        <Button variant="light" leftSection={<IconEdit size={16} />} onClick={onEdit} data-testid="action-edit">
          {D.edit}
        </Button>
      )}
      {canWrite && (
        <Menu position="bottom-start" withinPortal>
          <Menu.Target>
            <Button variant="light" leftSection={<IconBookmark size={16} />} rightSection={<IconChevronDown size={14} />} loading={progress.isPending} data-testid="action-progress">
              {work.progress ? t.library.progress[work.progress] : D.progress}
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            {PROGRESS_VALUES.map((p) => (
              <Menu.Item key={p} onClick={() => progress.mutate(p)} rightSection={work.progress === p ? <IconCheck size={14} /> : null} data-testid={`progress-${p}`}>
                {t.library.progress[p]}
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
      )}
      {canWrite && (
        <Button variant="light" leftSection={<IconPencil size={16} />} onClick={onReview} data-testid="action-review">
          {D.review}
        </Button>
      )}
      {saved && !playingThis && (
        <Button
          variant="filled"
          leftSection={<IconPlayerPlayFilled size={16} />}
          onClick={() => resumeHistory(work.state)}
          title={D.resumeTip(saved.queue[saved.index]?.title ?? '')}
          data-testid="action-resume"
        >
          {D.resume}
        </Button>
      )}
      {saved && canWrite && (
        <Button
          variant="subtle"
          color="red"
          leftSection={<IconHistory size={16} />}
          onClick={() => confirm(D.deleteHistoryConfirm, () => removeHistory.mutate(), true)}
          loading={removeHistory.isPending}
          data-testid="action-delete-history"
        >
          {D.deleteHistory}
        </Button>
      )}
      {canWrite && (
        <Button
          variant="subtle"
          leftSection={<IconLanguage size={16} />}
          onClick={() => (folderAudioCount ? confirm(D.translateConfirm(folderAudioCount), () => translate.mutate()) : notifyWarning(D.translateNone))}
          loading={translate.isPending}
          data-testid="action-translate-folder"
        >
          {D.translateFolder}
        </Button>
      )}
      {!canWrite && (
        <Text size="sm" c="dimmed" data-testid="guest-note" style={{ display: 'inline-flex', alignItems: 'center', gap: 6 }}>
          <IconInfoCircle size={16} aria-hidden />
          {D.guestNote}
        </Text>
      )}
      {admin && (
        <Menu position="bottom-start" withinPortal>
          <Menu.Target>
            <Button variant="subtle" color="gray" leftSection={<IconDots size={16} />} loading={scan.isPending || fixGbk.isPending} data-testid="action-more">
              {D.more}
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item leftSection={<IconRefresh size={16} />} onClick={() => scan.mutate()} data-testid="action-scan">
              {D.scanFiles}
            </Menu.Item>
            <Menu.Item leftSection={<IconTextRecognition size={16} />} onClick={() => fixGbk.mutate()} data-testid="action-fix-gbk">
              {D.fixGbk}
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      )}
    </Group>
  );
}
