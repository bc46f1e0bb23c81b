/** Pure pieces of the lyric display, the lyric sync helper, the history saver and the sleep timer. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { activeLineIndex, activeText, lineIndexAt, lyricClock, normalizeOffset, OFFSET_STEP } from '../../web/src/features/lyrics/lyric-timing.js';
import { finishMeasure, resetSync, startMeasure, SYNC_READY } from '../../web/src/features/lyrics/sync-helper.js';
import { clockStopAt, COUNTDOWN_PRESETS, countdownStopAt, isDue, parseClock, presetMinutes, remainingText, stopClockText } from '../../web/src/features/sleep-timer/sleep-time.js';
import { HistorySync, RESUMING_LOG, type HistoryPayload } from '../../web/src/features/player/history-sync.js';
import type { LyricLine } from '../../server/domain/lyrics/types.js';

const LINES: LyricLine[] = [
  { time: 1000, text: 'one' },
  { time: 2500, text: 'two' },
  { time: 4000, text: 'three', timeEnd: 5000 },
  { time: 7000, text: 'four' },
];

describe('the current lyric line', () => {
  it('is the last line started, none before the first', () => {
    expect(lineIndexAt(LINES, 0)).toBe(-1);
    expect(lineIndexAt(LINES, 999)).toBe(-1);
    expect(lineIndexAt(LINES, 1000)).toBe(0);
    expect(lineIndexAt(LINES, 2499)).toBe(0);
    expect(lineIndexAt(LINES, 2500)).toBe(1);
    expect(lineIndexAt(LINES, 99_999)).toBe(3);
    expect(lineIndexAt([], 5)).toBe(-1);
  });

  it('ends with the cue end time of SRT/VTT lines', () => {
    expect(activeLineIndex(LINES, 4500)).toBe(2);
    expect(activeLineIndex(LINES, 5000)).toBe(2);
    expect(activeLineIndex(LINES, 5001)).toBe(-1);
    expect(activeLineIndex(LINES, 7000)).toBe(3);
  });

  it('moves with the offset: positive shows lines later, negative earlier', () => {
    expect(activeText(LINES, 2.6, 0)).toBe('two');
    expect(activeText(LINES, 2.6, 0.5)).toBe('one'); // lyric clock 2.1 s
    expect(activeText(LINES, 2.0, -0.5)).toBe('two'); // lyric clock 2.5 s
    expect(lyricClock(10, 1.25)).toBe(8750);
  });

  it('keeps offsets to 4 decimals, a cleared value is 0, steps are 0.1 s', () => {
    expect(OFFSET_STEP).toBe(0.1);
    expect(normalizeOffset(1.234567)).toBe(1.2346);
    expect(normalizeOffset('-0.00004')).toBe(0);
    expect(normalizeOffset('')).toBe(0);
    expect(normalizeOffset('  ')).toBe(0);
    expect(normalizeOffset(null)).toBe(0);
    expect(normalizeOffset('abc')).toBe(0);
    expect(normalizeOffset(Number.POSITIVE_INFINITY)).toBe(0);
    expect(normalizeOffset(0.1 + 0.2)).toBe(0.3);
  });
});

describe('the lyric sync helper: ready → measure → done, reset', () => {
  it('voice first: the lines are late, the offset goes down by the measured time', () => {
    const m = startMeasure(SYNC_READY, 'audio', 10);
    expect(m).toEqual({ phase: 'measure', first: 'audio', startedAt: 10 });
    expect(finishMeasure(m, 11.25, 0.5)).toEqual({ phase: 'done', first: 'audio', delta: 1.25, offset: -0.75 });
  });

  it('line first: the lines are early, the offset goes up', () => {
    const done = finishMeasure(startMeasure(SYNC_READY, 'lyric', 3), 3.3333333, 0);
    expect(done).toEqual({ phase: 'done', first: 'lyric', delta: 0.3333, offset: 0.3333 });
    expect(resetSync()).toEqual({ phase: 'ready' });
  });

  it('ignores steps out of order', () => {
    expect(finishMeasure(SYNC_READY, 5, 0)).toBe(SYNC_READY);
    const m = startMeasure(SYNC_READY, 'audio', 1);
    expect(startMeasure(m, 'lyric', 2)).toBe(m);
    expect(finishMeasure(startMeasure(SYNC_READY, 'lyric', 5), 4, 0)).toMatchObject({ delta: 0, offset: 0 }); // seeked back
  });
});

describe('sleep timer', () => {
  const at = (h: number, m: number, day = 10) => new Date(2025, 0, day, h, m, 30).getTime();

  it('clock mode: later today, or tomorrow when the time is not ahead', () => {
    expect(clockStopAt(at(22, 10), 23, 0)).toBe(new Date(2025, 0, 10, 23, 0, 0).getTime());
    expect(clockStopAt(at(22, 10), 1, 30)).toBe(new Date(2025, 0, 11, 1, 30, 0).getTime()); // an earlier hour → tomorrow
    expect(clockStopAt(at(22, 10), 22, 5)).toBe(new Date(2025, 0, 11, 22, 5, 0).getTime());
    expect(clockStopAt(at(22, 10), 22, 11)).toBe(new Date(2025, 0, 10, 22, 11, 0).getTime());
    expect(() => clockStopAt(at(1, 0), 24, 0)).toThrow(RangeError);
    expect(parseClock('07:05')).toEqual({ hour: 7, minute: 5 });
    expect(parseClock('23:59:00')).toEqual({ hour: 23, minute: 59 });
    for (const bad of ['', '24:00', '7', 'ab:cd', '12:60']) expect(parseClock(bad)).toBeNull();
  });

  it('countdown mode: presets on a 0..10 slider; 0 or less fails', () => {
    expect(COUNTDOWN_PRESETS).toEqual([0, 1, 3, 5, 10, 20, 30, 45, 60, 90, 120]);
    expect(presetMinutes(0)).toBe(0);
    expect(presetMinutes(10)).toBe(120);
    expect(presetMinutes(11)).toBe(120);
    expect(presetMinutes(-1)).toBe(0);
    expect(countdownStopAt(1000, 0)).toBeNull();
    expect(countdownStopAt(1000, -5)).toBeNull();
    expect(countdownStopAt(1000, Number.NaN)).toBeNull();
    expect(countdownStopAt(1000, 1.5)).toBe(91_000);
  });

  it('is due at its stop time and shows what is left', () => {
    const timer = { mode: 'countdown' as const, stopAt: 100_000 };
    expect(isDue(null, 1e12)).toBe(false);
    expect(isDue(timer, 99_999)).toBe(false);
    expect(isDue(timer, 100_000)).toBe(true);
    expect(remainingText(timer, 100_000 - 61_500)).toBe('1:02');
    expect(remainingText(timer, 100_000 - 3_725_000)).toBe('1:02:05');
    expect(remainingText(timer, 200_000)).toBe('0:00');
    expect(stopClockText({ mode: 'clock', stopAt: new Date(2025, 0, 1, 7, 5).getTime() })).toBe('07:05');
  });
});

describe('history saving', () => {
  let now: HistoryPayload | null;
  let resuming: boolean;
  let puts: HistoryPayload[];
  let logs: string[];
  let fail: unknown;
  let sync: HistorySync;

  const payload = (seconds: number, index = 0): HistoryPayload => ({
    work_id: 1,
    state: { queue: [{ hash: '1/0', title: 'a', subtitle: null, workTitle: 'w', workId: 1 }], index, seconds },
  });

  beforeEach(() => {
    vi.useFakeTimers();
    now = payload(0);
    resuming = false;
    puts = [];
    logs = [];
    fail = null;
    sync = new HistorySync({
      snapshot: () => now,
      isResuming: () => resuming,
      put: async (p) => {
        if (fail) throw fail;
        puts.push(p);
      },
      log: (m) => logs.push(m),
      isFatal: (err) => err === 'forbidden',
    });
    sync.start();
  });
  afterEach(() => {
    sync.stop();
    vi.useRealTimers();
  });

  it('debounces changes by 500 ms', async () => {
    sync.schedule();
    await vi.advanceTimersByTimeAsync(300);
    now = payload(1);
    sync.schedule();
    await vi.advanceTimersByTimeAsync(499);
    expect(puts).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(puts).toEqual([payload(1)]);
  });

  it('checks every 60 s and skips when nothing changed', async () => {
    await vi.advanceTimersByTimeAsync(60_000);
    expect(puts).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(puts).toHaveLength(1); // unchanged
    now = payload(75.5);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(puts.at(-1)).toEqual(payload(75.5));
    sync.markSaved(payload(3, 0));
    now = payload(3, 0);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(puts).toHaveLength(2); // the state the server already has is not sent back
  });

  it('skips while resuming, with the log line of the spec', async () => {
    resuming = true;
    sync.schedule();
    await vi.advanceTimersByTimeAsync(500);
    expect(puts).toEqual([]);
    expect(logs).toEqual([RESUMING_LOG]);
    expect(RESUMING_LOG).toBe('尚处于恢复历史记录的状态，跳过本次历史更新');
    resuming = false;
    sync.schedule();
    await vi.advanceTimersByTimeAsync(500);
    expect(puts).toHaveLength(1);
  });

  it('only logs failures, retries later, and gives up for good on a refusal', async () => {
    fail = new Error('offline');
    sync.schedule();
    await vi.advanceTimersByTimeAsync(500);
    expect(logs).toEqual(['更新播放历史失败']);
    fail = null;
    sync.schedule();
    await vi.advanceTimersByTimeAsync(500);
    expect(puts).toHaveLength(1); // the failed save was not counted as saved
    fail = 'forbidden';
    now = payload(9);
    await sync.save();
    fail = null;
    now = payload(10);
    await sync.save();
    expect(puts).toHaveLength(1);
  });

  it('does nothing while nothing plays', async () => {
    now = null;
    sync.schedule();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(puts).toEqual([]);
    expect(logs).toEqual([]);
  });
});
