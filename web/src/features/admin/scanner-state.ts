/**
 * The scanner page's state, folded from the admin socket's frames (docs/API.md#admin-socket).
 * Null → running (a start button, or a running snapshot) → finished |
 * error. Lists are bounded so a long scan does not grow the page without end.
 */
import type { Frame } from '../../../../server/contract/realtime.js';

export type ScannerStatus = null | 'running' | 'finished' | 'error';

export interface LogLine {
  level: 'info' | 'warn' | 'error' | 'debug' | string;
  message: string;
}
export interface ScanTask {
  rjcode: string;
  result: null | 'failed';
  logs: LogLine[];
}
export interface ScanResult {
  rjcode: string;
  result: 'added' | 'updated' | 'failed';
  count: number;
}
export interface ScanCounts {
  added: number;
  updated: number;
  skipped: number;
  failed: number;
}

export interface ScannerState {
  status: ScannerStatus;
  kind: string | null;
  runId: number | null;
  phase: string | null;
  progress: { done: number; total: number };
  counts: ScanCounts | null;
  mainLogs: LogLine[];
  tasks: ScanTask[];
  failedTasks: ScanTask[];
  results: ScanResult[];
}

export const LIMITS = { mainLogs: 1000, taskLogs: 50, failedTasks: 500, results: 2000 } as const;

export const initialScannerState = (): ScannerState => ({
  status: null,
  kind: null,
  runId: null,
  phase: null,
  progress: { done: 0, total: 0 },
  counts: null,
  mainLogs: [],
  tasks: [],
  failedTasks: [],
  results: [],
});

const tail = <T>(list: T[], max: number): T[] => (list.length > max ? list.slice(list.length - max) : list);

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const arrayOf = <T>(v: unknown): T[] => (Array.isArray(v) ? (v as T[]) : []);

function isStatus(v: unknown): v is ScannerStatus {
  return v === null || v === 'running' || v === 'finished' || v === 'error';
}

/** Merge incoming tasks (new ones, or new log lines of known ones) and drop the removed ones. */
function mergeTasks(current: ScanTask[], incoming: ScanTask[], removed: string[]): ScanTask[] {
  let tasks = current;
  for (const task of incoming) {
    const i = tasks.findIndex((t) => t.rjcode === task.rjcode);
    const logs = arrayOf<LogLine>(task.logs);
    if (i < 0) tasks = [...tasks, { rjcode: task.rjcode, result: task.result ?? null, logs: tail(logs, LIMITS.taskLogs) }];
    else if (logs.length) {
      tasks = tasks.slice();
      tasks[i] = { ...tasks[i], logs: tail([...tasks[i].logs, ...logs], LIMITS.taskLogs) };
    }
  }
  if (removed.length) tasks = tasks.filter((t) => !removed.includes(t.rjcode));
  return tasks;
}

/** The state after the user pressed a start button (the server confirms with a snapshot). */
export function started(state: ScannerState): ScannerState {
  return { ...state, status: 'running' };
}

/** Pure reducer over one server frame. Unknown frames leave the state unchanged. */
export function reduceFrame(state: ScannerState, frame: Frame): ScannerState {
  const p = isRecord(frame.payload) ? frame.payload : {};
  switch (frame.event) {
    case 'SCAN_INIT_STATE': {
      const status = isStatus(p.status) ? p.status : 'running';
      return {
        status,
        kind: typeof p.kind === 'string' ? p.kind : null,
        runId: typeof p.runId === 'number' ? p.runId : null,
        phase: typeof p.phase === 'string' ? p.phase : null,
        progress: isRecord(p.progress) ? { done: Number(p.progress.done) || 0, total: Number(p.progress.total) || 0 } : { done: 0, total: 0 },
        counts: isRecord(p.counts) ? (p.counts as unknown as ScanCounts) : null,
        mainLogs: tail(
          [...arrayOf<LogLine>(p.mainLogs), ...(status !== 'running' && typeof p.finishedMessage === 'string' ? [{ level: 'info', message: p.finishedMessage }] : [])],
          LIMITS.mainLogs,
        ),
        tasks: arrayOf<ScanTask>(p.tasks),
        failedTasks: tail(arrayOf<ScanTask>(p.failedTasks), LIMITS.failedTasks),
        results: tail(arrayOf<ScanResult>(p.results), LIMITS.results),
      };
    }
    case 'SCAN_MAIN_LOGS':
      return { ...state, mainLogs: tail([...state.mainLogs, ...arrayOf<LogLine>(p.mainLogs)], LIMITS.mainLogs) };
    case 'SCAN_TASKS':
      return { ...state, tasks: mergeTasks(state.tasks, arrayOf<ScanTask>(p.tasks), arrayOf<string>(p.removed)) };
    case 'SCAN_FAILED_TASKS':
      return { ...state, failedTasks: tail([...state.failedTasks, ...arrayOf<ScanTask>(p.failedTasks)], LIMITS.failedTasks) };
    case 'SCAN_RESULTS':
      return { ...state, results: tail([...state.results, ...arrayOf<ScanResult>(p.results)], LIMITS.results) };
    case 'SCAN_PROGRESS':
      return {
        ...state,
        phase: typeof p.phase === 'string' ? p.phase : state.phase,
        progress: { done: Number(p.done) || 0, total: Number(p.total) || 0 },
        counts: isRecord(p.counts) ? (p.counts as unknown as ScanCounts) : state.counts,
      };
    case 'SCAN_FINISHED': {
      const message = typeof p.message === 'string' ? p.message : '';
      return {
        ...state,
        status: 'finished',
        tasks: [],
        counts: isRecord(p.counts) ? (p.counts as unknown as ScanCounts) : state.counts,
        mainLogs: message ? tail([...state.mainLogs, { level: 'info', message }], LIMITS.mainLogs) : state.mainLogs,
      };
    }
    case 'SCAN_ERROR':
      return { ...state, status: 'error', tasks: [] };
    default:
      return state;
  }
}

/** How the kikoeru dashboard prints a result line (docs/API.md#admin-socket). */
export function resultLine(r: ScanResult, t: { added(c: string, n: number): string; updated(c: string, n: number): string; failedLine(c: string, n: number): string }): string {
  if (r.result === 'added') return t.added(r.rjcode, r.count);
  if (r.result === 'updated') return t.updated(r.rjcode, r.count);
  return t.failedLine(r.rjcode, r.count);
}
