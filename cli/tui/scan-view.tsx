/**
 * The Ink scan view: progress bar, added/updated/failed/skipped counts, live task logs, failed list
 * and main log. Props in (a ScanState folded from ScanEvents), callbacks out (`q`/Ctrl-C → onCancel).
 */
import React from 'react';
import { Box, Text, useInput } from 'ink';
import type { ScanState } from '../../server/contract/scan-state.js';

export interface ScanViewProps {
  state: ScanState;
  onCancel: () => void;
  /** Terminal width (defaults to 80). */
  width?: number;
  cancelling?: boolean;
}

const PHASE: Record<string, string> = {
  discover: '查找文件夹',
  local: '扫描本地文件',
  metadata: '抓取元数据',
  cleanup: '清理',
  refresh: '刷新元数据',
  files: '扫描作品文件',
  purge: '清除缺失作品',
};

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

export function ScanView({ state, onCancel, width = 80, cancelling = false }: ScanViewProps) {
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
        kikoplay scan{state.kind ? ` · ${state.kind}` : ''}
        {state.phase ? ` · ${PHASE[state.phase] ?? state.phase}` : ''}
        {cancelling && running ? <Text color="yellow"> · 正在取消...</Text> : null}
      </Text>
      <ProgressBar done={state.progress.done} total={state.progress.total} width={Math.min(40, Math.max(10, width - 30))} />
      <Text>
        <Text color="green">新增 {c.added}</Text>
        {'  '}
        <Text color="cyan">更新 {c.updated}</Text>
        {'  '}
        <Text color="red">失败 {c.failed}</Text>
        {'  '}
        <Text color="gray">跳过 {c.skipped}</Text>
      </Text>
      {tasks.length > 0 && (
        <Box flexDirection="column" marginTop={1}>
          <Text bold>处理中</Text>
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
            失败 ({state.failedTasks.length})
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
          <Text bold>日志</Text>
          {logs.map((l, i) => (
            <Text key={`${state.mainLogs.length - logs.length + i}`} color={levelColor(l.level)}>
              {clip(l.message, lineWidth)}
            </Text>
          ))}
        </Box>
      )}
      <Box marginTop={1}>{running ? <Text color="gray">按 q 或 Ctrl-C 取消扫描</Text> : <Text bold>{state.finishedMessage ?? ''}</Text>}</Box>
    </Box>
  );
}
