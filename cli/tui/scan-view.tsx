/**
 * The Ink scan view: progress bar, added/updated/failed/skipped counts, live task logs, failed list
 * and main log. Props in (a ScanState folded from ScanEvents), callbacks out (`q`/Ctrl-C → onCancel).
 */
import React from 'react';
import { Box, Text, useInput } from 'ink';
import type { ScanState } from '../../server/contract/scan-state.js';
import { cliText, type CliCatalog } from '../i18n/index.js';

export interface ScanViewProps {
  state: ScanState;
  onCancel: () => void;
  /** Terminal width (defaults to 80). */
  width?: number;
  cancelling?: boolean;
  /** The catalogue to speak (defaults to the run's language). The state's log lines come localized. */
  texts?: CliCatalog;
}

/** `kikoplay · <job> · <phase>`; the phase is left out when it says the same as the job. */
export function scanHeader(state: Pick<ScanState, 'kind' | 'phase'>, t: CliCatalog): string {
  const parts = ['kikoplay'];
  const kind = state.kind ? (t.scan.kinds[state.kind] ?? state.kind) : null;
  const phase = state.phase ? (t.scan.phases[state.phase] ?? state.phase) : null;
  if (kind) parts.push(kind);
  if (phase && phase !== kind) parts.push(phase);
  return parts.join(' · ');
}

const levelColor = (level: string) => (level === 'error' ? 'red' : level === 'warn' ? 'yellow' : level === 'debug' ? 'gray' : undefined);

export function ProgressBar({ done, total, width }: { done: number; total: number; width: number }) {
  const ratio = total > 0 ? Math.min(1, done / total) : 0;
  const filled = Math.round(ratio * width);
  return (
    <Text>
      <Text color="green">{'█'.repeat(filled)}</Text>
      <Text color="gray">{'░'.repeat(Math.max(0, width - filled))}</Text>
      <Text> {total > 0 ? `${done}/${total} (${Math.floor(ratio * 100)}%)` : '...'}</Text>
    </Text>
  );
}

const clip = (text: string, width: number) => (text.length > width ? text.slice(0, Math.max(0, width - 1)) + '…' : text);

export function ScanView({ state, onCancel, width = 80, cancelling = false, texts }: ScanViewProps) {
  const t = texts ?? cliText();
  const st = t.scan;
  useInput((input, key) => {
    if (input === 'q' || (key.ctrl && input === 'c')) onCancel();
  });
  const c = state.counts;
  const running = state.status === 'running';
  const lineWidth = Math.max(20, width - 4);
  const tasks = state.tasks.slice(-6);
  const failed = state.failedTasks.slice(-5);
  const logs = state.mainLogs.slice(-6);
  return (
    <Box flexDirection="column">
      <Text bold>
        {scanHeader(state, t)}
        {cancelling && running ? <Text color="yellow"> · {st.cancelling}</Text> : null}
      </Text>
      <ProgressBar done={state.progress.done} total={state.progress.total} width={Math.min(40, Math.max(10, width - 30))} />
      <Text>
        <Text color="green">{st.count(st.added, c.added)}</Text>
        {'  '}
        <Text color="cyan">{st.count(st.updated, c.updated)}</Text>
        {'  '}
        <Text color="red">{st.count(st.failed, c.failed)}</Text>
        {'  '}
        <Text color="gray">{st.count(st.skipped, c.skipped)}</Text>
      </Text>
      {tasks.length > 0 && (
        <Box flexDirection="column" marginTop={1}>
          <Text bold>{st.inProgress}</Text>
          {tasks.map((t) => {
            const last = t.logs[t.logs.length - 1];
            return (
              <Text key={t.rjcode} color={last ? levelColor(last.level) : undefined}>
                {clip(`[${t.rjcode}] ${last?.message ?? ''}`, lineWidth)}
              </Text>
            );
          })}
        </Box>
      )}
      {failed.length > 0 && (
        <Box flexDirection="column" marginTop={1}>
          <Text bold color="red">
            {st.failedList(state.failedTasks.length)}
          </Text>
          {failed.map((t) => (
            <Text key={t.rjcode} color="red">
              {clip(`[${t.rjcode}] ${t.logs[t.logs.length - 1]?.message ?? ''}`, lineWidth)}
            </Text>
          ))}
        </Box>
      )}
      {logs.length > 0 && (
        <Box flexDirection="column" marginTop={1}>
          <Text bold>{st.log}</Text>
          {logs.map((l, i) => (
            <Text key={`${state.mainLogs.length - logs.length + i}`} color={levelColor(l.level)}>
              {clip(l.message, lineWidth)}
            </Text>
          ))}
        </Box>
      )}
      <Box marginTop={1}>{running ? <Text color="gray">{st.cancelHint}</Text> : <Text bold>{state.finishedMessage ?? ''}</Text>}</Box>
    </Box>
  );
}
