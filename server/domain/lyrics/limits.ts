/**
 * Bounds on lyric work, so that no lyric — a file in the library or an AI task's result — can make the
 * server (or the web player) spend more than linear time and a few MB on it. A long real LRC is a few
 * hundred KB with a few thousand lines; these limits are far above that.
 */

/** Largest lyric text read from disk, accepted from a worker, or written by save-lrc: 1 MiB. */
export const MAX_LYRIC_BYTES = 1024 * 1024;

/** Most time tags one LRC line may have (`[00:01.00][00:09.00]la` repeats a line); a line with more is ignored. */
export const MAX_TIME_TAGS_PER_LINE = 64;

/** Most lines a parsed lyric has (about 5½ hours at one line every second); later lines are dropped. */
export const MAX_LYRIC_LINES = 20_000;

/**
 * Most characters of text over all parsed lines, counting a line once per time tag that repeats it;
 * reading stops there. Keeps the answer (and its JSON) within a few MB whatever the input.
 */
export const MAX_LYRIC_TEXT_CHARS = 2_000_000;

/**
 * Line times (start and end, milliseconds from the start of the track) are below 100 hours: the largest
 * written is `99:59:59.999`, the end given to a last line that has none. Anything later is no real track
 * and would be written as a time no reader takes back.
 */
export const MAX_LYRIC_TIME_MS = 100 * 3_600_000;

/** The size of a lyric in `megabytes` for messages: `1 MB`. */
export const lyricLimitText = (bytes = MAX_LYRIC_BYTES): string => `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;

/**
 * Collects parsed lines up to {@link MAX_LYRIC_LINES} and {@link MAX_LYRIC_TEXT_CHARS}. `add` returns
 * false once the budget is spent: the parser stops reading.
 */
export class LineBudget {
  private lines = 0;
  private chars = 0;

  get full(): boolean {
    return this.lines >= MAX_LYRIC_LINES || this.chars >= MAX_LYRIC_TEXT_CHARS;
  }

  /** Takes one line of `textLength` characters; false (not taken) when it does not fit. */
  take(textLength: number): boolean {
    if (this.lines >= MAX_LYRIC_LINES || this.chars + textLength > MAX_LYRIC_TEXT_CHARS) {
      this.chars = MAX_LYRIC_TEXT_CHARS;
      return false;
    }
    this.lines++;
    this.chars += textLength;
    return true;
  }
}
