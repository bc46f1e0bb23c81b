/**
 * The lyrics of the playing track: loaded per track — the lyric file next to the
 * audio (check-lrc), else a successful AI task of the work for that file (same path, then the fuzzy
 * name rule: "loose" matching) — or picked by hand from query-lrc. A load error shows the generic
 * notice and leaves the track without lyrics. The offset (seconds) starts at 0 for every track.
 */
import { create } from 'zustand';
import { reportError } from '../../api/errors.js';
import { isUnauthorized } from '../../api/errors.js';
import { tasksForAudio, type LyricOption } from '../../../../server/domain/lyric-match.js';
import { baseName } from '../../../../server/domain/file-kinds.js';
import { parseLrc } from '../../../../server/domain/lyrics/parse-lrc.js';
import type { LyricLine } from '../../../../server/domain/lyrics/types.js';
import { entryPath } from '../player/queue-entry.js';
import type { QueueEntry } from '../player/store.js';
import { aiLrcContent, checkLrc, fetchLrc, successfulAiTasks } from './lyric-api.js';
import { normalizeOffset } from './lyric-timing.js';

export type LyricStatus = 'idle' | 'loading' | 'ready' | 'none';

export interface LyricSource {
  /** What the lyric is: a file name, or the audio name + .lrc for an AI lyric. */
  title: string;
  isAI: boolean;
  /** Found by the fuzzy name rule, not by path. */
  loose: boolean;
}

export interface LyricState {
  /** The audio hash the lyrics belong to. */
  hash: string | null;
  status: LyricStatus;
  lines: LyricLine[];
  source: LyricSource | null;
  offset: number;
  load(entry: QueueEntry | undefined): Promise<void>;
  choose(entry: QueueEntry, option: LyricOption): Promise<void>;
  setOffset(offset: number | string): void;
  /** The edited lines were saved as a file: show them. */
  replace(lines: LyricLine[], source: LyricSource): void;
}

let epoch = 0;
let aborter: AbortController | null = null;

function begin(): { id: number; signal: AbortSignal } {
  aborter?.abort();
  aborter = new AbortController();
  return { id: ++epoch, signal: aborter.signal };
}

const sorted = (lines: LyricLine[]): LyricLine[] => [...lines].filter((l) => Number.isFinite(l.time) && typeof l.text === 'string').sort((a, b) => a.time - b.time);

/** The lyric of an audio entry: its own file, else an AI lyric. Null when there is none. */
async function findLyric(entry: QueueEntry, signal: AbortSignal): Promise<{ lines: LyricLine[]; source: LyricSource } | null> {
  const local = await checkLrc(entry.hash, signal);
  if (local.result && Array.isArray(local.lrc)) {
    const ext = local.lyricExtension ?? '.lrc';
    return { lines: local.lrc, source: { title: entry.title.replace(/\.[^.]+$/, '') + ext, isAI: false, loose: false } };
  }
  const tasks = await successfulAiTasks(entry.workId, signal);
  if (!tasks.length) return null;
  const path = entryPath(entry);
  const exact = tasks.find((t) => t.audio_path.replace(/\\/g, '/') === path);
  const task =
    exact ??
    tasksForAudio(
      path,
      tasks.map((t) => ({ ...t, audio_path: t.audio_path.replace(/\\/g, '/') })),
    )[0];
  if (!task) return null;
  const lines = parseLrc(await aiLrcContent(task.id, signal));
  return { lines, source: { title: `${baseName(task.audio_path)}.lrc`, isAI: true, loose: !exact } };
}

const isAbort = (err: unknown) => err instanceof DOMException && err.name === 'AbortError';

export const useLyrics = create<LyricState>()((set, get) => ({
  hash: null,
  status: 'idle',
  lines: [],
  source: null,
  offset: 0,

  async load(entry) {
    const { id, signal } = begin();
    if (!entry) {
      set({ hash: null, status: 'idle', lines: [], source: null, offset: 0 });
      return;
    }
    set({ hash: entry.hash, status: 'loading', lines: [], source: null, offset: 0 });
    try {
      const found = await findLyric(entry, signal);
      if (id !== epoch) return;
      if (found && found.lines.length) set({ status: 'ready', lines: sorted(found.lines), source: found.source });
      else set({ status: 'none' });
    } catch (err) {
      if (id !== epoch || isAbort(err)) return;
      set({ status: 'none' });
      if (!isUnauthorized(err)) reportError(err);
    }
  },

  async choose(entry, option) {
    const { id, signal } = begin();
    const previous = get();
    set({ hash: entry.hash, status: 'loading' });
    try {
      const lines = await fetchLrc(entry.workId, option, signal);
      if (id !== epoch) return;
      set({ status: lines.length ? 'ready' : 'none', lines: sorted(lines), source: { title: option.title, isAI: option.isAI, loose: option.matchLevel < 0 || option.matchLevel >= 2 }, offset: 0 });
    } catch (err) {
      if (id !== epoch || isAbort(err)) return;
      set({ status: previous.status === 'loading' ? 'none' : previous.status, lines: previous.lines, source: previous.source });
      reportError(err);
    }
  },

  setOffset: (offset) => set({ offset: normalizeOffset(offset) }),

  replace: (lines, source) => set({ status: lines.length ? 'ready' : 'none', lines: sorted(lines), source }),
}));
