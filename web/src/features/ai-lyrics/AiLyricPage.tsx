/**
 * /ai_lyric, the AI lyric centre: filters by work id number, file name and status
 * (multi-select); a refresh control; the list refreshes every 5 s; retry when the status is pending or
 * higher; delete; the worker's name with the account that acquired (and finished) the task, status text and
 * progress; the LRC of a finished task; when tasks wait and no worker is around, how to start one.
 */
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ActionIcon, Alert, Anchor, Badge, Button, Code, Group, Modal, MultiSelect, Pagination, Paper, Progress, ScrollArea, Skeleton, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { modals } from '@mantine/modals';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { IconFileMusic, IconRefresh, IconRotateClockwise, IconTrash, IconFileText } from '@tabler/icons-react';
import { HoverTip } from '../../components/HoverTip.js';
import { formatWorkCode, parseProductCode } from '../../../../server/domain/work-code.js';
import { aiStatusCode, type AiStatusName } from '../../../../server/domain/ai-status.js';
import { canWriteUser, isAdminUser } from '../../api/types.js';
import { t } from '../../i18n/index.js';
import { formatDateTime } from '../../i18n/format.js';
import { notifySuccess } from '../../lib/notify.js';
import { useSession } from '../auth/use-session.js';
import type { AiTask, AiTaskAccount } from '../../api/types.js';
import { AI_TASKS_KEY, deleteAiTasks, fetchAiLrc, fetchAiTasks, retryAiTasks } from './api.js';
import { AiStatusBadge } from './AiStatusBadge.js';
import { WorkerHint } from './WorkerHint.js';
import { retryable, statusOf, taskFile, workerProgress } from './task-info.js';

const c = t.aiCentre;

export const AUTO_REFRESH_MS = 5_000;
const FILTER_DEBOUNCE_MS = 500;

/** Built at each render: the labels are read in the active language. */
const statusOptions = (): { value: string; label: string }[] =>
  (['pending', 'transcribing', 'success', 'error'] as const).map((name) => ({
    value: String(aiStatusCode(name)),
    label: c.statuses[name],
  }));

/** "123456", "RJ123456", "bj01234567" → a work id; "" → none; anything else → NaN. */
export function parseWorkFilter(text: string): number | undefined {
  const s = text.trim();
  if (!s) return undefined;
  if (/^\d{1,16}$/.test(s)) return Number(s);
  return parseProductCode(s) ?? Number.NaN;
}

function LrcDialog({ task, onClose }: { task: AiTask | null; onClose: () => void }) {
  const lrc = useQuery({ queryKey: [...AI_TASKS_KEY, 'lrc', task?.id], queryFn: ({ signal }) => fetchAiLrc(task!.id, signal), enabled: task !== null });
  return (
    <Modal opened={task !== null} onClose={onClose} title={task ? taskFile(task.audio_path).fileBasename : ''} size="lg" centered>
      {lrc.data !== undefined ? (
        <ScrollArea.Autosize mah="60vh">
          <Code block data-testid="ai-lrc">
            {lrc.data}
          </Code>
        </ScrollArea.Autosize>
      ) : (
        <Skeleton h={200} />
      )}
    </Modal>
  );
}

/** A finished task keeps the last progress line it reported; it only means something while working (or why it failed). */
const showsWorkerStatus = (status: AiStatusName) => status === 'transcribing' || status === 'error';

const accountText = (a: AiTaskAccount) => c.account(a.kind, a.name);
const sameAccount = (a: AiTaskAccount, b: AiTaskAccount) => a.kind === b.kind && a.name === b.name;

/** The accounts that acquired and finished a task: the worker name is self-chosen, these are who really sent it. */
function TaskAccounts({ task }: { task: AiTask }) {
  const acquired = task.acquired_by ?? null;
  const finished = task.finished_by ?? null;
  const parts = [acquired && c.acquiredBy(accountText(acquired)), finished && !(acquired && sameAccount(acquired, finished)) && c.finishedBy(accountText(finished))].filter((p): p is string =>
    Boolean(p),
  );
  if (!parts.length) return null;
  return (
    <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }} data-testid="ai-task-account">
      {parts.join(' · ')}
    </Text>
  );
}

