/** The AI lyric task queue, UI side (docs/API.md#ai-lyric-tasks): list with filters, retry, delete, the LRC, create. */
import { api, apiGet } from '../../api/client.js';
import type { AiStatusName } from '../../../../server/domain/ai-status.js';

/** Who acted on a task, as the server recorded it. */
export interface AiTaskAccount {
  kind: 'user' | 'token';
  name: string;
}

/** A task as GET /api/lyric/translate lists it (docs/API.md#ai-lyric-tasks). */
export interface AiTask {
  id: number;
  work_id: number;
  /** Relative to the work folder. */
  audio_path: string;
  /** 0 none, 1 pending, 2 transcribing, 3 success, 4 error. */
  status: number;
  status_text?: AiStatusName;
  worker_name?: string;
  worker_status?: string;
  /** The account (a login user or a worker token) that acquired the task; worker_name is only what the worker calls itself. */
  acquired_by?: AiTaskAccount | null;
  /** The account that sent the result. */
  finished_by?: AiTaskAccount | null;
  /** The work's title (null when the work is gone). */
  title?: string | null;
  created_at?: string;
  updated_at?: string;
}

export interface AiTaskPage {
  pagination: { currentPage: number; pageSize: number; totalCount: number };
  tasks: AiTask[];
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
  apiGet<AiTaskPage>(
    '/api/lyric/translate',
    { page: f.page, status: JSON.stringify(f.statuses ?? []), work_id: f.workId || undefined, file_name: f.fileName || undefined },
    signal,
  );

/** Every task of one work (`page=-1&work_id=`). */
export const fetchWorkAiTasks = async (workId: number, signal?: AbortSignal): Promise<AiTask[]> => (await fetchAiTasks({ page: -1, workId }, signal)).tasks;

/** Back to pending (also a batch through `idArr`). */
export const retryAiTasks = ([first, ...rest]: number[]) =>
  api<{ counts: number }>('POST', `/api/lyric/translate/redo/${first}`, { body: rest.length ? { idArr: rest } : undefined });

export const deleteAiTasks = ([first, ...rest]: number[]) =>
  api<{ counts: number }>('DELETE', `/api/lyric/translate/${first}`, { body: rest.length ? { idArr: rest } : undefined });

export const fetchAiLrc = async (id: number, signal?: AbortSignal): Promise<string> =>
  (await apiGet<{ lrcContent: string }>('/api/lyric/translate/lrc', { id }, signal)).lrcContent;

/** Queue the audio file behind a track hash (`<workId>/<n>`). */
export const createAiTask = (hash: string) => api<{ id: number }>('PUT', `/api/lyric/translate/${hash.split('/').map(encodeURIComponent).join('/')}`);
