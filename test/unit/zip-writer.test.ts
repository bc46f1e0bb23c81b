/**
 * The streamed zip writer (server/media/zip-writer.ts), read back by Python's zipfile: plain entries
 * and the ZIP64 end records an archive needs past 65535 entries.
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { zipStream, type ZipEntry } from '../../server/media/zip-writer.js';
import { tempDir } from '../helpers/app.js';

const run = promisify(execFile);

async function* entries(n: number, body: (i: number) => Buffer): AsyncGenerator<ZipEntry> {
  for (let i = 0; i < n; i++) {
    const data = body(i);
    yield {
      name: `d/${i}.txt`,
      mtimeMs: Date.UTC(2024, 0, 2, 3, 4, 6),
      size: data.length,
      data: (async function* () {
        yield data;
      })(),
    };
  }
}

async function archive(src: AsyncIterable<ZipEntry>): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of zipStream(src)) parts.push(chunk);
  const file = path.join(tempDir('kikoplay-zipw-'), 'a.zip');
  writeFileSync(file, Buffer.concat(parts));
  return file;
}

/** Entry count, the number of entries whose bytes are right, and the CRC check's verdict. */
const CHECK = `import sys,zipfile
z=zipfile.ZipFile(sys.argv[1])
ok=sum(1 for i in z.infolist() if z.read(i).decode()==("x"*(int(i.filename[2:-4])%7)+i.filename))
print(len(z.infolist()), ok, z.testzip())`;

describe('zip writer', () => {
  it('writes entries that a standard reader unpacks with their bytes and CRCs', async () => {
    const file = await archive(entries(3, (i) => Buffer.from('x'.repeat(i % 7) + `d/${i}.txt`)));
    const { stdout } = await run('python3', ['-c', CHECK, file]);
    expect(stdout.trim()).toBe('3 3 None');
  });

  it('switches to ZIP64 end records past 65535 entries', async () => {
    const file = await archive(entries(70_000, (i) => Buffer.from('x'.repeat(i % 7) + `d/${i}.txt`)));
    const { stdout } = await run('python3', ['-c', CHECK, file], { maxBuffer: 1 << 20 });
    expect(stdout.trim()).toBe('70000 70000 None');
    // the classic end record says "see ZIP64" (0xFFFF entries), the ZIP64 record and locator precede it
    const tail = readFileSync(file).subarray(-98);
    expect(tail.readUInt32LE(0)).toBe(0x06064b50);
    expect(Number(tail.readBigUInt64LE(24))).toBe(70_000);
    expect(tail.readUInt32LE(56)).toBe(0x07064b50);
    expect(tail.readUInt32LE(76)).toBe(0x06054b50);
    expect(tail.readUInt16LE(76 + 8)).toBe(0xffff);
  }, 60_000);
});
