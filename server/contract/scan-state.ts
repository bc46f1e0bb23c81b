/**
 * The state of a scan run as the dashboard and the terminal show it, and the one reducer that folds it.
 *
 * A `ScanEvent` (what the scanner did) becomes one or more scan updates (`scanUpdatesFor`): the
 * incremental frames of the admin socket (docs/API.md#admin-socket), typed per event name. Every view
 * folds the same updates with `applyScanUpdate`: the admin hub and the terminal's Ink view through
 * `reduceScanState` (events in), the web dashboard on the frames it receives. So the socket carries
 * exactly what the server's own state is made of, and every view agrees. Lists are bounded by
 * `ScanStateLimits`, a parameter of each view (the web keeps more log lines than the terminal).
 */
import {
  emptyCounts,
  type ScanMessageRef,
  emptyMetadataCounts,
  type LogLevel,
  type MetadataCounts,
  type RunStatus,
  type ScanCounts,
  type ScanEvent,
  type ScanKind,
  type ScanPhase,
} from './scan-events.js';

/** A log line: its Chinese text, and its message key and parameters when it has them (server/contract/scan-text). */
export interface LogLine extends ScanMessageRef {
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

export type ScanStatus = null | 'running' | 'finished' | 'error';

export interface ScanState {
  /** Scanner state: null (never ran), running, finished, error. */
  status: ScanStatus;
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
  /** The key and parameters of the closing message (null when it has none). */
  finishedRef: ScanMessageRef | null;
  exitCode: number | null;
  cancelled: boolean;
}

/** How many entries each bounded list keeps (the oldest go first). */
export interface ScanStateLimits {
  mainLogs: number;
  taskLogs: number;
  failedTasks: number;
  results: number;
}

/** The limits of the server's state (snapshots) and of the terminal's view. */
export const STATE_LIMITS: Readonly<ScanStateLimits> = { mainLogs: 500, taskLogs: 50, failedTasks: 500, results: 1000 };

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
    finishedRef: null,
    exitCode: null,
    cancelled: false,
  };
}

/** The full state as SCAN_INIT_STATE sends it (no pid or cancel flag; the exit code says whether an ended run had failures). */
export type ScanSnapshot = Omit<ScanState, 'pid' | 'cancelled'>;

/** The scan frames of the admin socket: event name → payload. */
export interface ScanUpdatePayloads {
  /** The whole state: on ON_SCANNER_PAGE, when a run starts, and to a client that fell behind. */
  SCAN_INIT_STATE: ScanSnapshot;
  /** New tasks, or new log lines of known ones (`logs` holds only the new lines); `removed` tasks ended. */
  SCAN_TASKS: { tasks: TaskState[]; removed?: string[] };
  SCAN_FAILED_TASKS: { failedTasks: TaskState[] };
  SCAN_MAIN_LOGS: { mainLogs: LogLine[] };
  SCAN_RESULTS: { results: ResultLine[] };
  SCAN_PROGRESS: { phase: ScanPhase; done: number; total: number; counts: ScanCounts };
  SCAN_FINISHED: { message: string; status: RunStatus; counts: ScanCounts; metadata: MetadataCounts; exitCode: number } & ScanMessageRef;
  /** Follows SCAN_FINISHED when the run ended in an error or was cancelled. */
  SCAN_ERROR: { message: string; status: RunStatus };
}
export type ScanUpdateName = keyof ScanUpdatePayloads;
export type ScanUpdate = { [E in ScanUpdateName]: { event: E; payload: ScanUpdatePayloads[E] } }[ScanUpdateName];

export const SCAN_UPDATE_NAMES = [
  'SCAN_INIT_STATE',
  'SCAN_TASKS',
  'SCAN_FAILED_TASKS',
  'SCAN_MAIN_LOGS',
  'SCAN_RESULTS',
  'SCAN_PROGRESS',
  'SCAN_FINISHED',
  'SCAN_ERROR',
] as const satisfies readonly ScanUpdateName[];

