import { createReadStream, createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';

/** Decoded audio is kept as 16 kHz mono signed 16-bit little-endian PCM: what Whisper models work on. */
export const PCM_RATE = 16_000;
export const PCM_BYTES_PER_SAMPLE = 2;
export const WAV_HEADER_BYTES = 44;

/** The 44-byte header of a PCM WAV file holding `dataBytes` of audio. */
export function wavHeader(dataBytes: number, sampleRate = PCM_RATE, channels = 1, bitsPerSample = 16): Buffer {
  const blockAlign = (channels * bitsPerSample) / 8;
  const h = Buffer.alloc(WAV_HEADER_BYTES);
  h.write('RIFF', 0, 'ascii');
  h.writeUInt32LE(36 + dataBytes, 4);
  h.write('WAVE', 8, 'ascii');
  h.write('fmt ', 12, 'ascii');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(channels, 22);
  h.writeUInt32LE(sampleRate, 24);
  h.writeUInt32LE(sampleRate * blockAlign, 28);
  h.writeUInt16LE(blockAlign, 32);
  h.writeUInt16LE(bitsPerSample, 34);
  h.write('data', 36, 'ascii');
  h.writeUInt32LE(dataBytes, 40);
  return h;
}

/** Write samples [from, to) of a raw PCM file (16 kHz mono s16le) as a WAV file. */
export async function writeWavSlice(rawFile: string, from: number, to: number, outFile: string): Promise<void> {
  const bytes = Math.max(0, to - from) * PCM_BYTES_PER_SAMPLE;
  const out = createWriteStream(outFile);
  out.write(wavHeader(bytes));
  if (bytes === 0) {
    await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
    return;
  }
  await pipeline(createReadStream(rawFile, { start: from * PCM_BYTES_PER_SAMPLE, end: to * PCM_BYTES_PER_SAMPLE - 1 }), out);
}
