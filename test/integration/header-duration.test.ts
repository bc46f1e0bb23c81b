/**
 * Durations read from container headers (server/media/header-duration.mjs), checked against the
 * bundled ffprobe on the committed fixtures and on files built here byte by byte (WAV variants, CBR
 * and VBR MP3 without a Xing header, FLAC behind an ID3 tag, MP4 with its moov first or last), and
 * the cases it must leave to the general parsers (null).
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { headerDuration, headerDurationOfBuffer } from '../../server/media/header-duration.mjs';
import { probeDuration, probeWithFfprobe } from '../../server/media/probe.js';
import { FIXTURE_DIR } from '../../scripts/gen-library.js';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'kikoplay-header-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const fixture = (name: string) => path.join(FIXTURE_DIR, name);
const write = (name: string, bytes: Buffer) => {
  const file = path.join(tmp, name);
  writeFileSync(file, bytes);
  return file;
};
const fromFile = (file: string) => headerDuration(file, statSync(file).size);

/** A RIFF/WAVE file: `chunks` between fmt and data, `dataSize` written into the data header. */
function wav(opts: { tag?: number; rate: number; channels: number; bits: number; frames: number; extra?: Buffer; dataSize?: number }): Buffer {
  const blockAlign = (opts.channels * opts.bits) / 8;
  const fmt = Buffer.alloc(8 + 16);
  fmt.write('fmt ', 0, 'latin1');
  fmt.writeUInt32LE(16, 4);
  fmt.writeUInt16LE(opts.tag ?? 1, 8);
  fmt.writeUInt16LE(opts.channels, 10);
  fmt.writeUInt32LE(opts.rate, 12);
  fmt.writeUInt32LE(opts.rate * blockAlign, 16);
  fmt.writeUInt16LE(blockAlign, 20);
  fmt.writeUInt16LE(opts.bits, 22);
  const samples = Buffer.alloc(opts.frames * blockAlign, opts.bits === 8 ? 0x80 : 0);
  const data = Buffer.alloc(8);
  data.write('data', 0, 'latin1');
  data.writeUInt32LE(opts.dataSize ?? samples.length, 4);
  const body = Buffer.concat([Buffer.from('WAVE', 'latin1'), fmt, opts.extra ?? Buffer.alloc(0), data, samples]);
  const riff = Buffer.alloc(8);
  riff.write('RIFF', 0, 'latin1');
  riff.writeUInt32LE(body.length, 4);
  return Buffer.concat([riff, body]);
}

/** A chunk with an odd-sized body (padded to even, as RIFF requires). */
function oddChunk(id: string, size: number): Buffer {
  const b = Buffer.alloc(8 + size + (size & 1));
  b.write(id, 0, 'latin1');
  b.writeUInt32LE(size, 4);
  return b;
}

/** MPEG-1 layer III frames of silence (44.1 kHz stereo) at the given bit rates (kbit/s). */
function mp3Frames(kbps: number[]): Buffer {
  const index: Record<number, number> = { 64: 5, 128: 9, 160: 10 };
  return Buffer.concat(
    kbps.map((k) => {
      const frame = Buffer.alloc(Math.floor((144 * k * 1000) / 44100));
      frame[0] = 0xff;
      frame[1] = 0xfb; // MPEG-1, layer III, no CRC
      frame[2] = (index[k] << 4) | (0 << 2); // 44.1 kHz, no padding
      frame[3] = 0x00; // stereo
      return frame;
    }),
  );
}

/** An ID3v2.4 tag with one text frame, `size` bytes of body. */
function id3v2(size: number): Buffer {
  const tag = Buffer.alloc(10 + size);
  tag.write('ID3', 0, 'latin1');
  tag[3] = 4;
  tag[6] = (size >> 21) & 0x7f;
  tag[7] = (size >> 14) & 0x7f;
  tag[8] = (size >> 7) & 0x7f;
  tag[9] = size & 0x7f;
  tag.write('TSSE', 10, 'latin1');
  return tag;
}