export function scanSnapshot(state: ScanState): ScanSnapshot {
  return {
    status: state.status,
    kind: state.kind,
    runId: state.runId,
    startedAt: state.startedAt,
    phase: state.phase,
    progress: state.progress,
    counts: state.counts,
    metadata: state.metadata,
    tasks: state.tasks,
    failedTasks: state.failedTasks,
    mainLogs: state.mainLogs,
    results: state.results,
    finishedMessage: state.finishedMessage,
    finishedRef: state.finishedRef,
    exitCode: state.exitCode,
  };
}

/** The key and parameters of a line, when it has a well-formed pair (none otherwise). */
function refOf(x: ScanMessageRef): ScanMessageRef {
  return typeof x.key === 'string' && x.key ? { key: x.key, params: Array.isArray(x.params) ? x.params : [] } : {};
}

const refOrNull = (x: ScanMessageRef): ScanMessageRef | null => (refOf(x).key ? refOf(x) : null);

const tail = <T>(list: T[], max: number): T[] => (list.length > max ? list.slice(list.length - max) : list);
/** `list` and then `more`, keeping the last `max` (a new array; the old one is not changed). */
const append = <T>(list: T[], more: readonly T[], max: number): T[] => (more.length ? tail([...list, ...more], max) : list);
/** Frames come from the network: a missing list is an empty one. */
const listOf = <T>(v: readonly T[] | undefined | null): readonly T[] => (Array.isArray(v) ? v : []);

/** The state of a run that has just started. */
const startedState = (e: Extract<ScanEvent, { type: 'started' }>): ScanState => ({
  ...initialScanState(),
  status: 'running',
  runId: e.runId,
  kind: e.kind,
  pid: e.pid,
  startedAt: e.at,
});

/**
 * The socket frames one scanner event makes, given the state before it. `limits.taskLogs` bounds the log
 * of a failed task.
 */
export function scanUpdatesFor(event: ScanEvent, before: ScanState, limits: Readonly<ScanStateLimits> = STATE_LIMITS): ScanUpdate[] {
  switch (event.type) {
    case 'started':
      return [{ event: 'SCAN_INIT_STATE', payload: scanSnapshot(startedState(event)) }];
    case 'main-log':
      return [{ event: 'SCAN_MAIN_LOGS', payload: { mainLogs: [{ level: event.level, message: event.message, ...refOf(event) }] } }];
    case 'task-started':
      return [{ event: 'SCAN_TASKS', payload: { tasks: [{ rjcode: event.code, result: null, logs: [] }] } }];
    case 'task-log':
      return [{ event: 'SCAN_TASKS', payload: { tasks: [{ rjcode: event.code, result: null, logs: [{ level: event.level, message: event.message, ...refOf(event) }] }] } }];
    case 'task-done':
      return [{ event: 'SCAN_TASKS', payload: { tasks: [], removed: [event.code] } }];
    case 'task-failed': {
      const logs = before.tasks.find((t) => t.rjcode === event.code)?.logs ?? [];
      const failed: TaskState = { rjcode: event.code, result: 'failed', logs: append(logs, [{ level: 'error', message: event.error, ...refOf(event) }], limits.taskLogs) };
      return [
        { event: 'SCAN_TASKS', payload: { tasks: [], removed: [event.code] } },
        { event: 'SCAN_FAILED_TASKS', payload: { failedTasks: [failed] } },
      ];
    }
    case 'result':
      return [{ event: 'SCAN_RESULTS', payload: { results: [{ rjcode: event.code, result: event.result, count: event.count }] } }];
    case 'progress':
      return [{ event: 'SCAN_PROGRESS', payload: { phase: event.phase, done: event.done, total: event.total, counts: event.counts } }];
    case 'finished': {
      const updates: ScanUpdate[] = [
        { event: 'SCAN_FINISHED', payload: { message: event.message, status: event.status, counts: event.counts, metadata: event.metadata, exitCode: event.exitCode, ...refOf(event) } },
      ];
      if (event.status !== 'finished') updates.push({ event: 'SCAN_ERROR', payload: { message: event.message, status: event.status } });
      return updates;
    }
    case 'error':
      return [{ event: 'SCAN_MAIN_LOGS', payload: { mainLogs: [{ level: 'error', message: event.message, ...refOf(event) }] } }];
  }
}

