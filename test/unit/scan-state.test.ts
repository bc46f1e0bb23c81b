import { describe, expect, it } from 'vitest';
import type { ScanEvent } from '../../server/contract/scan-events.js';
import { decode, encode, scanUpdateOf } from '../../server/contract/realtime.js';
import { STATE_LIMITS, applyScanUpdate, initialScanState, reduceScanState, scanSnapshot, scanUpdatesFor, type ScanState, type ScanStateLimits } from '../../server/contract/scan-state.js';
import { MSG } from '../../server/contract/scan-text/zh-CN.js';
import { SCAN_TEXT, scanLineText } from '../../server/contract/scan-text/index.js';
import { TERMINAL_SCAN_LIMITS } from '../../cli/tui/run-scan-tui.js';
import { WEB_SCAN_LIMITS, mainLogLines, reduceFrame, started } from '../../web/src/features/admin/scanner-state.js';

const counts = (failed = 0) => ({ added: 1, updated: 0, skipped: 0, failed });
const metadata = { ok: 1, failed: 0, pending: 0 };

const RUN: ScanEvent[] = [
  { type: 'started', runId: 7, kind: 'scan', pid: 42, at: '2025-01-01 00:00:00' },
  { type: 'main-log', level: 'info', message: '共找到 2 个音声文件夹.' },
  { type: 'task-started', code: 'RJ000001', workId: 1 },
  { type: 'task-log', code: 'RJ000001', level: 'info', message: '发现新文件夹' },
  { type: 'task-started', code: 'RJ000002', workId: 2 },
  { type: 'task-log', code: 'RJ000002', level: 'warn', message: '读不到时长' },
  { type: 'task-started', code: 'RJ000002', workId: 2 },
  { type: 'task-log', code: 'RJ000003', level: 'info', message: '没有 task-started 的任务' },
  { type: 'task-done', code: 'RJ000001', result: 'added' },
  { type: 'result', code: 'RJ000001', result: 'added', count: 1 },
  { type: 'task-failed', code: 'RJ000002', error: 'boom' },
  { type: 'result', code: 'RJ000002', result: 'failed', count: 1 },
  { type: 'progress', phase: 'local', done: 2, total: 3, counts: counts(1) },
  { type: 'error', message: '致命错误' },
];

const fold = (events: ScanEvent[], limits: ScanStateLimits = STATE_LIMITS, from: ScanState = initialScanState()) => events.reduce((s, e) => reduceScanState(s, e, limits), from);

/** What a dashboard sees: every event's frames, sent as JSON text and folded by the page. */
function overTheSocket(events: ScanEvent[], limits: ScanStateLimits): ScanState {
  let server = initialScanState();
  let page = initialScanState();
  for (const e of events) {
    for (const u of scanUpdatesFor(e, server, limits)) page = reduceFrame(page, decode(encode(u.event, u.payload))!);
    server = reduceScanState(server, e, limits);
  }
  return page;
}

