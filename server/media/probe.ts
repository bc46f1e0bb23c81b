/**
 * Media durations: music-metadata first (in-process, fast), ffprobe-static for what it cannot read
 * (video containers, broken or unusual headers). Callers bound the concurrency (maxParallelism).
 */
import { execFile } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import { parseBuffer, parseFile } from 'music-metadata';
import { createRequire } from 'node:module';
import { extOf } from '../library/file-class.js';

export interface ProbeResult {
  /** Seconds, or null when neither prober could read one. */
  duration: number | null;
  via: 'music-metadata' | 'ffprobe' | null;
  error?: string;
}

/** Containers music-metadata reads without applying edit lists / video timing: ask ffprobe directly. */
const FFPROBE_FIRST = new Set(['.mp4', '.webm']);

const FFPROBE_TIMEOUT_MS = 60_000;

const require = createRequire(import.meta.url);

/** The bundled ffprobe binary (ffprobe-static ships no type declarations). */
export function ffprobePath(): string {
  return (require('ffprobe-static') as { path: string }).path;
}

const valid = (d: unknown): d is number => typeof d === 'number' && Number.isFinite(d) && d > 0;

/** Files up to this size are read whole and parsed from memory (music-metadata's many small reads cost more). */
const BUFFER_LIMIT = 4 * 1024 * 1024;

export async function probeWithMusicMetadata(file: string, size?: number): Promise<number | null> {
  const opts = { duration: true, skipCovers: true, skipPostHeaders: true };
  const bytes = size ?? (await fsp.stat(file)).size;
  const meta = bytes <= BUFFER_LIMIT ? await parseBuffer(await fsp.readFile(file), { path: file, size: bytes }, opts) : await parseFile(file, opts);
  return valid(meta.format.duration) ? meta.format.duration : null;
}

export function probeWithFfprobe(file: string, signal?: AbortSignal): Promise<number | null> {
  return new Promise((resolve, reject) => {
    execFile(
      ffprobePath(),
      ['-v', 'error', '-show_entries', 'format=duration', '-of', 'default=noprint_wrappers=1:nokey=1', '--', file],
      { timeout: FFPROBE_TIMEOUT_MS, signal, maxBuffer: 64 * 1024, windowsHide: true },
      (err, stdout, stderr) => {
        if (err) {
          reject(new Error(String(stderr || err.message).trim().split('\n')[0] || 'ffprobe failed'));
          return;
        }
        const d = Number.parseFloat(String(stdout).trim());
        resolve(valid(d) ? d : null);
      },
    );
  });
}

/** The duration of a media file; never throws (errors are returned in `error`). */
export async function probeDuration(file: string, signal?: AbortSignal, size?: number): Promise<ProbeResult> {
  const errors: string[] = [];
  const ext = extOf(file);
  if (!FFPROBE_FIRST.has(ext)) {
    try {
      const d = await probeWithMusicMetadata(file, size);
      if (d !== null) return { duration: d, via: 'music-metadata' };
    } catch (err) {
      errors.push(`music-metadata: ${(err as Error).message}`);
    }
  }
  if (signal?.aborted) return { duration: null, via: null, error: 'aborted' };
  try {
    const d = await probeWithFfprobe(file, signal);
    if (d !== null) return { duration: d, via: 'ffprobe' };
    errors.push('ffprobe: no duration');
  } catch (err) {
    errors.push(`ffprobe: ${(err as Error).message}`);
  }
  return { duration: null, via: null, error: errors.join('; ') };
}
