import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { probeDuration } from '../../media/probe.js';
import { TaskFailedError } from '../errors.js';
import { decodeToPcm, FRAME_SECONDS } from './decode.js';
import { planChunks, type ChunkSpan } from './split-plan.js';
import { PCM_BYTES_PER_SAMPLE, PCM_RATE, WAV_HEADER_BYTES, writeWavSlice } from './wav.js';

export interface SplitLimits {
  /** Largest upload the transcription service accepts (OpenAI: 25 MB). */
  maxUploadBytes: number;
  /** Longest audio sent in one request. */
  maxChunkSeconds: number;
  /** Always send 16 kHz mono WAV (services that only read WAV, e.g. whisper.cpp's server without --convert). */
  alwaysWav: boolean;
}

/** One upload: a file and where it starts in the track (seconds). */
export interface AudioChunk {
  file: string;
  offset: number;
  duration: number | null;
}

/** Shortest chunk limit that makes sense: below this the limits are misconfigured. */
const MIN_CHUNK_SECONDS = 10;

/** Chunk limit in seconds for 16 kHz mono 16-bit WAV under the given limits. */
export function wavChunkSeconds(limits: SplitLimits): number {
  return Math.min(limits.maxChunkSeconds, (limits.maxUploadBytes - WAV_HEADER_BYTES) / (PCM_RATE * PCM_BYTES_PER_SAMPLE));
}

/** A stable description of a chunk plan (a resumed task reuses finished chunks only if the plan is the same). */
export const planKey = (chunks: readonly AudioChunk[]): string => chunks.map((c) => `${c.offset.toFixed(2)}:${c.duration === null ? '?' : c.duration.toFixed(2)}`).join(',');

/**
 * Turn the downloaded track into uploads. A file within both limits is sent as it is (unless
 * `alwaysWav`). Anything longer or larger is decoded with ffprobe to 16 kHz mono PCM, cut in the
 * quietest moments into chunks that fit both limits, and sent as WAV chunks.
 */
export async function prepareAudio(file: string, workDir: string, limits: SplitLimits, signal: AbortSignal, onStatus: (text: string) => Promise<void>): Promise<AudioChunk[]> {
  const size = (await stat(file)).size;
  const { duration } = await probeDuration(file, signal, size);
  const fits = size <= limits.maxUploadBytes && (duration === null || duration <= limits.maxChunkSeconds);
  if (fits && !limits.alwaysWav) return [{ file, offset: 0, duration }];

  const maxSeconds = wavChunkSeconds(limits);
  if (maxSeconds < MIN_CHUNK_SECONDS) {
    throw new TaskFailedError(`chunk limits too small: ${Math.floor(maxSeconds)} s of 16 kHz WAV per upload (raise --max-upload-mb / --max-chunk-minutes)`);
  }
  await onStatus('decoding audio');
  const raw = path.join(workDir, 'decoded.pcm');
  const decoded = await decodeToPcm(file, raw, signal, (s) => void onStatus(`decoding audio ${Math.floor(s / 60)} min`).catch(() => undefined));
  try {
    const spans: ChunkSpan[] = planChunks(decoded.energies, FRAME_SECONDS, maxSeconds);
    const chunks: AudioChunk[] = [];
    for (const [i, span] of spans.entries()) {
      const from = Math.round(span.start * PCM_RATE);
      const to = Math.min(decoded.samples, Math.round(span.end * PCM_RATE));
      const out = path.join(workDir, `chunk-${String(i).padStart(3, '0')}.wav`);
      await writeWavSlice(raw, from, to, out);
      chunks.push({ file: out, offset: from / PCM_RATE, duration: (to - from) / PCM_RATE });
    }
    return chunks;
  } finally {
    await rm(raw, { force: true });
  }
}
