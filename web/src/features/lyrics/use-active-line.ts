/** The current lyric line, read from the playback clock: the component re-renders only when the line changes. */
import { useCallback } from 'react';
import type { ClockState } from '../player/clock.js';
import { useClock } from '../player/clock.js';
import { useEngineState } from '../player/engine-state.js';
import { activeLineIndex, lineIndexAt, lyricClock } from './lyric-timing.js';
import { useLyrics } from './lyric-store.js';

/**
 * Index of the current line. `strict`: -1 once an SRT/VTT cue has ended (the lyric bar goes blank);
 * otherwise the last line started (the list keeps it highlighted).
 */
export function useActiveLine(strict = false): number {
  const lines = useLyrics((s) => s.lines);
  const offset = useLyrics((s) => s.offset);
  const select = useCallback(
    (c: ClockState) => {
      const ms = lyricClock(c.currentTime, offset);
      return strict ? activeLineIndex(lines, ms) : lineIndexAt(lines, ms);
    },
    [lines, offset, strict],
  );
  return useClock(select);
}

/**
 * The text of the current line ('' between lines, and once the track has ended: the floating lyric —
 * the lyric bar, the picture-in-picture window — does not keep the last line of a finished track).
 */
export function useActiveText(): string {
  const lines = useLyrics((s) => s.lines);
  const i = useActiveLine(true);
  const ended = useEngineState((s) => s.ended);
  return i >= 0 && !ended ? (lines[i]?.text ?? '') : '';
}
