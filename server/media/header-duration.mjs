// Durations read straight from container headers, for the common audio formats of voice works: WAV
// (RIFF, RF64), FLAC, Ogg Vorbis and Opus, MP4/M4A, and MP3 with a Xing/Info/VBRI header or a constant
// bit rate. A few positional reads per file instead of a general tag parser (music-metadata builds its
// tag tables for every file, about half a millisecond each; a first scan of a large library reads
// hundreds of thousands of files). Anything unusual answers null, and the caller asks music-metadata,
// then ffprobe. Plain JavaScript so the probe worker (probe-worker.mjs) runs it as is from the source
// tree and from dist/; types in header-duration.d.mts.
import { closeSync, openSync, readSync } from 'node:fs';

/** Bytes read from the start of a file: ID3v2 tags before an MP3's first frame are usually smaller. */
const HEAD_BYTES = 64 * 1024;
/** Bytes read from the end of an Ogg file to find its last page (pages are at most 65,307 bytes). */
const OGG_TAIL_BYTES = 128 * 1024;

/** Positional reads of one open file (short at the end of the file). */
class FileReader {
  constructor(fd, size) {
    this.fd = fd;
    this.size = size;
  }
  /** `into`: a buffer to read into (its start is returned) instead of a new one. */
  read(pos, len, into) {
    const n = Math.max(0, Math.min(len, this.size - pos, into ? into.length : Infinity));
    const buf = into ?? Buffer.allocUnsafe(n);
    let got = 0;
    while (got < n) {
      const r = readSync(this.fd, buf, got, n - got, pos + got);
      if (r === 0) break;
      got += r;
    }
    return got === buf.length ? buf : buf.subarray(0, got);
  }
}

/** Reads from a buffer that holds the whole file (tests, and callers that have the bytes). */
class BufferReader {
  constructor(buf) {
    this.buf = buf;
    this.size = buf.length;
  }
  read(pos, len) {
    return this.buf.subarray(pos, Math.min(this.size, pos + len));
  }
}

const valid = (d) => typeof d === 'number' && Number.isFinite(d) && d > 0;

/**
 * Duration in seconds of the media file `file` (`size` bytes), or null when its header does not tell
 * it plainly. Never throws (unreadable files answer null: the fallback reports the error).
 */
