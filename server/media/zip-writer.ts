/**
 * A store-only ZIP archive written as a stream (PKWARE APPNOTE 6.3): no compression (audio and images
 * do not shrink), UTF-8 names (general purpose bit 11), sizes and CRC-32 after each file's bytes in a
 * data descriptor (bit 3) so nothing is read twice or held in memory, and ZIP64 records once a file,
 * an offset or the entry count passes what the classic fields hold. Unzip tools, the browsers' and
 * the operating systems' archive viewers all read it.
 */
import { crc32 } from 'node:zlib';

/** One file of the archive: its name ('/'-separated, no leading slash) and its bytes as they come. */
export interface ZipEntry {
  name: string;
  mtimeMs: number;
  /** The expected size (the file's stat): decides whether the entry is written in ZIP64 form. */
  size: number;
  data: AsyncIterable<Buffer>;
}

const LOCAL_SIG = 0x04034b50;
const DESCRIPTOR_SIG = 0x08074b50;
const CENTRAL_SIG = 0x02014b50;
const END_SIG = 0x06054b50;
const END64_SIG = 0x06064b50;
const LOCATOR64_SIG = 0x07064b50;
/** Bit 3 (sizes in a data descriptor) and bit 11 (UTF-8 names). */
const FLAGS = 0x0808;
const MAX32 = 0xffffffff;
const MAX16 = 0xffff;
/** Version needed: 2.0 for plain entries, 4.5 for ZIP64. */
const V20 = 20;
const V45 = 45;
/** Made by: Unix (3), spec 4.5 — so the external attributes carry Unix modes. */
const MADE_BY = (3 << 8) | V45;
/** A regular file, rw-r--r--, in the high half of the external attributes. */
const FILE_ATTRS = (0o100644 << 16) >>> 0;

interface Written {
  name: Buffer;
  crc: number;
  size: number;
  offset: number;
  dosTime: number;
  dosDate: number;
  zip64: boolean;
}