function TaskCard({ task, writable, onRetry, onDelete, onShowLrc, busy }: { task: AiTask; writable: boolean; onRetry: () => void; onDelete: () => void; onShowLrc: () => void; busy: boolean }) {
  const file = taskFile(task.audio_path);
  const status: AiStatusName = statusOf(task);
  const progress = status === 'transcribing' ? workerProgress(task.worker_status) : null;
  return (
    <Paper withBorder radius="md" p="sm" data-testid="ai-task" data-task-id={task.id} data-status={status}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
          <Group gap={8} wrap="nowrap" style={{ minWidth: 0 }}>
            <IconFileMusic size={20} stroke={1.6} aria-hidden style={{ flexShrink: 0 }} />
            <Text fw={600} size="sm" style={{ wordBreak: 'break-all' }} data-testid="ai-task-file">
              {file.fileName}
              {file.fileExt && (
                <Text span c="dimmed" size="sm" fw={400}>
                  {file.fileExt}
                </Text>
              )}
            </Text>
          </Group>
          <AiStatusBadge status={status} style={{ flexShrink: 0 }} />
        </Group>
        <Group gap={6} wrap="wrap">
          <Anchor component={Link} to={`/work/${task.work_id}`} size="sm" fw={500}>
            {formatWorkCode(task.work_id)}
          </Anchor>
          {task.title && (
            <Text size="sm" c="dimmed" lineClamp={1} style={{ flex: '1 1 160px', minWidth: 0 }}>
              {task.title}
            </Text>
          )}
          {file.folder && (
            <Badge variant="default" size="sm" radius="sm" style={{ textTransform: 'none', maxWidth: '100%' }}>
              {file.folder}
            </Badge>
          )}
        </Group>
        <Group gap={6} wrap="wrap" data-testid="ai-task-worker">
          <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
            {/* the label and its colon; the value is the next Text */}
            {t.punctuation.labelled(c.worker, '').trimEnd()}
          </Text>
          <Text size="xs" style={{ wordBreak: 'break-all' }}>
            {task.worker_name ? `${task.worker_name}${task.worker_status && showsWorkerStatus(status) ? ` · ${task.worker_status}` : ''}` : c.noWorker}
          </Text>
          <TaskAccounts task={task} />
        </Group>
        {status === 'transcribing' && (
          <Progress value={progress === null ? 100 : progress * 100} striped animated={progress === null} size="sm" aria-label={task.worker_status ?? c.statuses.transcribing} />
        )}
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Text size="xs" c="dimmed">
            {task.updated_at ? c.updatedAt(formatDateTime(task.updated_at)) : ''}
          </Text>
          <Group gap={4}>
            {status === 'success' && (
              <Button size="compact-sm" variant="subtle" leftSection={<IconFileText size={16} />} onClick={onShowLrc}>
                {c.viewLrc}
              </Button>
            )}
            {writable && retryable(task) && (
              <Button size="compact-sm" variant="light" leftSection={<IconRotateClockwise size={16} />} onClick={onRetry} disabled={busy} data-testid="ai-task-retry">
                {c.retry}
              </Button>
            )}
            {writable && (
              <HoverTip label={c.delete}>
                <ActionIcon variant="subtle" color="red" onClick={onDelete} disabled={busy} aria-label={`${c.delete} ${file.fileBasename}`} data-testid="ai-task-delete">
                  <IconTrash size={16} />
                </ActionIcon>
              </HoverTip>
            )}
          </Group>
        </Group>
      </Stack>
    </Paper>
  );
}