describe('the scan-state reducer', () => {
  it('folds a run into live tasks, failed tasks with their log, results, progress and main logs', () => {
    const s = fold(RUN);
    expect(s).toMatchObject({ status: 'running', runId: 7, kind: 'scan', pid: 42, startedAt: '2025-01-01 00:00:00', phase: 'local', progress: { done: 2, total: 3 } });
    expect(s.counts).toEqual(counts(1));
    expect(s.tasks).toEqual([{ rjcode: 'RJ000003', result: null, logs: [{ level: 'info', message: '没有 task-started 的任务' }] }]);
    expect(s.failedTasks).toEqual([
      {
        rjcode: 'RJ000002',
        result: 'failed',
        logs: [
          { level: 'warn', message: '读不到时长' },
          { level: 'error', message: 'boom' },
        ],
      },
    ]);
    expect(s.results).toEqual([
      { rjcode: 'RJ000001', result: 'added', count: 1 },
      { rjcode: 'RJ000002', result: 'failed', count: 1 },
    ]);
    expect(s.mainLogs).toEqual([
      { level: 'info', message: '共找到 2 个音声文件夹.' },
      { level: 'error', message: '致命错误' },
    ]);
  });

  it('ends a run: finished, or error and cancelled, with counts, metadata and exit code; live tasks cleared', () => {
    const done = fold([{ type: 'finished', status: 'finished', message: '扫描完成', counts: counts(), metadata, exitCode: 0 }], STATE_LIMITS, fold(RUN));
    expect(done).toMatchObject({ status: 'finished', finishedMessage: '扫描完成', exitCode: 0, cancelled: false, tasks: [], metadata });
    const killed = fold([{ type: 'finished', status: 'cancelled', message: '扫描已取消', counts: counts(), metadata, exitCode: 1 }], STATE_LIMITS, fold(RUN));
    expect(killed).toMatchObject({ status: 'error', finishedMessage: '扫描已取消', exitCode: 1, cancelled: true, tasks: [] });
    expect(scanUpdatesFor({ type: 'finished', status: 'cancelled', message: 'x', counts: counts(), metadata, exitCode: 1 }, killed).map((u) => u.event)).toEqual(['SCAN_FINISHED', 'SCAN_ERROR']);
    expect(applyScanUpdate(fold(RUN), { event: 'SCAN_ERROR', payload: { message: 'x', status: 'error' } })).toMatchObject({ status: 'error', tasks: [] });
  });

  it('starts every run from a clean state', () => {
    const again = fold([{ type: 'started', runId: 8, kind: 'files', pid: 43, at: '2025-01-02 00:00:00' }], STATE_LIMITS, fold(RUN));
    expect(again).toEqual({ ...initialScanState(), status: 'running', runId: 8, kind: 'files', pid: 43, startedAt: '2025-01-02 00:00:00' });
  });

  it('never changes the state it is given', () => {
    const before = fold(RUN.slice(0, 6));
    const copy = structuredClone(before);
    fold(RUN.slice(6), STATE_LIMITS, before);
    expect(before).toEqual(copy);
  });

  it('bounds the lists by the limits it is given: the terminal keeps 500 log lines, the web page 1,000', () => {
    const logs: ScanEvent[] = Array.from({ length: 1200 }, (_, i) => ({ type: 'main-log', level: 'info', message: `line ${i}` }));
    const terminal = fold(logs, TERMINAL_SCAN_LIMITS);
    expect(terminal.mainLogs).toHaveLength(500);
    expect(terminal.mainLogs[0].message).toBe('line 700');
    const web = overTheSocket(logs, WEB_SCAN_LIMITS);
    expect(web.mainLogs).toHaveLength(1000);
    expect(web.mainLogs[0].message).toBe('line 200');
    expect(web.mainLogs.at(-1)?.message).toBe('line 1199');

    const taskLogs: ScanEvent[] = Array.from({ length: 60 }, (_, i) => ({ type: 'task-log', code: 'RJ000001', level: 'info', message: `t${i}` }));
    const failed = fold([...taskLogs, { type: 'task-failed', code: 'RJ000001', error: 'boom' }], { ...STATE_LIMITS, taskLogs: 5 });
    expect(failed.failedTasks[0].logs.map((l) => l.message)).toEqual(['t56', 't57', 't58', 't59', 'boom']);
  });

  it('gives the web page over the socket exactly the state the server folds from the events', () => {
    const events: ScanEvent[] = [...RUN, { type: 'finished', status: 'error', message: '扫描出错', counts: counts(1), metadata, exitCode: 2 }];
    for (let n = 1; n <= events.length; n++) {
      expect(scanSnapshot(overTheSocket(events.slice(0, n), STATE_LIMITS))).toEqual(scanSnapshot(fold(events.slice(0, n))));
    }
  });

  it('takes a snapshot whole, bounded by the receiving limits', () => {
    const server = fold(Array.from({ length: 30 }, (_, i): ScanEvent => ({ type: 'result', code: `RJ${i}`, result: 'added', count: i + 1 })));
    const small = { ...STATE_LIMITS, results: 10 };
    const s = applyScanUpdate(fold(RUN), { event: 'SCAN_INIT_STATE', payload: scanSnapshot(server) }, small);
    expect(s.results).toHaveLength(10);
    expect(s.results[0].rjcode).toBe('RJ20');
    expect(s.tasks).toEqual([]);
    expect(s.status).toBeNull();
  });
});

