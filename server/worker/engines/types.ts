import type { TimedText } from '../lrc.js';

/** A speech-to-text engine: one audio file in, timed lines (seconds from the file's start) out. */
export interface TranscriptionEngine {
  readonly name: string;
  transcribe(file: string, opts: { prompt?: string }, signal: AbortSignal): Promise<TimedText[]>;
}
