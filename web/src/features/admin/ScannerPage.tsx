/**
 * /admin/scanner: scan library, refresh library info, scan work files and kill
 * scan over the admin socket; start buttons disabled while running, kill shown only while running;
 * the log panel, and tabs for processing, failed and results.
 */
import { SCAN_TEXT, scanLineText } from '../../../../server/contract/scan-text/index.js';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Alert, Badge, Box, Button, Group, Paper, Progress, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconPlayerStop, IconRefresh, IconScan, IconFileMusic, IconPlugConnectedX } from '@tabler/icons-react';
import { locale, t } from '../../i18n/index.js';
import type { LogLine, ScanStatus, TaskState } from '../../../../server/contract/scan-state.js';
import { mainLogLines, resultLine } from './scanner-state.js';
import { useScannerSocket, type SocketPhase } from './use-scanner-socket.js';

const s = t.dashboard.scanner;

const LEVEL_COLOR: Record<string, string | undefined> = {
  error: 'var(--mantine-color-red-text)',
  warn: 'var(--mantine-color-yellow-text)',
  debug: 'var(--mantine-color-dimmed)',
};

const STATUS_COLOR: Record<'idle' | 'running' | 'finished' | 'error', string> = { idle: 'gray', running: 'blue', finished: 'teal', error: 'red' };

const statusKey = (status: ScanStatus) => status ?? 'idle';

