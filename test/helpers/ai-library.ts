import { copyFileSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestServer, tempDir, type TestServer } from './app.js';
import type { Config } from '../../server/config/schema.js';
import type { HttpLimits } from '../../server/http/limits.js';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/audio');

/** A file of a seeded work: copied from test/fixtures/audio, or given bytes. */
export interface SeedFile {
  path: string;
  fixture?: string;
  bytes?: Buffer;
  kind?: 'audio' | 'text' | 'image' | 'other';
}

export interface AiLibrary {
  t: TestServer;
  libDir: string;
  /** Insert a work with files on disk and `files` rows numbered 0.. in the given order. */
  seedWork(id: number, files: SeedFile[], title?: string): Promise<void>;
  close(): Promise<void>;
}

/** A test server whose root folder `lib` is a temp dir the test fills with works. */
export async function startAiLibrary(flags: Partial<Config> = {}, limits?: Partial<HttpLimits>): Promise<AiLibrary> {
  const libDir = tempDir('kikoplay-ai-lib-');
  const t = await startTestServer({ flags: { rootFolders: [{ name: 'lib', path: libDir }], ...flags }, limits });
  return {
    t,
    libDir,
    async seedWork(id, files, title = `作品 ${id}`) {
      const dir = `RJ${id} ${title}`;
      await t.app.db.run("INSERT INTO works (id, code, title, root_folder, dir, next_file_n) VALUES (?, ?, ?, 'lib', ?, ?)", [id, `RJ${id}`, title, dir, files.length]);
      for (const [n, f] of files.entries()) {
        const abs = path.join(libDir, dir, ...f.path.split('/'));
        mkdirSync(path.dirname(abs), { recursive: true });
        if (f.bytes) writeFileSync(abs, f.bytes);
        else copyFileSync(path.join(FIXTURES, f.fixture ?? 'tone-2s.mp3'), abs);
        const st = statSync(abs);
        await t.app.db.run('INSERT INTO files (work_id, n, path, kind, size, mtime_ms) VALUES (?, ?, ?, ?, ?, ?)', [id, n, f.path, f.kind ?? 'audio', st.size, Math.floor(st.mtimeMs)]);
      }
    },
    close: () => t.close(),
  };
}

/**
 * A 16-bit mono PCM WAV: silence with sine "utterances" at the given times (seconds). Stands in for
 * speech: the fake transcription service reports one segment per utterance.
 */
export function speechLikeWav(durationS: number, utterances: { start: number; end: number }[], sampleRate = 8000): Buffer {
  const samples = Math.round(durationS * sampleRate);
  const data = Buffer.alloc(samples * 2);
  for (const u of utterances) {
    const from = Math.max(0, Math.round(u.start * sampleRate));
    const to = Math.min(samples, Math.round(u.end * sampleRate));
    for (let i = from; i < to; i++) data.writeInt16LE(Math.round(12000 * Math.sin((2 * Math.PI * 440 * i) / sampleRate)), i * 2);
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}
