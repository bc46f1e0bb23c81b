import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { planChunks } from '../../server/worker/audio/split-plan.js';
import { decodeToPcm, FRAME_SECONDS, hexDumpLine } from '../../server/worker/audio/decode.js';
import { prepareAudio, wavChunkSeconds } from '../../server/worker/audio/prepare.js';
import { wavHeader, writeWavSlice } from '../../server/worker/audio/wav.js';
import { TaskFailedError } from '../../server/worker/errors.js';
import { tempDir } from '../helpers/app.js';
import { speechLikeWav } from '../helpers/ai-library.js';
import { voicedRegions } from '../helpers/fake-openai.js';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/audio');
const never = new AbortController().signal;
const noStatus = async () => undefined;

/** Energies of 20 ms frames: loud everywhere except the given quiet stretches (seconds). */
function profile(seconds: number, quiet: [number, number][]): Float32Array {
  const frames = Math.round(seconds / FRAME_SECONDS);
  return Float32Array.from({ length: frames }, (_, f) => (quiet.some(([a, b]) => f * FRAME_SECONDS >= a && f * FRAME_SECONDS < b) ? 0.0001 : 0.05));
}

describe('planChunks', () => {
  it('keeps a short track whole and an empty one empty', () => {
    expect(planChunks(profile(50, []), FRAME_SECONDS, 60)).toEqual([{ start: 0, end: 50 }]);
    expect(planChunks(new Float32Array(0), FRAME_SECONDS, 60)).toEqual([]);
  });

  it('cuts inside the quiet stretches, within the limit, covering the whole track', () => {
    const quiet: [number, number][] = [
      [40, 41],
      [95, 96.5],
      [150, 151],
    ];
    const spans = planChunks(profile(200, quiet), FRAME_SECONDS, 60);
    expect(spans.length).toBe(4);
    expect(spans[0].start).toBe(0);
    expect(spans.at(-1)!.end).toBeCloseTo(200, 5);
    for (let i = 0; i < spans.length; i++) {
      expect(spans[i].end - spans[i].start).toBeLessThanOrEqual(60 + 1e-9);
      if (i > 0) expect(spans[i].start).toBe(spans[i - 1].end);
    }
    // every cut but the last falls in a quiet stretch
    for (const span of spans.slice(0, -1)) expect(quiet.some(([a, b]) => span.end >= a && span.end <= b)).toBe(true);
  });

  it('cuts at the limit when there is no quiet stretch at all', () => {
    const spans = planChunks(profile(130, []), FRAME_SECONDS, 60);
    expect(spans.map((s) => Math.round(s.end - s.start))).toEqual([60, 60, 10]);
  });
});

describe('decoding with ffprobe and writing WAV chunks', () => {
  it('reads hex dump lines, full and short, and ignores other lines', () => {
    const out = Buffer.alloc(32);
    let n = hexDumpLine('00000000: d001 eb02 6905 db07 cf09 9f0b 570d 890e  ....i.......W...', out, 0);
    expect(out.subarray(0, n).toString('hex')).toBe('d001eb026905db07cf099f0b570d890e');
    n = hexDumpLine('00000070: 23fc a9f9 60f7                           #...`.', out, 0);
    expect(out.subarray(0, n).toString('hex')).toBe('23fca9f960f7');
    expect(hexDumpLine('data=', out, 0)).toBe(0);
    expect(hexDumpLine('pts_time=0.025063', out, 0)).toBe(0);
  });

  it('decodes a WAV to 16 kHz mono PCM whose loud frames are where the sound is', async () => {
    const dir = tempDir();
    const file = path.join(dir, '7.wav');
    writeFileSync(file, speechLikeWav(6, [{ start: 2, end: 3 }]));
    const raw = path.join(dir, 'out.pcm');
    const decoded = await decodeToPcm(file, raw, never);
    expect(decoded.samples).toBe(6 * 16000);
    expect(readFileSync(raw).length).toBe(6 * 16000 * 2);
    expect(decoded.energies.length).toBe(300);
    const loud = [...decoded.energies].map((e, f) => (e > 0.001 ? f : -1)).filter((f) => f >= 0);
    expect(loud[0]).toBeGreaterThanOrEqual(99);
    expect(loud.at(-1)).toBeLessThanOrEqual(150);

    // a slice written as WAV holds exactly that stretch
    const chunk = path.join(dir, 'chunk.wav');
    await writeWavSlice(raw, 1.5 * 16000, 4 * 16000, chunk);
    const wav = readFileSync(chunk);
    expect(wav.subarray(0, 44)).toEqual(wavHeader(2.5 * 16000 * 2));
    const regions = voicedRegions(wav)!;
    expect(regions).toHaveLength(1);
    expect(regions[0].start).toBeCloseTo(0.5, 1);
    expect(regions[0].end).toBeCloseTo(1.5, 1);
  });

  it('decodes compressed formats too (mp3, m4a)', async () => {
    for (const name of ['tone-2s.mp3', 'tone-3s.m4a']) {
      const dir = tempDir();
      const file = path.join(dir, `1${path.extname(name)}`);
      writeFileSync(file, readFileSync(path.join(FIXTURES, name)));
      const decoded = await decodeToPcm(file, path.join(dir, 'o.pcm'), never);
      expect(decoded.samples / 16000, name).toBeGreaterThan(1.9);
      expect(decoded.samples / 16000, name).toBeLessThan(3.2);
      expect(Math.max(...decoded.energies), name).toBeGreaterThan(0.001);
    }
  });

  it('fails a task clearly on audio it cannot decode', async () => {
    const dir = tempDir();
    const file = path.join(dir, '3.mp3');
    writeFileSync(file, Buffer.from('this is not audio at all, just text pretending to be an mp3 file'.repeat(20)));
    await expect(decodeToPcm(file, path.join(dir, 'o.pcm'), never)).rejects.toBeInstanceOf(TaskFailedError);
    await expect(decodeToPcm(path.join(dir, 'bad name.mp3'), path.join(dir, 'o.pcm'), never)).rejects.toThrow(/unexpected characters/);
  });
});

