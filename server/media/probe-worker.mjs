// Worker thread of the probe pool (probe-pool.ts): reads media durations off the main thread, from the
// container header (header-duration.mjs) when it tells plainly, else with music-metadata. Reads are synchronous: this thread has nothing else to do, and each asynchronous call
// would cost a round trip through the process's shared thread pool. Plain JavaScript so that it runs as is from the source tree and from dist/.
// Messages in: { id, items: [{ file, size }] }; out: { id, results: [{ duration, via } (seconds or null) or { error }] }.
// A batch per message: one work's files travel together (each message costs a wake-up of both threads).
import { readFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { parseBuffer, parseFile } from 'music-metadata';
import { headerDuration } from './header-duration.mjs';

/** Files up to this size are read whole and parsed from memory (music-metadata's many small reads cost more). */
const BUFFER_LIMIT = 4 * 1024 * 1024;
const OPTIONS = { duration: true, skipCovers: true, skipPostHeaders: true };

const valid = (d) => typeof d === 'number' && Number.isFinite(d) && d > 0;

async function durationOf({ file, size }) {
  const fromHeader = headerDuration(file, size);
  if (fromHeader !== null) return { duration: fromHeader, via: 'header' };
  try {
    const meta = size <= BUFFER_LIMIT ? await parseBuffer(readFileSync(file), { path: file, size }, OPTIONS) : await parseFile(file, OPTIONS);
    return { duration: valid(meta.format.duration) ? meta.format.duration : null, via: 'music-metadata' };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

parentPort.on('message', async ({ id, items }) => {
  const results = [];
  for (const item of items) results.push(await durationOf(item));
  parentPort.postMessage({ id, results });
});