/** New tasks are added, new log lines go to their task, removed tasks go. */
function mergeTasks(current: TaskState[], incoming: readonly TaskState[], removed: readonly string[], taskLogs: number): TaskState[] {
  let tasks = current;
  for (const task of incoming) {
    const i = tasks.findIndex((t) => t.rjcode === task.rjcode);
    const logs = listOf(task.logs);
    if (i < 0) tasks = [...tasks, { rjcode: task.rjcode, result: task.result ?? null, logs: tail([...logs], taskLogs) }];
    else if (logs.length) {
      tasks = tasks.slice();
      tasks[i] = { ...tasks[i], logs: append(tasks[i].logs, logs, taskLogs) };
    }
  }
  if (removed.length) tasks = tasks.filter((t) => !removed.includes(t.rjcode));
  return tasks;
}

/**
 * The one scan-state reducer: the state after one update. Pure; returns a new state (the old one is not
 * changed), so React and Ink render it directly.
 */
export function applyScanUpdate(state: ScanState, update: ScanUpdate, limits: Readonly<ScanStateLimits> = STATE_LIMITS): ScanState {
  switch (update.event) {
    case 'SCAN_INIT_STATE': {
      const p = update.payload;
      return {
        ...initialScanState(),
        status: p.status ?? null,
        kind: p.kind ?? null,
        runId: p.runId ?? null,
        startedAt: p.startedAt ?? null,
        phase: p.phase ?? null,
        progress: { done: Number(p.progress?.done) || 0, total: Number(p.progress?.total) || 0 },
        counts: p.counts ? { ...p.counts } : emptyCounts(),
        metadata: p.metadata ? { ...p.metadata } : emptyMetadataCounts(),
        tasks: [...listOf(p.tasks)],
        failedTasks: tail([...listOf(p.failedTasks)], limits.failedTasks),
        mainLogs: tail([...listOf(p.mainLogs)], limits.mainLogs),
        results: tail([...listOf(p.results)], limits.results),
        finishedMessage: p.finishedMessage ?? null,
        finishedRef: refOrNull(p.finishedRef ?? {}),
        exitCode: typeof p.exitCode === 'number' ? p.exitCode : null,
      };
    }
    case 'SCAN_MAIN_LOGS':
      return { ...state, mainLogs: append(state.mainLogs, listOf(update.payload.mainLogs), limits.mainLogs) };
    case 'SCAN_TASKS':
      return { ...state, tasks: mergeTasks(state.tasks, listOf(update.payload.tasks), listOf(update.payload.removed), limits.taskLogs) };
    case 'SCAN_FAILED_TASKS':
      return { ...state, failedTasks: append(state.failedTasks, listOf(update.payload.failedTasks), limits.failedTasks) };
    case 'SCAN_RESULTS':
      return { ...state, results: append(state.results, listOf(update.payload.results), limits.results) };
    case 'SCAN_PROGRESS': {
      const p = update.payload;
      return { ...state, phase: p.phase ?? state.phase, progress: { done: Number(p.done) || 0, total: Number(p.total) || 0 }, counts: p.counts ? { ...p.counts } : state.counts };
    }
    case 'SCAN_FINISHED': {
      const p = update.payload;
      return {
        ...state,
        status: p.status === 'finished' || p.status === undefined ? 'finished' : 'error',
        counts: p.counts ? { ...p.counts } : state.counts,
        metadata: p.metadata ? { ...p.metadata } : state.metadata,
        finishedMessage: p.message ?? null,
        finishedRef: refOrNull(p),
        exitCode: p.exitCode ?? null,
        cancelled: p.status === 'cancelled',
        tasks: [],
      };
    }
    case 'SCAN_ERROR':
      return { ...state, status: 'error', tasks: [] };
  }
}

/** The state after one scanner event: its updates applied in order (a started run keeps its pid). */
export function reduceScanState(state: ScanState, event: ScanEvent, limits: Readonly<ScanStateLimits> = STATE_LIMITS): ScanState {
  if (event.type === 'started') return startedState(event);
  return scanUpdatesFor(event, state, limits).reduce((s, u) => applyScanUpdate(s, u, limits), state);
}
