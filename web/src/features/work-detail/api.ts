/**
 * The work page's calls: detail and file tree (docs/API.md#work-detail-files-and-covers), the admin's file rescan,
 * name repair and metadata edit (docs/API.md#admin-corrections), the editor's candidates, and the AI lyric
 * tasks of the work (docs/API.md#ai-lyric-tasks).
 */
import { api, apiGet } from '../../api/client.js';
import type { AiTask } from '../../api/types.js';
import type { TrackNode } from '../../../../server/contract/tracks.js';
import type { LabelRef, WorkDetail } from '../../../../server/contract/works.js';
import type { EditLabel } from './edit-meta.js';

export const workKey = (id: number) => ['work', id] as const;
export const tracksKey = (id: number) => ['work', id, 'tracks'] as const;
export const aiTasksKey = (id: number) => ['work', id, 'ai-tasks'] as const;

export const fetchWork = (id: number, signal?: AbortSignal) => apiGet<WorkDetail>(`/api/work/${id}`, undefined, signal);
export const fetchTracks = (id: number, signal?: AbortSignal) => apiGet<TrackNode[]>(`/api/tracks/${id}`, undefined, signal);

/** Whatever a file rescan or name repair answers; the page reloads when `memo` is in it. */
export interface MemoAnswer {
  memo?: unknown;
}

export const scanWorkFiles = (id: number) => api<MemoAnswer>('POST', `/api/work/scan/${id}`);
export const fixGbkNames = (id: number) => api<MemoAnswer>('POST', `/api/work/fix/gbk/${id}`);

export type CandidateType = 'tag' | 'va' | 'circle';

export type { EditLabel };

export const fetchEditCandidates = (type: CandidateType, q: string, signal?: AbortSignal) => apiGet<EditLabel[]>('/api/edit/candidates', { type, q, limit: 50 }, signal);

export interface EditWorkBody {
  title: string;
  circle: LabelRef<number>;
  tags: EditLabel[];
  vas: EditLabel[];
}

export const editWork = (id: number, body: EditWorkBody) => api<unknown>('POST', `/api/edit/work/${id}`, { body });

/** Every task of the work in one page (`page=-1` with the work id). */
export const fetchWorkAiTasks = async (workId: number, signal?: AbortSignal): Promise<AiTask[]> =>
  (await apiGet<{ tasks: AiTask[] }>('/api/lyric/translate', { page: -1, work_id: workId, status: '[]' }, signal)).tasks;

/** Start an AI lyric task for one audio file. */
export const requestTranslation = (hash: string) => api<{ id: number }>('PUT', `/api/lyric/translate/${hash.split('/').map(encodeURIComponent).join('/')}`);
