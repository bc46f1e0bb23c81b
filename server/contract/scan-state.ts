/**
 * The state of a scan run as the dashboard and the TUI show it, folded from ScanEvents:
 * in-flight tasks with their logs, failed tasks, main logs, results, counts and progress.
 * Lists are bounded so a huge library does not grow memory without end.
 */
import { emptyCounts, emptyMetadataCounts, type LogLevel, type MetadataCounts, type ScanCounts, type ScanEvent, type ScanKind, type ScanPhase } from './scan-events.js';

export interface LogLine {
  level: LogLevel;
  message: string;
}
export interface TaskState {
  rjcode: string;
  result: null | 'failed';
  logs: LogLine[];
}
export interface ResultLine {
  rjcode: string;
  result: 'added' | 'updated' | 'failed';
  count: number;
}

export interface ScanState {
  /** Scanner state: null (never ran), running, finished, error. */
  status: null | 'running' | 'finished' | 'error';
  runId: number | null;
  kind: ScanKind | null;
  pid: number | null;
  startedAt: string | null;
  phase: ScanPhase | null;
  progress: { done: number; total: number };
  counts: ScanCounts;
  metadata: MetadataCounts;
  tasks: TaskState[];
  failedTasks: TaskState[];
  mainLogs: LogLine[];
  results: ResultLine[];
  finishedMessage: string | null;
  exitCode: number | null;
  cancelled: boolean;
}

export const STATE_LIMITS = { mainLogs: 500, taskLogs: 50, failedTasks: 500, results: 1000 };

export function initialScanState(): ScanState {
  return {
    status: null,
    runId: null,
    kind: null,
    pid: null,
    startedAt: null,
    phase: null,
    progress: { done: 0, total: 0 },
    counts: emptyCounts(),
    metadata: emptyMetadataCounts(),
    tasks: [],
    failedTasks: [],
    mainLogs: [],
    results: [],
    finishedMessage: null,
    exitCode: null,
    cancelled: false,
  };
}

const pushBounded = <T>(list: T[], item: T, max: number): T[] => {
  const next = list.length >= max ? list.slice(list.length - max + 1) : list.slice();
  next.push(item);
  return next;
};

/** Pure reducer: returns a new state (the old one is not changed), so React can render it directly. */
export function reduceScanState(state: ScanState, e: ScanEvent): ScanState {
  switch (e.type) {
    case 'started':
      return { ...initialScanState(), status: 'running', runId: e.runId, kind: e.kind, pid: e.pid, startedAt: e.at };
    case 'main-log':
      return { ...state, mainLogs: pushBounded(state.mainLogs, { level: e.level, message: e.message }, STATE_LIMITS.mainLogs) };
    case 'task-started':
      if (state.tasks.some((t) => t.rjcode === e.code)) return state;
      return { ...state, tasks: [...state.tasks, { rjcode: e.code, result: null, logs: [] }] };
    case 'task-log': {
      let found = false;
      const tasks = state.tasks.map((t) => {
        if (t.rjcode !== e.code) return t;
        found = true;
        return { ...t, logs: pushBounded(t.logs, { level: e.level, message: e.message }, STATE_LIMITS.taskLogs) };
      });
      if (!found) tasks.push({ rjcode: e.code, result: null, logs: [{ level: e.level, message: e.message }] });
      return { ...state, tasks };
    }
    case 'task-done':
      return { ...state, tasks: state.tasks.filter((t) => t.rjcode !== e.code) };
    case 'task-failed': {
      const task = state.tasks.find((t) => t.rjcode === e.code) ?? { rjcode: e.code, result: null, logs: [] };
      const failed: TaskState = { rjcode: e.code, result: 'failed', logs: pushBounded(task.logs, { level: 'error', message: e.error }, STATE_LIMITS.taskLogs) };
      return {
        ...state,
        tasks: state.tasks.filter((t) => t.rjcode !== e.code),
        failedTasks: pushBounded(state.failedTasks, failed, STATE_LIMITS.failedTasks),
      };
    }
    case 'result':
      return { ...state, results: pushBounded(state.results, { rjcode: e.code, result: e.result, count: e.count }, STATE_LIMITS.results) };
    case 'progress':
      return { ...state, phase: e.phase, progress: { done: e.done, total: e.total }, counts: { ...e.counts } };
    case 'finished':
      return {
        ...state,
        status: e.status === 'finished' ? 'finished' : 'error',
        counts: { ...e.counts },
        metadata: { ...e.metadata },
        finishedMessage: e.message,
        exitCode: e.exitCode,
        cancelled: e.status === 'cancelled',
        tasks: [],
      };
    case 'error':
      return { ...state, mainLogs: pushBounded(state.mainLogs, { level: 'error', message: e.message }, STATE_LIMITS.mainLogs) };
  }
}