describe('prepareAudio', () => {
  const workDir = () => {
    const d = path.join(tempDir(), 'work');
    mkdirSync(d);
    return d;
  };

  it('sends a file within the limits as it is', async () => {
    const dir = workDir();
    const file = path.join(dir, '5.mp3');
    writeFileSync(file, readFileSync(path.join(FIXTURES, 'tone-2s.mp3')));
    const chunks = await prepareAudio(file, dir, { maxUploadBytes: 1024 * 1024, maxChunkSeconds: 600, alwaysWav: false }, never, noStatus);
    expect(chunks).toEqual([{ file, offset: 0, duration: expect.closeTo(2.16, 1) }]);
  });

  it('converts to WAV when asked, and splits what is too long into WAV chunks that fit', async () => {
    const dir = workDir();
    const file = path.join(dir, '6.mp3');
    writeFileSync(file, readFileSync(path.join(FIXTURES, 'tone-2s.mp3')));
    const wav = await prepareAudio(file, dir, { maxUploadBytes: 1024 * 1024, maxChunkSeconds: 600, alwaysWav: true }, never, noStatus);
    expect(wav).toHaveLength(1);
    expect(wav[0].file).toMatch(/chunk-000\.wav$/);

    const long = path.join(dir, '8.wav');
    writeFileSync(
      long,
      speechLikeWav(40, [
        { start: 5, end: 6 },
        { start: 18, end: 19 },
        { start: 33, end: 34 },
      ]),
    );
    const statuses: string[] = [];
    const limits = { maxUploadBytes: 10 * 1024 * 1024, maxChunkSeconds: 15, alwaysWav: false };
    expect(wavChunkSeconds(limits)).toBe(15);
    const chunks = await prepareAudio(long, dir, limits, never, async (s) => void statuses.push(s));
    expect(statuses).toContain('decoding audio');
    expect(chunks.length).toBe(3);
    let covered = 0;
    for (const c of chunks) {
      expect(c.offset).toBeCloseTo(covered, 5);
      expect(c.duration!).toBeLessThanOrEqual(15);
      const regions = voicedRegions(readFileSync(c.file))!;
      // no utterance is cut: each voiced stretch inside a chunk lasts its full second
      for (const r of regions) expect(r.end - r.start).toBeCloseTo(1, 1);
      covered += c.duration!;
    }
    expect(covered).toBeCloseTo(40, 2);
  });

  it('refuses limits too small to be useful', async () => {
    const dir = workDir();
    const file = path.join(dir, '9.wav');
    writeFileSync(file, speechLikeWav(3, []));
    await expect(prepareAudio(file, dir, { maxUploadBytes: 100_000, maxChunkSeconds: 600, alwaysWav: true }, never, noStatus)).rejects.toThrow(/chunk limits too small/);
  });
});
