/**
 * The scanner page's state: the shared scan state (server/contract/scan-state.ts), folded from the admin
 * socket's frames (docs/API.md#admin-socket) by the one scan-state reducer, with the page's own limits.
 * Null → running (a start button, or a running snapshot) → finished | error.
 */
import { scanUpdateOf, type Frame } from '../../../../server/contract/realtime.js';
import { applyScanUpdate, type LogLine, type ResultLine, type ScanState, type ScanStateLimits } from '../../../../server/contract/scan-state.js';

/** The page keeps more log lines and results than the terminal does. */
export const WEB_SCAN_LIMITS: ScanStateLimits = { mainLogs: 1000, taskLogs: 50, failedTasks: 500, results: 2000 };

/** The state after the user pressed a start button (the server confirms with a snapshot). */
export function started(state: ScanState): ScanState {
  return { ...state, status: 'running' };
}

/** The state after one server frame. Frames that are not scan frames leave it unchanged. */
export function reduceFrame(state: ScanState, frame: Frame): ScanState {
  const update = scanUpdateOf(frame);
  return update ? applyScanUpdate(state, update, WEB_SCAN_LIMITS) : state;
}

/** The log panel's lines: the main log, and once the run has ended its closing message. */
export function mainLogLines(state: ScanState): LogLine[] {
  return state.status !== 'running' && state.finishedMessage ? [...state.mainLogs, { level: 'info', message: state.finishedMessage, ...state.finishedRef }] : state.mainLogs;
}

/** How the kikoeru dashboard prints a result line (docs/API.md#admin-socket). */
export function resultLine(r: ResultLine, t: { added(c: string, n: number): string; updated(c: string, n: number): string; failedLine(c: string, n: number): string }): string {
  if (r.result === 'added') return t.added(r.rjcode, r.count);
  if (r.result === 'updated') return t.updated(r.rjcode, r.count);
  return t.failedLine(r.rjcode, r.count);
}
