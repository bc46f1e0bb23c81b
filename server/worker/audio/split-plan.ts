/** A chunk of the track, in seconds. */
export interface ChunkSpan {
  start: number;
  end: number;
}

/** Loudness is judged over this many seconds around a candidate cut. */
const QUIET_WINDOW_S = 0.4;
/** A chunk (other than the last) is at least this share of the maximum length. */
const MIN_SHARE = 0.5;

/**
 * Where to cut a track so each chunk is at most `maxChunkSeconds` long, cutting in the quietest stretch
 * available. `energies` holds the mean square of each analysis frame of `frameSeconds`.
 * Each cut is searched in the last half of the allowed length, at the centre of the quietest
 * {@link QUIET_WINDOW_S} window (later positions win ties, so chunks stay long).
 */
export function planChunks(energies: ArrayLike<number>, frameSeconds: number, maxChunkSeconds: number): ChunkSpan[] {
  const frames = energies.length;
  const total = frames * frameSeconds;
  if (frames === 0) return [];
  const maxFrames = Math.max(1, Math.floor(maxChunkSeconds / frameSeconds));
  if (frames <= maxFrames) return [{ start: 0, end: total }];

  const prefix = new Float64Array(frames + 1);
  for (let i = 0; i < frames; i++) prefix[i + 1] = prefix[i] + energies[i];
  const half = Math.max(0, Math.floor(QUIET_WINDOW_S / frameSeconds / 2));
  const loudnessAt = (f: number) => {
    const a = Math.max(0, f - half);
    const b = Math.min(frames, f + half + 1);
    return (prefix[b] - prefix[a]) / (b - a);
  };

  const cuts: number[] = [0];
  let start = 0;
  while (frames - start > maxFrames) {
    const from = start + Math.max(1, Math.floor(maxFrames * MIN_SHARE));
    const to = start + maxFrames;
    let best = to;
    let bestLoudness = Infinity;
    for (let f = from; f <= to; f++) {
      const l = loudnessAt(f);
      if (l <= bestLoudness) {
        bestLoudness = l;
        best = f;
      }
    }
    cuts.push(best);
    start = best;
  }
  cuts.push(frames);
  const spans: ChunkSpan[] = [];
  for (let i = 0; i + 1 < cuts.length; i++) spans.push({ start: cuts[i] * frameSeconds, end: cuts[i + 1] * frameSeconds });
  return spans;
}
