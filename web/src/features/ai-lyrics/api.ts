/** The AI lyric task queue, UI side (docs/API.md#ai-lyric-tasks): list with filters, retry, delete, the LRC. */
import { api, apiGet } from '../../api/client.js';
import type { AiTask } from '../../api/types.js';

export interface AiTaskPage {
  pagination: { currentPage: number; pageSize: number; totalCount: number };
  tasks: AiTask[];
  /** Tasks waiting and whether a worker is around (`lastSeenAt` for admins only). */
  workers?: { waiting: number; active: boolean; lastSeenAt?: string | null };
}

export interface AiTaskFilter {
  /** ≥ 1, or -1 (with a work: all of its tasks). */
  page: number;
  workId?: number;
  fileName?: string;
  /** Numeric statuses; empty = all. */
  statuses?: number[];
}

export const AI_TASKS_KEY = ['ai-tasks'] as const;

export const fetchAiTasks = (f: AiTaskFilter, signal?: AbortSignal) =>
  apiGet<AiTaskPage>('/api/lyric/translate', { page: f.page, status: JSON.stringify(f.statuses ?? []), work_id: f.workId || undefined, file_name: f.fileName || undefined }, signal);

/** Back to pending (also a batch through `idArr`). */
export const retryAiTasks = ([first, ...rest]: number[]) => api<{ counts: number }>('POST', `/api/lyric/translate/redo/${first}`, { body: rest.length ? { idArr: rest } : undefined });

export const deleteAiTasks = ([first, ...rest]: number[]) => api<{ counts: number }>('DELETE', `/api/lyric/translate/${first}`, { body: rest.length ? { idArr: rest } : undefined });

export const fetchAiLrc = async (id: number, signal?: AbortSignal): Promise<string> => (await apiGet<{ lrcContent: string }>('/api/lyric/translate/lrc', { id }, signal)).lrcContent;

/** A fresh worker token under a generated name (admin); the token is shown once. */
export const createWorkerToken = () => api<{ name: string; token: string }>('POST', '/api/lyric/worker-tokens');
