/**
 * Media durations through the probe pool (worker threads reading container headers, else running
 * music-metadata) with the ffprobe fallback, on the committed audio fixtures, compared with what the bundled ffprobe says.
 */
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { probeDuration, probeDurations, probeWithFfprobe } from '../../server/media/probe.js';
import { ProbePool } from '../../server/media/probe-pool.js';

const AUDIO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/audio');
const at = (name: string) => ({ file: path.join(AUDIO, name), size: statSync(path.join(AUDIO, name)).size });

describe('media durations', () => {
  const pool = new ProbePool(2);
  afterAll(() => pool.close());

  it('answers a batch in order, each within 0.1 s of ffprobe, falling back to ffprobe for video and failing unreadable files', async () => {
    const names = ['tone-2s.mp3', 'tone-1.5s.flac', 'tone-1s.wav', 'tone-2.5s.ogg', 'tone-2s.opus', 'tone-3s.m4a', 'tiny-video.mp4', 'broken.mp3', 'tone-1s.webm'];
    const results = await probeDurations(names.map(at));
    expect(results).toHaveLength(names.length);
    for (const [i, name] of names.entries()) {
      const r = results[i];
      if (name === 'broken.mp3') {
        expect(r.duration, name).toBeNull();
        expect(r.error, name).toMatch(/ffprobe/);
        continue;
      }
      const reference = await probeWithFfprobe(path.join(AUDIO, name));
      expect(reference, name).not.toBeNull();
      expect(Math.abs(r.duration! - reference!), name).toBeLessThan(0.1);
      expect(r.via, name).toBe(name.endsWith('.mp4') || name.endsWith('.webm') ? 'ffprobe' : 'header');
    }
  });

  it('keeps a process alive while a probe is in flight, and lets it exit right after', () => {
    // a process with nothing else to wait for (like `kikoplay worker` between requests)
    const script = `import { probeDuration } from ${JSON.stringify(path.resolve(AUDIO, '../../../server/media/probe.ts'))};
      const r = await probeDuration(${JSON.stringify(path.join(AUDIO, 'tone-1s.wav'))});
      console.log(JSON.stringify(r));`;
    const started = Date.now();
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout.trim())).toEqual({ duration: 1, via: 'header' });
    // the idle pool does not hold the process until its idle timeout (15 s)
    expect(Date.now() - started).toBeLessThan(12_000);
  });

  it('reads a single file the same way', async () => {
    const r = await probeDuration(path.join(AUDIO, 'tone-2.5s.ogg'));
    expect(r.via).toBe('header');
    expect(Math.abs(r.duration! - (await probeWithFfprobe(path.join(AUDIO, 'tone-2.5s.ogg')))!)).toBeLessThan(0.1);
  });

  it('spreads concurrent batches over its workers, reports per-file errors, and restarts after close', async () => {
    const batches = Array.from({ length: 6 }, (_, i) => [at('tone-2s.mp3'), at(i % 2 ? 'tone-3s.m4a' : 'tone-1s.wav'), { file: path.join(AUDIO, 'no-such-file.mp3'), size: 10 }]);
    const answers = await Promise.all(batches.map((b) => pool.durations(b)));
    for (const [i, a] of answers.entries()) {
      expect(a).toHaveLength(3);
      expect('duration' in a[0] && a[0].duration).toBeCloseTo(2, 0);
      expect('duration' in a[1] && a[1].duration).toBeCloseTo(i % 2 ? 3 : 1, 0);
      expect('error' in a[2] && a[2].error).toMatch(/ENOENT|no such file/i);
    }
    await pool.close();
    const after = await pool.durations([at('tone-1.5s.flac')]);
    expect('duration' in after[0] && after[0].duration).toBeCloseTo(1.5, 1);
  });
});
