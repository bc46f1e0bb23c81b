/**
 * Lyric lines as the player and the lyric editor use them (docs/API.md#lyrics).
 * Times are milliseconds from the start of the track.
 */
export interface LyricLine {
  time: number;
  text: string;
  /** End of the line (SRT/VTT cues); absent for LRC lines. */
  timeEnd?: number;
}

/** A line as the web editor sends it back: `deleted` and extended lyrics are client state, dropped on save. */
export interface EditableLyricLine extends LyricLine {
  deleted?: boolean;
  extLrc?: unknown;
}

/** The lyric formats the player can load. `.ass` is listed as a lyric file but not loadable. */
export type LyricFormat = 'lrc' | 'srt' | 'vtt';

export const LYRIC_FORMATS: readonly LyricFormat[] = ['lrc', 'srt', 'vtt'];