/** A scrolling, monospace list of lines that stays at the bottom while the user has not scrolled up. */
function LinePanel({ lines, empty, height = 280, testId }: { lines: { key: string; text: string; level?: string }[]; empty: string; height?: number; testId: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  useEffect(() => {
    const el = ref.current;
    if (el && pinned.current) el.scrollTop = el.scrollHeight;
  }, [lines]);
  return (
    <Box
      ref={ref}
      data-testid={testId}
      onScroll={(e) => {
        const el = e.currentTarget;
        pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
      }}
      style={{
        height,
        overflowY: 'auto',
        overflowX: 'hidden',
        fontFamily: 'var(--mantine-font-family-monospace)',
        fontSize: 'var(--mantine-font-size-xs)',
        lineHeight: 1.6,
        padding: 'var(--mantine-spacing-xs) var(--mantine-spacing-sm)',
        background: 'var(--mantine-color-default-hover)',
        borderRadius: 'var(--mantine-radius-md)',
        wordBreak: 'break-all',
        whiteSpace: 'pre-wrap',
      }}
    >
      {lines.length === 0 ? (
        <Text size="xs" c="dimmed">
          {empty}
        </Text>
      ) : (
        lines.map((line) => (
          <div key={line.key} style={{ color: line.level ? LEVEL_COLOR[line.level] : undefined }}>
            {line.text}
          </div>
        ))
      )}
    </Box>
  );
}

/** The lines in the interface language: from each line's key and parameters, or its own text without them. */
const logLines = (logs: LogLine[], prefix = '') => logs.map((l, i) => ({ key: `${prefix}${i}`, text: scanLineText(l, SCAN_TEXT[locale()]), level: l.level }));

function TaskList({ tasks, empty, testId }: { tasks: TaskState[]; empty: string; testId: string }) {
  if (!tasks.length) {
    return (
      <Text size="sm" c="dimmed" py="md" data-testid={testId}>
        {empty}
      </Text>
    );
  }
  return (
    <Stack gap="xs" data-testid={testId}>
      {tasks.map((task) => (
        <Paper key={task.rjcode} withBorder p="xs" radius="md">
          <Text size="sm" fw={600} mb={4}>
            {task.rjcode}
          </Text>
          <LinePanel lines={logLines(task.logs, task.rjcode)} empty="…" height={Math.min(140, 24 + task.logs.length * 20)} testId={`task-${task.rjcode}`} />
        </Paper>
      ))}
    </Stack>
  );
}

function ConnectionNotice({ phase, onRetry }: { phase: SocketPhase; onRetry: () => void }) {
  if (phase === 'open') return null;
  if (phase === 'failed') {
    return (
      <Alert color="red" icon={<IconPlugConnectedX size={18} />} data-testid="socket-failed">
        <Group justify="space-between" gap="xs">
          <Text size="sm">{s.socketFailed}</Text>
          <Button size="xs" variant="light" color="red" onClick={onRetry}>
            {t.routeError.reload}
          </Button>
        </Group>
      </Alert>
    );
  }
  return (
    <Alert color={phase === 'reconnecting' ? 'yellow' : 'blue'} icon={<IconAlertTriangle size={18} />}>
      <Text size="sm">{phase === 'reconnecting' ? s.reconnecting : s.connecting}</Text>
    </Alert>
  );
}

function Count({ label, value, color, testId }: { label: string; value: number; color: string; testId?: string }) {
  return (
    <Badge variant="light" color={color} size="lg" radius="sm" data-testid={testId}>
      {label} {value}
    </Badge>
  );
}

export function ScannerPage() {
  const { state, phase, send, reconnect } = useScannerSocket();
  const [tab, setTab] = useState<string | null>('processing');
  const running = state.status === 'running';
  const canStart = phase === 'open' && !running;
  const status = statusKey(state.status);
  // a run that ended with failed works or metadata is not "all fine": its badge says so; the label is
  // read at each render, in the active language
  const withFailures = state.status === 'finished' && !!state.exitCode;
  const badge = withFailures ? { color: 'orange', label: s.state.finishedWithFailures } : { color: STATUS_COLOR[status], label: s.state[status] };
  const { done, total } = state.progress;
  const percent = total > 0 ? Math.min(100, (done / total) * 100) : 0;

  const startButton = (event: 'PERFORM_SCAN' | 'PERFORM_UPDATE' | 'PERFORM_LYRIC_SCAN', label: string, icon: ReactNode) => (
    <Button leftSection={icon} disabled={!canStart} onClick={() => send(event)} data-testid={event}>
      {label}
    </Button>
  );

  return (
    <Stack gap="md" maw={1100} mx="auto" w="100%">
      <Group justify="space-between" align="center" gap="xs">
        <Title order={2} size="h3">
          {s.title}
        </Title>
        <Group gap="xs">
          {state.kind && (
            <Text size="sm" c="dimmed">
              {s.kinds[state.kind] ?? state.kind}
            </Text>
          )}
          <Badge color={badge.color} variant={running ? 'filled' : 'light'} size="lg" data-testid="scanner-status" data-status={statusKey(state.status)}>
            {badge.label}
          </Badge>
        </Group>
      </Group>

      <ConnectionNotice phase={phase} onRetry={reconnect} />

      <Group gap="sm">
        {startButton('PERFORM_SCAN', s.scan, <IconScan size={18} />)}
        {startButton('PERFORM_UPDATE', s.update, <IconRefresh size={18} />)}
        {startButton('PERFORM_LYRIC_SCAN', s.lyricScan, <IconFileMusic size={18} />)}
        {running && (
          <Button color="red" variant="filled" leftSection={<IconPlayerStop size={18} />} onClick={() => send('KILL_SCAN_PROCESS')} disabled={phase !== 'open'} data-testid="KILL_SCAN_PROCESS">
            {s.kill}
          </Button>
        )}
      </Group>

      <Paper withBorder radius="md" p="sm">
        <Stack gap={8}>
          <Group justify="space-between" gap="xs">
            <Text size="sm">{running ? (state.phase ? (s.phases[state.phase] ?? state.phase) : s.state.running) : badge.label}</Text>
            {total > 0 && (
              <Text size="sm" c="dimmed" data-testid="scan-progress">
                {done} / {total}
              </Text>
            )}
          </Group>
          <Progress value={running && total === 0 ? 100 : percent} animated={running} striped={running} aria-label={s.state.running} />
          <Group gap="xs">
            <Count label={s.counts.added} value={state.counts.added} color="teal" />
            <Count label={s.counts.updated} value={state.counts.updated} color="blue" />
            <Count label={s.counts.failed} value={state.counts.failed} color="red" />
            <Count label={s.counts.skipped} value={state.counts.skipped} color="gray" />
            {state.metadata.failed > 0 && <Count label={s.counts.metadataFailed} value={state.metadata.failed} color="orange" testId="metadata-failed-count" />}
          </Group>
        </Stack>
      </Paper>

      <Stack gap={6}>
        <Text fw={600} size="sm">
          {s.logs}
        </Text>
        <LinePanel lines={logLines(mainLogLines(state), 'main')} empty={s.noLogs} testId="main-logs" />
      </Stack>

      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab
            value="processing"
            rightSection={
              <Badge size="xs" variant="light">
                {state.tasks.length}
              </Badge>
            }
          >
            {s.processing}
          </Tabs.Tab>
          <Tabs.Tab
            value="failed"
            rightSection={
              <Badge size="xs" variant="light" color={state.failedTasks.length ? 'red' : 'gray'}>
                {state.failedTasks.length}
              </Badge>
            }
          >
            {s.failed}
          </Tabs.Tab>
          <Tabs.Tab
            value="results"
            rightSection={
              <Badge size="xs" variant="light" color="teal">
                {state.results.length}
              </Badge>
            }
          >
            {s.results}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="processing" pt="sm">
          <TaskList tasks={state.tasks} empty={s.noTasks} testId="processing-tasks" />
        </Tabs.Panel>
        <Tabs.Panel value="failed" pt="sm">
          <TaskList tasks={state.failedTasks} empty={s.noFailed} testId="failed-tasks" />
        </Tabs.Panel>
        <Tabs.Panel value="results" pt="sm">
          <LinePanel lines={state.results.map((r, i) => ({ key: `r${i}`, text: resultLine(r, s), level: r.result === 'failed' ? 'error' : undefined }))} empty={s.noResults} testId="scan-results" />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
