/**
 * A work's AI lyric tasks for per-file badges: all of the work's tasks
 * in one call (`page=-1&work_id=`), polled every 10 s while any is pending or transcribing and not
 * otherwise. `statusFor` aggregates them per file (success beats error) or per folder (error beats
 * success; transcribing beats pending beats the rest).
 */
import { useCallback, useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { aggregateAiStatus, aiStatusName, shouldPoll, type AiStatusName } from '../../../../server/domain/ai-status.js';
import { AI_TASKS_KEY, fetchWorkAiTasks, type AiTask } from './api.js';

export const WORK_AI_POLL_MS = 10_000;

export const workAiTasksKey = (workId: number) => [...AI_TASKS_KEY, 'work', workId] as const;

const norm = (p: string) => p.replace(/\\/g, '/').replace(/^\/+|\/+$/g, '');

/** The status of one audio file (`path` relative to the work) or of everything under a folder. */
export function aiStatusFor(tasks: AiTask[], path: string, scope: 'file' | 'folder'): AiStatusName {
  const target = norm(path);
  const mine = tasks.filter((task) => {
    const p = norm(task.audio_path);
    return scope === 'file' ? p === target : target === '' || p.startsWith(`${target}/`);
  });
  return aggregateAiStatus(
    mine.map((task) => aiStatusName(task.status)),
    scope,
  );
}

export function useWorkAiTasks(workId: number, opts: { enabled?: boolean } = {}) {
  const query = useQuery({
    queryKey: workAiTasksKey(workId),
    queryFn: ({ signal }) => fetchWorkAiTasks(workId, signal),
    enabled: (opts.enabled ?? true) && workId > 0,
    refetchInterval: (q) => ((q.state.data ?? []).some((task) => shouldPoll(aiStatusName(task.status))) ? WORK_AI_POLL_MS : false),
    meta: { silent: true },
  });
  const tasks = useMemo(() => query.data ?? [], [query.data]);
  const statusFor = useCallback((path: string, scope: 'file' | 'folder') => aiStatusFor(tasks, path, scope), [tasks]);
  return { ...query, tasks, statusFor };
}
