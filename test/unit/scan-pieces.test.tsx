import React from 'react';
import { mkdirSync, mkdtempSync, writeFileSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { render } from 'ink-testing-library';
import { titleFromFolderName } from '../../server/library/files/folder-title.js';
import { listWorkFiles } from '../../server/library/files/work-files.js';
import { initialScanState, reduceScanState } from '../../server/contract/scan-state.js';
import type { ScanEvent } from '../../server/contract/scan-events.js';
import { ScanLock, ScanBusyError, lockHolder } from '../../server/library/scan/scan-lock.js';
import { pickCoverImage } from '../../server/media/covers.js';
import { ScanView } from '../../cli/tui/scan-view.js';
import { formatScanEventPlain } from '../../cli/output/scan-plain.js';
import { requestFromOptions } from '../../cli/commands/scan.js';
import { cliText } from '../../cli/i18n/index.js';

describe('folder titles, order and classes', () => {
  it('trims the code and bracketed tags from a folder name', () => {
    expect(titleFromFolderName('[サークル] RJ123456 耳かき (CV:誰か)', 'RJ123456')).toBe('耳かき');
    expect(titleFromFolderName('RJ01234567【ASMR】添い寝', 'RJ01234567')).toBe('添い寝');
    expect(titleFromFolderName('RJ123456', 'RJ123456')).toBe('RJ123456');
    expect(titleFromFolderName('rj123456_title - part 2', 'RJ123456')).toBe('title - part 2');
  });
  it('lists the files of the file-kind table: a file named just `.mp3` is hidden, not audio', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'kikoplay-kinds-'));
    try {
      const work = path.join(root, 'RJ000001');
      mkdirSync(path.join(work, 'sub'), { recursive: true });
      for (const name of ['.mp3', 'a.MP3', '.hidden.flac', 'sub/b.ass', 'c.txt', 'd.pdf', 'e.jpeg', 'f.zip', 'g.mkv']) writeFileSync(path.join(work, name), 'x');
      const listing = await listWorkFiles(work, root);
      const byPath = Object.fromEntries(listing.files.map((f) => [f.path, { kind: f.kind, isLyric: f.isLyric, isMedia: f.isMedia }]));
      expect(byPath).toEqual({
        'a.MP3': { kind: 'audio', isLyric: false, isMedia: true },
        '.hidden.flac': { kind: 'audio', isLyric: false, isMedia: true },
        'sub/b.ass': { kind: 'text', isLyric: true, isMedia: false },
        'c.txt': { kind: 'text', isLyric: false, isMedia: false },
        'd.pdf': { kind: 'other', isLyric: false, isMedia: false },
        'e.jpeg': { kind: 'image', isLyric: false, isMedia: false },
      });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
  it('picks cover/folder/jacket images first, else the first image', () => {
    expect(pickCoverImage(['scan/p1.jpg', 'img/cover.png', 'a.jpg'])).toBe('img/cover.png');
    expect(pickCoverImage(['b.jpg', 'a.png'])).toBe('a.png');
    expect(pickCoverImage([])).toBeNull();
  });
});

const EVENTS: ScanEvent[] = [
  { type: 'started', runId: 1, kind: 'scan', pid: 1, at: '2025-01-01 00:00:00' },
  { type: 'main-log', level: 'info', message: '共找到 2 个音声文件夹.' },
  { type: 'task-started', code: 'RJ000001', workId: 1 },
  { type: 'task-log', code: 'RJ000001', level: 'info', message: '发现新文件夹: "/x/RJ000001"' },
  { type: 'task-started', code: 'RJ000002', workId: 2 },
  { type: 'task-log', code: 'RJ000002', level: 'error', message: '处理作品时出错: boom' },
  { type: 'result', code: 'RJ000002', result: 'failed', count: 1 },
  { type: 'task-failed', code: 'RJ000002', error: 'boom' },
  { type: 'progress', phase: 'local', done: 1, total: 2, counts: { added: 0, updated: 0, skipped: 0, failed: 1 } },
];

describe('scan state and views', () => {
  it('folds events into tasks, failed tasks, results and counts', () => {
    const s = EVENTS.reduce((st, e) => reduceScanState(st, e), initialScanState());
    expect(s.status).toBe('running');
    expect(s.tasks.map((t) => t.rjcode)).toEqual(['RJ000001']);
    expect(s.failedTasks[0]).toMatchObject({ rjcode: 'RJ000002', result: 'failed' });
    expect(s.results).toEqual([{ rjcode: 'RJ000002', result: 'failed', count: 1 }]);
    expect(s.progress).toEqual({ done: 1, total: 2 });
    const done = reduceScanState(s, { type: 'finished', status: 'finished', message: '扫描完成', counts: s.counts, metadata: { ok: 0, failed: 0, pending: 0 }, exitCode: 1 });
    expect(done.status).toBe('finished');
    expect(done.tasks).toEqual([]);
  });

  it('renders progress, counts, live tasks, failures; q cancels', async () => {
    let cancelled = 0;
    const state = EVENTS.reduce((st, e) => reduceScanState(st, e), initialScanState());
    const view = render(<ScanView state={state} onCancel={() => cancelled++} width={100} texts={cliText('zh-CN')} />);
    const frame = view.lastFrame() ?? '';
    expect(frame).toContain('1/2 (50%)');
    expect(frame).toContain('失败 1');
    expect(frame).toContain('[RJ000001] 发现新文件夹');
    expect(frame).toContain('[RJ000002] boom');
    expect(frame).toContain('共找到 2 个音声文件夹.');
    view.stdin.write('q');
    await new Promise((r) => setTimeout(r, 20));
    expect(cancelled).toBe(1);
    view.unmount();
  });

  it('prints plain lines and maps flags to jobs', () => {
    expect(formatScanEventPlain({ type: 'task-log', code: 'RJ000001', level: 'warn', message: 'x' })).toBe('WARN [RJ000001] x');
    expect(formatScanEventPlain({ type: 'task-started', code: 'RJ000001', workId: 1 })).toBeNull();
    expect(requestFromOptions({})).toEqual({ kind: 'scan', full: false, metadata: true });
    expect(requestFromOptions({ work: 'bj123456' })).toEqual({ kind: 'work', workId: 1e12 + 123456, metadata: false });
    expect(requestFromOptions({ files: true })).toEqual({ kind: 'files' });
    expect(() => requestFromOptions({ files: true, purgeMissing: true })).toThrow(/cannot be combined/);
    expect(() => requestFromOptions({ work: 'RJ12' })).toThrow(/--work/);
  });
});

describe('scan lock', () => {
  it('is exclusive, held by the OS, and ignores lock info naming a live process that holds nothing', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'kikoplay-lock-'));
    const file = path.join(dir, 'scan.lock');
    try {
      const a = new ScanLock(file);
      await a.acquire('scan');
      expect(JSON.parse(readFileSync(file, 'utf8')).pid).toBe(process.pid);
      await expect(new ScanLock(file).acquire('files')).rejects.toThrow(ScanBusyError);
      expect((await lockHolder(file))?.pid).toBe(process.pid);
      await a.release();
      expect(await lockHolder(file)).toBeNull();
      // info left by a killed scan whose pid now belongs to a live process (here: this one) holds nothing
      writeFileSync(file, JSON.stringify({ pid: process.pid, kind: 'scan', startedAt: 'x' }));
      expect(await lockHolder(file)).toBeNull();
      const b = new ScanLock(file);
      await b.acquire('scan');
      expect(b.isHeld).toBe(true);
      await b.release();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
