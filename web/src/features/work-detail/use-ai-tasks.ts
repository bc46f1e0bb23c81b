/**
 * The work's AI lyric tasks for the tree's status badges: polled every 10 s while the work's status is
 * pending or transcribing, not otherwise; after a request the list is refreshed once,
 * 500 ms later. Failures are only logged: the badges are a hint.
 */
import { useCallback, useEffect, useRef } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { shouldPoll } from '../../../../server/domain/ai-status.js';
import type { AiTask } from '../../api/types.js';
import { aiTasksKey, fetchWorkAiTasks } from './api.js';
import { normalizeTasks, workStatus } from './tree.js';

export const AI_POLL_MS = 10_000;
export const AI_REFRESH_DEBOUNCE_MS = 500;

export function useAiTasks(workId: number) {
  return useQuery({
    queryKey: aiTasksKey(workId),
    queryFn: async ({ signal }): Promise<AiTask[]> => normalizeTasks(await fetchWorkAiTasks(workId, signal)),
    refetchInterval: (query) => (shouldPoll(workStatus(query.state.data ?? [])) ? AI_POLL_MS : false),
    meta: { silent: true },
  });
}

/** Refresh the work's tasks once, 500 ms after the last call. */
export function useRefreshAiTasks(workId: number): () => void {
  const queryClient = useQueryClient();
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  return useCallback(() => {
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => void queryClient.invalidateQueries({ queryKey: aiTasksKey(workId) }), AI_REFRESH_DEBOUNCE_MS);
  }, [queryClient, workId]);
}