export function AiLyricPage() {
  const queryClient = useQueryClient();
  const session = useSession();
  const [params] = useSearchParams();
  const [workText, setWorkText] = useState(params.get('work_id') ?? '');
  const [fileName, setFileName] = useState(params.get('file_name') ?? '');
  const [statuses, setStatuses] = useState<string[]>([]);
  const [page, setPage] = useState(1);
  const [auto, setAuto] = useState(true);
  const [lrcOf, setLrcOf] = useState<AiTask | null>(null);
  const [debouncedWork] = useDebouncedValue(workText, FILTER_DEBOUNCE_MS);
  const [debouncedFile] = useDebouncedValue(fileName.trim(), FILTER_DEBOUNCE_MS);

  const workId = parseWorkFilter(debouncedWork);
  const badWork = workId !== undefined && Number.isNaN(workId);
  const filter = { page, workId: badWork ? undefined : workId, fileName: debouncedFile, statuses: statuses.map(Number).sort() };
  // users and the admin queue, retry and delete tasks (a user only their own: the server says which); guests only look
  const writable = canWriteUser(session.data?.user);

  const tasks = useQuery({
    queryKey: [...AI_TASKS_KEY, 'list', filter],
    queryFn: ({ signal }) => fetchAiTasks(filter, signal),
    enabled: !badWork,
    placeholderData: keepPreviousData,
    refetchInterval: auto ? AUTO_REFRESH_MS : false,
    staleTime: 0,
  });

  const refresh = () => queryClient.invalidateQueries({ queryKey: AI_TASKS_KEY });
  const retry = useMutation({
    mutationFn: (id: number) => retryAiTasks([id]),
    onSuccess: async () => {
      notifySuccess(c.retried);
      await refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (id: number) => deleteAiTasks([id]),
    onSuccess: async () => {
      notifySuccess(c.deleted);
      await refresh();
    },
  });
  const confirmDelete = (task: AiTask) =>
    modals.openConfirmModal({
      title: c.deleteTitle,
      children: <Text size="sm">{c.deleteConfirm(taskFile(task.audio_path).fileBasename)}</Text>,
      labels: { confirm: c.delete, cancel: c.cancel },
      confirmProps: { color: 'red' },
      centered: true,
      onConfirm: () => remove.mutate(task.id),
    });

  const data = tasks.data;
  const pages = data ? Math.max(1, Math.ceil(data.pagination.totalCount / Math.max(1, data.pagination.pageSize))) : 1;
  const filtered = Boolean(workId || debouncedFile || statuses.length);
  const resetPage = () => setPage(1);

  return (
    <Stack gap="md" maw={1000} mx="auto" w="100%">
      <Group justify="space-between" gap="xs">
        <Group gap="xs">
          <Title order={1} size="h3">
            {c.title}
          </Title>
          {data && (
            <Text size="sm" c="dimmed" data-testid="ai-total">
              {c.total(data.pagination.totalCount)}
            </Text>
          )}
        </Group>
        <Group gap="sm">
          <Switch size="sm" label={c.autoRefresh} checked={auto} onChange={(e) => setAuto(e.currentTarget.checked)} />
          <HoverTip label={c.refresh}>
            <ActionIcon variant="light" size="lg" onClick={() => void refresh()} loading={tasks.isFetching} aria-label={c.refresh} data-testid="ai-refresh">
              <IconRefresh size={18} />
            </ActionIcon>
          </HoverTip>
        </Group>
      </Group>

      <Group gap="sm" align="flex-start" wrap="wrap">
        <TextInput
          label={c.workId}
          placeholder={c.workIdPlaceholder}
          value={workText}
          error={badWork ? c.badWorkId : undefined}
          onChange={(e) => {
            setWorkText(e.currentTarget.value);
            resetPage();
          }}
          style={{ flex: '1 1 160px' }}
          inputMode="text"
          autoCapitalize="characters"
          data-testid="ai-filter-work"
        />
        <TextInput
          label={c.fileName}
          placeholder={c.fileNamePlaceholder}
          value={fileName}
          onChange={(e) => {
            setFileName(e.currentTarget.value);
            resetPage();
          }}
          style={{ flex: '2 1 200px' }}
          data-testid="ai-filter-file"
        />
        <MultiSelect
          label={c.status}
          placeholder={statuses.length ? undefined : c.statusPlaceholder}
          data={statusOptions()}
          value={statuses}
          onChange={(v) => {
            setStatuses(v);
            resetPage();
          }}
          clearable
          style={{ flex: '2 1 220px' }}
          data-testid="ai-filter-status"
        />
      </Group>

      {data?.workers && <WorkerHint workers={data.workers} admin={isAdminUser(session.data?.user)} />}

      {!writable && session.data && (
        <Alert color="gray" variant="light">
          {c.guestNote}
        </Alert>
      )}

      {!data ? (
        badWork ? null : (
          <Stack gap="sm">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} h={110} radius="md" />
            ))}
          </Stack>
        )
      ) : data.tasks.length === 0 ? (
        <Text c="dimmed" ta="center" py="xl" data-testid="ai-empty">
          {filtered ? c.emptyFiltered : c.empty}
        </Text>
      ) : (
        <Stack gap="sm" data-testid="ai-task-list">
          {data.tasks.map((task) => (
            <TaskCard
              key={task.id}
              task={task}
              writable={writable && task.can_change !== false}
              busy={(retry.isPending && retry.variables === task.id) || (remove.isPending && remove.variables === task.id)}
              onRetry={() => retry.mutate(task.id)}
              onDelete={() => confirmDelete(task)}
              onShowLrc={() => setLrcOf(task)}
            />
          ))}
        </Stack>
      )}

      {data && pages > 1 && (
        <Group justify="center">
          <Pagination total={pages} value={Math.min(page, pages)} onChange={setPage} siblings={2} />
        </Group>
      )}
      <LrcDialog task={lrcOf} onClose={() => setLrcOf(null)} />
    </Stack>
  );
}