describe('the scanner page around the reducer', () => {
  it('ignores frames that are not scan frames or carry no payload object', () => {
    const s = fold(RUN);
    expect(scanUpdateOf({ event: 'success', payload: {} })).toBeNull();
    expect(scanUpdateOf({ event: 'SCAN_TASKS' })).toBeNull();
    expect(scanUpdateOf({ event: 'SCAN_TASKS', payload: [] })).toBeNull();
    expect(reduceFrame(s, { event: 'SCAN_MAIN_LOGS', payload: 'x' })).toBe(s);
    expect(reduceFrame(s, { event: 'SCAN_TASKS', payload: {} })).toEqual(s);
  });

  it('shows running at once on a start button, and the closing message after the main log once a run ended', () => {
    expect(started(initialScanState()).status).toBe('running');
    const running = fold(RUN);
    expect(mainLogLines(running)).toBe(running.mainLogs);
    const done = fold([{ type: 'finished', status: 'finished', message: '扫描完成: 新增 1 个', counts: counts(), metadata, exitCode: 0 }], STATE_LIMITS, running);
    expect(mainLogLines(done).at(-1)).toEqual({ level: 'info', message: '扫描完成: 新增 1 个' });
    expect(mainLogLines(started(done))).toBe(done.mainLogs);
  });
});

describe('scan lines in the reader’s language', () => {
  const keyed: ScanEvent[] = [
    { type: 'started', runId: 9, kind: 'scan', pid: 1, at: '2025-01-01 00:00:00' },
    { type: 'main-log', level: 'info', message: MSG.foundFolders(3), key: 'foundFolders', params: [3] },
    { type: 'task-started', code: 'RJ000001', workId: 1 },
    { type: 'task-failed', code: 'RJ000001', error: MSG.workError('boom'), key: 'workError', params: ['boom'] },
    { type: 'finished', status: 'finished', message: MSG.finishedScan(counts(1)), key: 'finishedScan', params: [counts(1)], counts: counts(1), metadata, exitCode: 1 },
  ];

  it('keeps each line’s key and parameters through the reducer, the socket frames and a snapshot', () => {
    const state = keyed.reduce((s, e) => reduceScanState(s, e), initialScanState());
    expect(state.mainLogs).toEqual([{ level: 'info', message: '共找到 3 个音声文件夹.', key: 'foundFolders', params: [3] }]);
    expect(state.failedTasks[0].logs.at(-1)).toEqual({ level: 'error', message: '处理作品时出错: boom', key: 'workError', params: ['boom'] });
    expect(state.finishedRef).toEqual({ key: 'finishedScan', params: [counts(1)] });
    // the web page: frames in, and a snapshot after a reload
    let web = initialScanState();
    let before = initialScanState();
    for (const e of keyed) {
      for (const u of scanUpdatesFor(e, before)) web = reduceFrame(web, decode(encode(u.event, u.payload))!);
      before = reduceScanState(before, e);
    }
    expect(mainLogLines(web).map((l) => scanLineText(l, SCAN_TEXT.en))).toEqual(['Found 3 work folder(s).', SCAN_TEXT.en.finishedScan(counts(1))]);
    const reloaded = applyScanUpdate(initialScanState(), { event: 'SCAN_INIT_STATE', payload: JSON.parse(JSON.stringify(scanSnapshot(state))) as ReturnType<typeof scanSnapshot> });
    expect(mainLogLines(reloaded).map((l) => scanLineText(l, SCAN_TEXT.ja))).toEqual([SCAN_TEXT.ja.foundFolders(3), SCAN_TEXT.ja.finishedScan(counts(1))]);
    expect(reloaded.exitCode).toBe(1);
  });

  it('says a line in Chinese exactly as the scanner wrote it, and falls back to its text without a known key', () => {
    for (const e of keyed) if (e.type === 'main-log') expect(scanLineText(e, SCAN_TEXT['zh-CN'])).toBe(e.message);
    expect(scanLineText({ message: '旧的日志', key: 'noSuchKey', params: [] }, SCAN_TEXT.en)).toBe('旧的日志');
    expect(scanLineText({ message: '旧的日志' }, SCAN_TEXT.ja)).toBe('旧的日志');
  });
});
