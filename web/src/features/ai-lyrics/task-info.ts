/**
 * What the client derives from a task: file name, extension and base name
 * from `audio_path`, the status name, and the progress a worker reports in `worker_status`
 * ("transcribing 2/5 chunks", "translating 3/4", "45%").
 */
import { aiStatusName, canRetry, type AiStatusName } from '../../../../server/domain/ai-status.js';
import type { AiTask } from '../../api/types.js';

export interface TaskFile {
  /** Base name without the extension: "track 01". */
  fileName: string;
  /** ".mp3" (original case); "" without one. */
  fileExt: string;
  /** Base name with the extension: "track 01.mp3". */
  fileBasename: string;
  /** The folders above it: "mp3/SE なし"; "" at the work root. */
  folder: string;
}

export function taskFile(audioPath: string): TaskFile {
  const parts = audioPath.split(/[\\/]/).filter(Boolean);
  const fileBasename = parts.pop() ?? '';
  const dot = fileBasename.lastIndexOf('.');
  const fileExt = dot > 0 ? fileBasename.slice(dot) : '';
  return { fileName: fileExt ? fileBasename.slice(0, dot) : fileBasename, fileExt, fileBasename, folder: parts.join('/') };
}

export const statusOf = (task: Pick<AiTask, 'status' | 'status_text'>): AiStatusName => task.status_text ?? aiStatusName(task.status);

export const retryable = (task: Pick<AiTask, 'status'>): boolean => canRetry(aiStatusName(task.status));

/** A fraction 0..1 read from the worker's status text, or null when it says none. */
export function workerProgress(workerStatus: string | undefined): number | null {
  if (!workerStatus) return null;
  const pct = /(\d{1,3}(?:\.\d+)?)\s*%/.exec(workerStatus);
  if (pct) return Math.min(1, Number(pct[1]) / 100);
  const frac = /(\d+)\s*\/\s*(\d+)/.exec(workerStatus);
  if (frac && Number(frac[2]) > 0) return Math.min(1, Number(frac[1]) / Number(frac[2]));
  return null;
}