export function headerDuration(file, size) {
  let fd;
  try {
    fd = openSync(file, 'r');
    const d = durationFrom(new FileReader(fd, size));
    return valid(d) ? d : null;
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The same from a buffer holding a whole file. */
export function headerDurationOfBuffer(buf) {
  try {
    const d = durationFrom(new BufferReader(buf));
    return valid(d) ? d : null;
  } catch {
    return null;
  }
}

/** The head of the file being read (one file at a time per thread: reads are synchronous). */
const headBuffer = Buffer.allocUnsafe(HEAD_BYTES);

function durationFrom(r) {
  const head = r.read(0, HEAD_BYTES, headBuffer);
  if (head.length < 12) return null;
  const magic = head.toString('latin1', 0, 4);
  if ((magic === 'RIFF' || magic === 'RF64') && head.toString('latin1', 8, 12) === 'WAVE') return wavDuration(r, magic === 'RF64');
  if (magic === 'OggS') return oggDuration(r, head);
  if (head.toString('latin1', 4, 8) === 'ftyp') return mp4Duration(r);
  const start = id3v2End(r, head);
  if (start === null || start >= r.size) return null;
  // what follows the tags (often past the head: tags carry cover pictures of hundreds of kilobytes)
  const inHead = head.length - start >= Math.min(HEAD_BYTES / 2, r.size - start);
  const audio = inHead ? head.subarray(start) : r.read(start, HEAD_BYTES);
  if (audio.length >= 4 && audio.toString('latin1', 0, 4) === 'fLaC') return flacDuration(r, start);
  return mp3Duration(r, audio, start);
}

// ---------------------------------------------------------------- WAV

/** PCM, IEEE float, A-law, µ-law and WAVE_FORMAT_EXTENSIBLE: a fixed number of bytes per sample frame. */
const PCM_LIKE = new Set([0x0001, 0x0003, 0x0006, 0x0007, 0xfffe]);

function wavDuration(r, rf64) {
  let pos = 12;
  let fmt = null;
  let ds64Data = null;
  // a bounded number of chunks: a corrupt size cannot make this loop long
  for (let i = 0; i < 64 && pos + 8 <= r.size; i++) {
    const h = r.read(pos, 8);
    if (h.length < 8) return null;
    const id = h.toString('latin1', 0, 4);
    const size = h.readUInt32LE(4);
    if (id === 'ds64') {
      const b = r.read(pos + 8, 16);
      if (b.length < 16) return null;
      ds64Data = Number(b.readBigUInt64LE(8));
    } else if (id === 'fmt ') {
      const b = r.read(pos + 8, 16);
      if (b.length < 16) return null;
      fmt = { tag: b.readUInt16LE(0), sampleRate: b.readUInt32LE(4), blockAlign: b.readUInt16LE(12) };
    } else if (id === 'data') {
      if (!fmt || !PCM_LIKE.has(fmt.tag) || !fmt.sampleRate || !fmt.blockAlign) return null;
      const available = r.size - (pos + 8);
      let bytes = rf64 && size === 0xffffffff && ds64Data !== null ? ds64Data : size;
      // a writer that never came back to fill in the size (streams, crashed recorders): up to the end
      if (bytes === 0 || bytes === 0xffffffff || bytes > available) bytes = available;
      return Math.floor(bytes / fmt.blockAlign) / fmt.sampleRate;
    }
    pos += 8 + size + (size & 1);
  }
  return null;
}

// ---------------------------------------------------------------- FLAC

function flacDuration(r, start) {
  // the first metadata block is always STREAMINFO (34 bytes)
  const b = r.read(start + 4, 4 + 34);
  if (b.length < 38 || (b[0] & 0x7f) !== 0) return null;
  const s = b.subarray(4);
  const sampleRate = (s[10] << 12) | (s[11] << 4) | (s[12] >> 4);
  const samples = (s[13] & 0x0f) * 2 ** 32 + s.readUInt32BE(14);
  if (!sampleRate || !samples) return null;
  return samples / sampleRate;
}

// ---------------------------------------------------------------- Ogg

function oggDuration(r, head) {
  if (head.length < 28) return null;
  const serial = head.readUInt32LE(14);
  const segments = head[26];
  const payload = 27 + segments;
  if (head.length < payload + 19) return null;
  let rate;
  let preSkip = 0;
  if (head[payload] === 1 && head.toString('latin1', payload + 1, payload + 7) === 'vorbis') {
    rate = head.readUInt32LE(payload + 12);
  } else if (head.toString('latin1', payload, payload + 8) === 'OpusHead') {
    rate = 48000; // Opus granule positions always count 48 kHz samples
    preSkip = head.readUInt16LE(payload + 10);
  } else {
    return null; // FLAC, Speex … in Ogg: rare, left to the general parser
  }
  if (!rate) return null;
  const granule = lastGranule(r, serial);
  if (granule === null || granule <= preSkip) return null;
  return (granule - preSkip) / rate;
}

/** The granule position of the last page of the logical stream `serial`, from the file's tail. */
function lastGranule(r, serial) {
  const from = Math.max(0, r.size - OGG_TAIL_BYTES);
  const tail = r.read(from, r.size - from);
  for (let i = tail.lastIndexOf('OggS'); i >= 0; i = i > 0 ? tail.lastIndexOf('OggS', i - 1) : -1) {
    if (i + 27 > tail.length || tail[i + 4] !== 0) continue;
    const lo = tail.readUInt32LE(i + 6);
    const hi = tail.readUInt32LE(i + 10);
    if (lo === 0xffffffff && hi === 0xffffffff) continue; // no packet ends on this page
    // another logical stream at the end (a chained file): leave it to the general parser
    if (tail.readUInt32LE(i + 14) !== serial) return null;
    return hi * 2 ** 32 + lo;
  }
  return null;
}

// ---------------------------------------------------------------- MP4 / M4A

/** mvhd of the file's moov box: the presentation's duration (edit lists applied by the writer). */
function mp4Duration(r) {
  const moov = findBox(r, 0, r.size, 'moov');
  if (!moov) return null;
  const mvhd = findBox(r, moov.body, moov.end, 'mvhd');
  if (!mvhd) return null;
  const b = r.read(mvhd.body, 32);
  if (b.length < 24) return null;
  let timescale;
  let duration;
  if (b[0] === 1) {
    if (b.length < 32) return null;
    timescale = b.readUInt32BE(20);
    const hi = b.readUInt32BE(24);
    const lo = b.readUInt32BE(28);
    if (hi === 0xffffffff && lo === 0xffffffff) return null;
    duration = hi * 2 ** 32 + lo;
  } else {
    timescale = b.readUInt32BE(12);
    duration = b.readUInt32BE(16);
    if (duration === 0xffffffff) return null;
  }
  // fragmented files have an empty mvhd duration: the general parser adds up their fragments
  if (!timescale || !duration) return null;
  return duration / timescale;
}

/** The first box of `type` among the boxes between `from` and `to`. */
function findBox(r, from, to, type) {
  let pos = from;
  for (let i = 0; i < 1024 && pos + 8 <= to; i++) {
    const h = r.read(pos, 16);
    if (h.length < 8) return null;
    let size = h.readUInt32BE(0);
    let header = 8;
    if (size === 1) {
      if (h.length < 16) return null;
      size = h.readUInt32BE(8) * 2 ** 32 + h.readUInt32BE(12);
      header = 16;
    } else if (size === 0) {
      size = to - pos;
    }
    if (size < header) return null;
    if (h.toString('latin1', 4, 8) === type) return { body: pos + header, end: Math.min(to, pos + size) };
    pos += size;
  }
  return null;
}

// ---------------------------------------------------------------- MP3

/** Where the audio starts after any ID3v2 tags at the start (null: a broken tag header). */
function id3v2End(r, head) {
  let pos = 0;
  for (let i = 0; i < 16; i++) {
    const h = pos + 10 <= head.length ? head.subarray(pos, pos + 10) : r.read(pos, 10);
    if (h.length < 10 || h.toString('latin1', 0, 3) !== 'ID3') return pos;
    if ((h[6] | h[7] | h[8] | h[9]) & 0x80) return null;
    const size = (h[6] << 21) | (h[7] << 14) | (h[8] << 7) | h[9];
    const footer = h[5] & 0x10 ? 10 : 0;
    pos += 10 + size + footer;
  }
  return null;
}

const BITRATES = {
  // [MPEG-1, MPEG-2/2.5] × layer I, II, III (kbit/s by index)
  1: [
    [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
    [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
    [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  ],
  2: [
    [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
    [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
    [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  ],
};
const SAMPLE_RATES = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] };

/** An MPEG audio frame header at `pos` of `b`, or null. */
function frameHeader(b, pos) {
  if (pos + 4 > b.length || b[pos] !== 0xff || (b[pos + 1] & 0xe0) !== 0xe0) return null;
  const version = (b[pos + 1] >> 3) & 3; // 3: MPEG-1, 2: MPEG-2, 0: MPEG-2.5
  const layerBits = (b[pos + 1] >> 1) & 3; // 3: I, 2: II, 1: III
  const rateIndex = b[pos + 2] >> 4;
  const srIndex = (b[pos + 2] >> 2) & 3;
  if (version === 1 || layerBits === 0 || rateIndex === 0 || rateIndex === 15 || srIndex === 3) return null;
  const layer = 4 - layerBits;
  const kbps = BITRATES[version === 3 ? 1 : 2][layer - 1][rateIndex];
  const sampleRate = SAMPLE_RATES[version][srIndex];
  const padding = (b[pos + 2] >> 1) & 1;
  const mono = b[pos + 3] >> 6 === 3;
  const samples = layer === 1 ? 384 : layer === 2 || version === 3 ? 1152 : 576;
  const length = layer === 1 ? (Math.floor((12 * kbps * 1000) / sampleRate) + padding) * 4 : Math.floor(((samples / 8) * kbps * 1000) / sampleRate) + padding;
  return { version, layer, kbps, sampleRate, mono, samples, length };
}

/** Same stream: same version, layer and sample rate. */
const sameStream = (a, b) => a.version === b.version && a.layer === b.layer && a.sampleRate === b.sampleRate;

/** `audio`: the bytes from `base` on (the end of any ID3v2 tags). */
function mp3Duration(r, audio, base) {
  // the first frame: a header followed by another header of the same stream (a lone 0xFFE sync
  // inside junk or a tag is not a frame)
  let pos = -1;
  let first = null;
  for (let p = 0; p + 4 <= audio.length && p < 16 * 1024; p++) {
    const h = frameHeader(audio, p);
    if (!h) continue;
    const next = frameHeader(audio, p + h.length);
    if (next && sameStream(h, next)) {
      pos = p;
      first = h;
      break;
    }
  }
  if (!first) return null;
  // Xing / Info (layer III) or VBRI: the number of frames
  if (first.layer === 3) {
    const side = first.version === 3 ? (first.mono ? 17 : 32) : first.mono ? 9 : 17;
    const x = pos + 4 + side;
    const tag = audio.toString('latin1', x, x + 4);
    if ((tag === 'Xing' || tag === 'Info') && x + 12 <= audio.length) {
      const flags = audio.readUInt32BE(x + 4);
      if (flags & 1) {
        const frames = audio.readUInt32BE(x + 8);
        return frames ? (frames * first.samples) / first.sampleRate : null;
      }
    }
    const v = pos + 4 + 32;
    if (audio.toString('latin1', v, v + 4) === 'VBRI' && v + 18 <= audio.length) {
      const frames = audio.readUInt32BE(v + 14);
      return frames ? (frames * first.samples) / first.sampleRate : null;
    }
  }
  // no frame count: a constant bit rate if the frames read all share the first one's
  let p = pos;
  for (let i = 0; i < 32 && p < audio.length; i++) {
    const h = frameHeader(audio, p);
    if (!h) {
      if (p + 4 <= audio.length) return null; // lost sync early on: let the general parser walk it
      break;
    }
    if (!sameStream(h, first) || h.kbps !== first.kbps) return null; // variable bit rate
    p += h.length;
  }
  // tags after the audio: ID3v1 (128 bytes), and an APEv2 tag before it or at the very end
  let end = r.size;
  const tail = r.read(Math.max(0, r.size - 160), 160);
  if (tail.length === 160 && tail.toString('latin1', 32, 35) === 'TAG') end -= 128;
  const ape = r.read(Math.max(0, end - 32), 32);
  if (ape.length === 32 && ape.toString('latin1', 0, 8) === 'APETAGEX') {
    const hasHeader = (ape.readUInt32LE(20) & 0x80000000) !== 0;
    end -= ape.readUInt32LE(12) + (hasHeader ? 32 : 0);
  }
  if (end <= base + pos) return null;
  return ((end - base - pos) * 8) / (first.kbps * 1000);
}
