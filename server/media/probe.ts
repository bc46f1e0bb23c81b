/**
 * Media durations: the container header or music-metadata first (in worker threads, see probe-pool.ts
 * and header-duration.mjs), ffprobe-static for
 * what it cannot read (video containers, broken or unusual headers). Callers bound the concurrency
 * (maxParallelism).
 */
import { execFile } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import { createRequire } from 'node:module';
import { extensionOf } from '../domain/file-kinds.js';
import { probePool, type PoolResult, type ProbeItem } from './probe-pool.js';

export interface ProbeResult {
  /** Seconds, or null when neither prober could read one. */
  duration: number | null;
  via: 'header' | 'music-metadata' | 'ffprobe' | null;
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

export function probeWithFfprobe(file: string, signal?: AbortSignal): Promise<number | null> {
  return new Promise((resolve, reject) => {
    execFile(
      ffprobePath(),
      ['-v', 'error', '-show_entries', 'format=duration', '-of', 'default=noprint_wrappers=1:nokey=1', '--', file],
      { timeout: FFPROBE_TIMEOUT_MS, signal, maxBuffer: 64 * 1024, windowsHide: true },
      (err, stdout, stderr) => {
        if (err) {
          reject(
            new Error(
              String(stderr || err.message)
                .trim()
                .split('\n')[0] || 'ffprobe failed',
            ),
          );
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
  return (await probeDurations([{ file, size: size ?? (await fsp.stat(file)).size }], signal))[0];
}

/**
 * Durations of several files (e.g. one work's new media), in order; never throws. music-metadata reads
 * the batch in one worker; what it cannot read goes to ffprobe, one file at a time.
 */
export async function probeDurations(items: ProbeItem[], signal?: AbortSignal): Promise<ProbeResult[]> {
  const viaPool = items.filter((it) => !FFPROBE_FIRST.has(extensionOf(it.file)));
  let pooled: PoolResult[];
  try {
    pooled = await probePool.durations(viaPool);
  } catch (err) {
    pooled = viaPool.map(() => ({ error: (err as Error).message }));
  }
  const fromPool = new Map(viaPool.map((it, i) => [it, pooled[i]]));
  const results: ProbeResult[] = [];
  for (const it of items) {
    const errors: string[] = [];
    const mm = fromPool.get(it);
    if (mm && 'duration' in mm && valid(mm.duration)) {
      results.push({ duration: mm.duration, via: mm.via });
      continue;
    }
    if (mm && 'error' in mm) errors.push(`music-metadata: ${mm.error}`);
    if (signal?.aborted) {
      results.push({ duration: null, via: null, error: 'aborted' });
      continue;
    }
    try {
      const d = await probeWithFfprobe(it.file, signal);
      if (d !== null) {
        results.push({ duration: d, via: 'ffprobe' });
        continue;
      }
      errors.push('ffprobe: no duration');
    } catch (err) {
      errors.push(`ffprobe: ${(err as Error).message}`);
    }
    results.push({ duration: null, via: null, error: errors.join('; ') });
  }
  return results;
}
