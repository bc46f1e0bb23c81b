/**
 * The lyric calls (docs/API.md#lyrics, docs/API.md#ai-lyric-tasks): check-lrc, the work's
 * successful AI tasks and their LRC, query-lrc, fetch-lrc and save-lrc.
 */
import { api, apiGet } from '../../api/client.js';
import type { AiTask } from '../../api/types.js';
import { AiStatus } from '../../../../server/domain/ai-status.js';
import type { LyricOption } from '../../../../server/domain/lyric-match.js';
import type { EditableLyricLine, LyricLine } from '../../../../server/domain/lyrics/types.js';

const hashPath = (hash: string): string => hash.split('/').map(encodeURIComponent).join('/');

export interface CheckLrcAnswer {
  result: boolean;
  hash: string;
  lyricExtension?: string;
  lrc?: LyricLine[];
}

export const checkLrc = (audioHash: string, signal?: AbortSignal) => apiGet<CheckLrcAnswer>(`/api/media/check-lrc/${hashPath(audioHash)}`, undefined, signal);

/** The work's AI lyric tasks that succeeded (all pages). */
export async function successfulAiTasks(workId: number, signal?: AbortSignal): Promise<AiTask[]> {
  const res = await apiGet<{ tasks: AiTask[] }>('/api/lyric/translate', { page: -1, work_id: workId, status: JSON.stringify([AiStatus.SUCCESS]) }, signal);
  return res.tasks.filter((t) => t.status === AiStatus.SUCCESS);
}

export const aiLrcContent = async (taskId: number, signal?: AbortSignal): Promise<string> => (await apiGet<{ lrcContent: string }>('/api/lyric/translate/lrc', { id: taskId }, signal)).lrcContent;

export const queryLrc = async (audioHash: string, signal?: AbortSignal): Promise<LyricOption[]> =>
  (await apiGet<{ lyricList: LyricOption[] }>(`/api/media/query-lrc/${hashPath(audioHash)}`, undefined, signal)).lyricList;

/** A candidate of query-lrc, parsed: a local file (`hash` = its track hash) or an AI task (`hash` = task id). */
export async function fetchLrc(workId: number, option: Pick<LyricOption, 'hash' | 'isAI'>, signal?: AbortSignal): Promise<LyricLine[]> {
  const ref = option.isAI ? String(option.hash) : String(option.hash).split('/')[1];
  return (await apiGet<{ lrc: LyricLine[] }>(`/api/media/fetch-lrc/${workId}/${encodeURIComponent(ref ?? '')}/${option.isAI ? 1 : 0}`, undefined, signal)).lrc;
}

/** Admin: write the lines as WebVTT at `writePath` (relative to the work folder, ending in .vtt). */
export const saveLrc = (workId: number, writePath: string, lrc: EditableLyricLine[]) => api<{ result: boolean; hash?: string }>('POST', `/api/media/save-lrc/${workId}`, { body: { writePath, lrc } });