/** MS-DOS date and time (local time, two-second steps; 1980 is the earliest it can say). */
function dosDateTime(ms: number): { dosTime: number; dosDate: number } {
  const d = new Date(Number.isFinite(ms) ? ms : Date.now());
  if (d.getFullYear() < 1980) return { dosTime: 0, dosDate: (0 << 9) | (1 << 5) | 1 };
  const year = Math.min(d.getFullYear(), 2107);
  return {
    dosTime: (d.getHours() << 11) | (d.getMinutes() << 5) | (d.getSeconds() >> 1),
    dosDate: ((year - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
  };
}

function localHeader(e: Written): Buffer {
  const extra = e.zip64 ? Buffer.alloc(20) : Buffer.alloc(0);
  if (e.zip64) {
    // sizes are in the descriptor; the ZIP64 field tells readers to expect 8-byte ones there
    extra.writeUInt16LE(0x0001, 0);
    extra.writeUInt16LE(16, 2);
  }
  const h = Buffer.alloc(30);
  h.writeUInt32LE(LOCAL_SIG, 0);
  h.writeUInt16LE(e.zip64 ? V45 : V20, 4);
  h.writeUInt16LE(FLAGS, 6);
  h.writeUInt16LE(0, 8); // stored
  h.writeUInt16LE(e.dosTime, 10);
  h.writeUInt16LE(e.dosDate, 12);
  h.writeUInt32LE(0, 14); // CRC: in the descriptor
  h.writeUInt32LE(e.zip64 ? MAX32 : 0, 18);
  h.writeUInt32LE(e.zip64 ? MAX32 : 0, 22);
  h.writeUInt16LE(e.name.length, 26);
  h.writeUInt16LE(extra.length, 28);
  return Buffer.concat([h, e.name, extra]);
}

function descriptor(e: Written): Buffer {
  const d = Buffer.alloc(e.zip64 ? 24 : 16);
  d.writeUInt32LE(DESCRIPTOR_SIG, 0);
  d.writeUInt32LE(e.crc, 4);
  if (e.zip64) {
    d.writeBigUInt64LE(BigInt(e.size), 8);
    d.writeBigUInt64LE(BigInt(e.size), 16);
  } else {
    d.writeUInt32LE(e.size, 8);
    d.writeUInt32LE(e.size, 12);
  }
  return d;
}

function centralHeader(e: Written): Buffer {
  const bigSize = e.size >= MAX32;
  const bigOffset = e.offset >= MAX32;
  const fields: bigint[] = [];
  if (bigSize) fields.push(BigInt(e.size), BigInt(e.size));
  if (bigOffset) fields.push(BigInt(e.offset));
  const extra = Buffer.alloc(fields.length ? 4 + fields.length * 8 : 0);
  if (fields.length) {
    extra.writeUInt16LE(0x0001, 0);
    extra.writeUInt16LE(fields.length * 8, 2);
    fields.forEach((v, i) => extra.writeBigUInt64LE(v, 4 + i * 8));
  }
  const h = Buffer.alloc(46);
  h.writeUInt32LE(CENTRAL_SIG, 0);
  h.writeUInt16LE(MADE_BY, 4);
  h.writeUInt16LE(e.zip64 || fields.length ? V45 : V20, 6);
  h.writeUInt16LE(FLAGS, 8);
  h.writeUInt16LE(0, 10);
  h.writeUInt16LE(e.dosTime, 12);
  h.writeUInt16LE(e.dosDate, 14);
  h.writeUInt32LE(e.crc, 16);
  h.writeUInt32LE(bigSize ? MAX32 : e.size, 20);
  h.writeUInt32LE(bigSize ? MAX32 : e.size, 24);
  h.writeUInt16LE(e.name.length, 28);
  h.writeUInt16LE(extra.length, 30);
  h.writeUInt16LE(0, 32); // comment
  h.writeUInt16LE(0, 34); // disk
  h.writeUInt16LE(0, 36); // internal attributes
  h.writeUInt32LE(FILE_ATTRS, 38);
  h.writeUInt32LE(bigOffset ? MAX32 : e.offset, 42);
  return Buffer.concat([h, e.name, extra]);
}

function endRecords(count: number, cdOffset: number, cdSize: number): Buffer {
  const needs64 = count >= MAX16 || cdOffset >= MAX32 || cdSize >= MAX32;
  const parts: Buffer[] = [];
  if (needs64) {
    const end64At = cdOffset + cdSize;
    const r = Buffer.alloc(56);
    r.writeUInt32LE(END64_SIG, 0);
    r.writeBigUInt64LE(44n, 4); // size of the rest of this record
    r.writeUInt16LE(MADE_BY, 12);
    r.writeUInt16LE(V45, 14);
    r.writeUInt32LE(0, 16); // this disk
    r.writeUInt32LE(0, 20); // disk with the central directory
    r.writeBigUInt64LE(BigInt(count), 24);
    r.writeBigUInt64LE(BigInt(count), 32);
    r.writeBigUInt64LE(BigInt(cdSize), 40);
    r.writeBigUInt64LE(BigInt(cdOffset), 48);
    const loc = Buffer.alloc(20);
    loc.writeUInt32LE(LOCATOR64_SIG, 0);
    loc.writeUInt32LE(0, 4);
    loc.writeBigUInt64LE(BigInt(end64At), 8);
    loc.writeUInt32LE(1, 16); // total disks
    parts.push(r, loc);
  }
  const e = Buffer.alloc(22);
  e.writeUInt32LE(END_SIG, 0);
  e.writeUInt16LE(0, 4);
  e.writeUInt16LE(0, 6);
  e.writeUInt16LE(Math.min(count, MAX16), 8);
  e.writeUInt16LE(Math.min(count, MAX16), 10);
  e.writeUInt32LE(Math.min(cdSize, MAX32), 12);
  e.writeUInt32LE(Math.min(cdOffset, MAX32), 16);
  e.writeUInt16LE(0, 20); // comment
  parts.push(e);
  return Buffer.concat(parts);
}

/**
 * The archive of `entries`, chunk by chunk: each entry's data is pulled only when the consumer wants
 * more (a Readable made from this respects backpressure), and stopping the consumer stops the reads.
 */
export async function* zipStream(entries: AsyncIterable<ZipEntry>): AsyncGenerator<Buffer> {
  const written: Written[] = [];
  let offset = 0;
  for await (const entry of entries) {
    const e: Written = { name: Buffer.from(entry.name, 'utf8'), crc: 0, size: 0, offset, zip64: entry.size >= MAX32, ...dosDateTime(entry.mtimeMs) };
    const head = localHeader(e);
    offset += head.length;
    yield head;
    for await (const chunk of entry.data) {
      e.crc = crc32(chunk, e.crc);
      e.size += chunk.length;
      offset += chunk.length;
      yield chunk;
    }
    if (e.size >= MAX32 && !e.zip64) throw new Error('zip entry grew past 4 GiB after its header was written');
    const tail = descriptor(e);
    offset += tail.length;
    yield tail;
    written.push(e);
  }
  const cdOffset = offset;
  let cdSize = 0;
  for (const e of written) {
    const h = centralHeader(e);
    cdSize += h.length;
    yield h;
  }
  yield endRecords(written.length, cdOffset, cdSize);
}