describe('durations from container headers', () => {
  it('reads every committed audio fixture within 0.1 s of ffprobe, and leaves video and unreadable files to the general parsers', async () => {
    const audio = ['tone-2s.mp3', 'tone-1.5s.flac', 'tone-3s.m4a', 'tone-1s.wav', 'tone-2.5s.ogg', 'tone-2s.opus', 'tiny-video.mp4'];
    for (const name of audio) {
      const d = fromFile(fixture(name));
      const reference = await probeWithFfprobe(fixture(name));
      expect(d, name).not.toBeNull();
      expect(Math.abs(d! - reference!), name).toBeLessThan(0.1);
      // the same from a buffer
      expect(headerDurationOfBuffer(readFileSync(fixture(name))), name).toBe(d);
    }
    // WebM (Matroska) is not read here; a text file named .mp3 has no frames
    expect(fromFile(fixture('tone-1s.webm'))).toBeNull();
    expect(fromFile(fixture('broken.mp3'))).toBeNull();
    expect(headerDuration(path.join(tmp, 'no-such-file.wav'), 100)).toBeNull();
    expect(headerDurationOfBuffer(Buffer.alloc(0))).toBeNull();
  });

  it('reads WAV files with chunks before the data, odd chunk sizes, a data size never filled in, and extensible format', async () => {
    const cases = [
      { name: 'plain.wav', bytes: wav({ rate: 8000, channels: 1, bits: 8, frames: 18_000 }), seconds: 2.25 },
      { name: 'list.wav', bytes: wav({ rate: 22050, channels: 2, bits: 16, frames: 33_075, extra: Buffer.concat([oddChunk('LIST', 27), oddChunk('junk', 3)]) }), seconds: 1.5 },
      { name: 'streamed.wav', bytes: wav({ rate: 8000, channels: 1, bits: 16, frames: 12_000, dataSize: 0xffffffff }), seconds: 1.5 },
      { name: 'extensible.wav', bytes: wav({ tag: 0xfffe, rate: 16000, channels: 2, bits: 16, frames: 40_000 }), seconds: 2.5 },
    ];
    for (const c of cases) {
      const file = write(c.name, c.bytes);
      expect(fromFile(file), c.name).toBeCloseTo(c.seconds, 6);
      const reference = await probeWithFfprobe(file);
      expect(Math.abs(fromFile(file)! - reference!), c.name).toBeLessThan(0.1);
    }
    // a truncated file: the data that is there
    const cut = write('cut.wav', wav({ rate: 8000, channels: 1, bits: 8, frames: 16_000 }).subarray(0, 44 + 4000));
    expect(fromFile(cut)).toBeCloseTo(0.5, 6);
    // compressed WAV (IMA ADPCM): no fixed frame size, left to the general parsers
    expect(fromFile(write('adpcm.wav', wav({ tag: 0x11, rate: 8000, channels: 1, bits: 8, frames: 800 })))).toBeNull();
  });

  it('estimates constant-bit-rate MP3 without a Xing header as ffprobe does, past ID3v2 and ID3v1 tags, and leaves variable bit rates alone', async () => {
    const id3v1 = Buffer.alloc(128);
    id3v1.write('TAG', 0, 'latin1');
    const cbr = write('cbr.mp3', Buffer.concat([id3v2(300), mp3Frames(Array(200).fill(128)), id3v1]));
    const d = fromFile(cbr);
    // 200 frames × 1152 samples at 44.1 kHz
    expect(d).toBeCloseTo((200 * 1152) / 44100, 1);
    expect(Math.abs(d! - (await probeWithFfprobe(cbr))!)).toBeLessThan(0.1);

    // an APEv2 tag (header, 2 kB of items, footer) before the ID3v1 tag: not audio either
    const apeFooter = (flags: number) => {
      const b = Buffer.alloc(32);
      b.write('APETAGEX', 0, 'latin1');
      b.writeUInt32LE(2000, 8);
      b.writeUInt32LE(2048 + 32, 12); // items + footer
      b.writeUInt32LE(1, 16);
      b.writeUInt32LE(flags >>> 0, 20);
      return b;
    };
    const apeTag = Buffer.concat([apeFooter(0xa0000000), Buffer.alloc(2048, 0x41), apeFooter(0x80000000)]);
    const withApe = write('ape.mp3', Buffer.concat([mp3Frames(Array(200).fill(128)), apeTag, id3v1]));
    expect(fromFile(withApe)).toBeCloseTo(d!, 6);

    // a tag holding a cover picture far larger than the first read
    const bigTag = write('big-tag.mp3', Buffer.concat([id3v2(300_000), mp3Frames(Array(100).fill(160))]));
    expect(fromFile(bigTag)).toBeCloseTo((100 * 1152) / 44100, 1);
    expect(Math.abs(fromFile(bigTag)! - (await probeWithFfprobe(bigTag))!)).toBeLessThan(0.1);

    const vbr = write('vbr.mp3', mp3Frames([128, 160, 64, 128, 160, 64, 128, 160].flatMap((k) => Array(20).fill(k))));
    expect(fromFile(vbr)).toBeNull();
    // music-metadata then walks the frames (160 × 1152 samples at 44.1 kHz; it skips a few at the start)
    const probed = await probeDuration(vbr);
    expect(probed.via).toBe('music-metadata');
    expect(Math.abs(probed.duration! - (160 * 1152) / 44100)).toBeLessThan(0.2);
  });

  it('reads FLAC behind an ID3v2 tag, and refuses a stream info without a sample count', () => {
    const flac = readFileSync(fixture('tone-1.5s.flac'));
    expect(headerDurationOfBuffer(Buffer.concat([id3v2(200), flac]))).toBeCloseTo(1.5, 6);
    const unknownLength = Buffer.from(flac);
    // STREAMINFO's 36-bit total sample count: bytes 21 (low nibble) to 25 of the file
    unknownLength[21] &= 0xf0;
    unknownLength.fill(0, 22, 26);
    expect(headerDurationOfBuffer(unknownLength)).toBeNull();
  });

  it('reads MP4 with its moov box before or after the media data, and refuses an empty (fragmented) duration', () => {
    const m4a = readFileSync(fixture('tone-3s.m4a'));
    const boxes: { type: string; bytes: Buffer }[] = [];
    for (let pos = 0; pos < m4a.length;) {
      const size = m4a.readUInt32BE(pos);
      boxes.push({ type: m4a.toString('latin1', pos + 4, pos + 8), bytes: m4a.subarray(pos, pos + size) });
      pos += size;
    }
    expect(boxes.map((b) => b.type)).toEqual(['ftyp', 'free', 'mdat', 'moov']);
    const last = headerDurationOfBuffer(m4a);
    const moovFirst = Buffer.concat([boxes[0].bytes, boxes[3].bytes, boxes[1].bytes, boxes[2].bytes]);
    expect(headerDurationOfBuffer(moovFirst)).toBe(last);
    expect(last).toBeCloseTo(3, 1);

    const fragmented = Buffer.from(m4a);
    const mvhd = fragmented.indexOf('mvhd', 0, 'latin1');
    expect(fragmented[mvhd + 4]).toBe(0); // version 0: duration at +16 after the box type
    fragmented.writeUInt32BE(0, mvhd + 4 + 16);
    expect(headerDurationOfBuffer(fragmented)).toBeNull();
  });

  it('finds the last Ogg page of the stream, and refuses a file whose last page belongs to another stream', () => {
    const ogg = readFileSync(fixture('tone-2.5s.ogg'));
    expect(headerDurationOfBuffer(ogg)).toBeCloseTo(2.5, 2);
    const opus = readFileSync(fixture('tone-2s.opus'));
    // a chained file: the Opus stream (another serial number) after the Vorbis one
    expect(headerDurationOfBuffer(Buffer.concat([ogg, opus]))).toBeNull();
  });
});
