import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { ffprobePath } from '../../media/probe.js';
import { StoppedError, TaskFailedError } from '../errors.js';
import { PCM_RATE } from './wav.js';

/** Analysis frames of 20 ms. */
export const FRAME_SAMPLES = PCM_RATE / 50;
export const FRAME_SECONDS = FRAME_SAMPLES / PCM_RATE;

export interface DecodedAudio {
  samples: number;
  /** Mean square (0..1) of each 20 ms frame. */
  energies: Float32Array;
}

const HEX = new Int8Array(128).fill(-1);
for (let i = 0; i < 10; i++) HEX[48 + i] = i;
for (let i = 0; i < 6; i++) {
  HEX[97 + i] = 10 + i;
  HEX[65 + i] = 10 + i;
}

/**
 * Bytes of one line of ffprobe's `-show_data` hex dump (`00000010: 0c0f 210f ...  ascii`) appended to
 * `out` at `at`; returns the new end. Lines that are not dump lines add nothing.
 */
export function hexDumpLine(line: string, out: Buffer, at: number): number {
  if (line.length < 12 || line.charCodeAt(8) !== 58 /* : */) return at;
  let pos = at;
  const end = Math.min(line.length, 49);
  let i = 10;
  while (i + 1 < end) {
    const c = line.charCodeAt(i);
    if (c === 32) {
      if (line.charCodeAt(i + 1) === 32) break; // two spaces: the ASCII column follows
      i++;
      continue;
    }
    const hi = HEX[c] ?? -1;
    const lo = HEX[line.charCodeAt(i + 1)] ?? -1;
    if (hi < 0 || lo < 0) break;
    out[pos++] = (hi << 4) | lo;
    i += 2;
  }
  return pos;
}

/**
 * Decode any audio ffprobe can read to 16 kHz mono s16le PCM in `rawFile`, measuring the loudness of
 * every 20 ms frame on the way. ffmpeg is not needed: ffprobe's lavfi input runs the decoder and
 * `-show_data` prints the decoded samples, which are parsed back from the hex dump.
 */
export function decodeToPcm(file: string, rawFile: string, signal: AbortSignal, onProgress?: (seconds: number) => void): Promise<DecodedAudio> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new StoppedError());
    // The file name goes into a filtergraph: run in its folder and pass a plain base name.
    const base = path.basename(file);
    if (!/^[\w.-]+$/.test(base)) return reject(new TaskFailedError(`cannot decode "${base}": unexpected characters in the file name`));
    const graph = `amovie=${base},aresample=${PCM_RATE},aformat=sample_fmts=s16:channel_layouts=mono`;
    const child = spawn(ffprobePath(), ['-v', 'error', '-f', 'lavfi', '-i', graph, '-show_entries', 'packet=data', '-show_data', '-of', 'default=noprint_wrappers=1'], {
      cwd: path.dirname(file),
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const out = createWriteStream(rawFile);
    const energies: number[] = [];
    let frameSum = 0;
    let frameFill = 0;
    let samples = 0;
    let carry = '';
    let odd = -1; // a byte left over when a sample straddles two lines (never, in practice)
    let stderr = '';
    let lastProgress = 0;
    let failed = false;

    const onAbort = () => child.kill('SIGKILL');
    signal.addEventListener('abort', onAbort, { once: true });

    const fail = (err: Error) => {
      if (failed) return;
      failed = true;
      child.kill('SIGKILL');
      out.destroy();
      signal.removeEventListener('abort', onAbort);
      reject(err);
    };

    const consume = (text: string) => {
      const lines = text.split('\n');
      const buf = Buffer.allocUnsafe(lines.length * 16 + 1);
      let n = 0;
      if (odd >= 0) {
        buf[n++] = odd;
        odd = -1;
      }
      for (const line of lines) n = hexDumpLine(line, buf, n);
      if (n % 2 === 1) odd = buf[--n];
      for (let i = 0; i < n; i += 2) {
        const s = buf.readInt16LE(i) / 32768;
        frameSum += s * s;
        if (++frameFill === FRAME_SAMPLES) {
          energies.push(frameSum / FRAME_SAMPLES);
          frameSum = 0;
          frameFill = 0;
        }
      }
      samples += n / 2;
      if (n && !out.write(buf.subarray(0, n))) {
        child.stdout.pause();
        out.once('drain', () => child.stdout.resume());
      }
      if (onProgress && samples - lastProgress >= PCM_RATE * 60) {
        lastProgress = samples;
        onProgress(samples / PCM_RATE);
      }
    };

    child.stdout.setEncoding('latin1');
    child.stdout.on('data', (chunk: string) => {
      const text = carry + chunk;
      const cut = text.lastIndexOf('\n');
      if (cut < 0) {
        carry = text;
        return;
      }
      carry = text.slice(cut + 1);
      consume(text.slice(0, cut));
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (d: string) => {
      if (stderr.length < 4000) stderr += d;
    });
    child.on('error', (err) => fail(new TaskFailedError(`cannot run ffprobe: ${err.message}`)));
    child.on('close', (code) => {
      if (failed) return;
      signal.removeEventListener('abort', onAbort);
      if (signal.aborted) return fail(new StoppedError());
      if (carry) consume(carry);
      if (frameFill > 0) energies.push(frameSum / frameFill);
      if (code !== 0 || samples === 0) {
        const why = stderr.trim().split('\n').pop() || `ffprobe exited with ${code}`;
        return fail(new TaskFailedError(`cannot decode the audio: ${why}`));
      }
      out.end(() => resolve({ samples, energies: Float32Array.from(energies) }));
    });
  });
}
