/**
 * Builds the benchmark's data directory: a kikoplay database (migrated by the project's own
 * `Database.open`) filled with the synthetic library through the seed writer, a config with a root
 * folder, a few real work folders with large files for the stream row, and covers of every size
 * for every work (bench-covers.ts).
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Database } from '../../server/db/connection.js';
import { seedWorks } from '../../test/helpers/seed.js';
import { writeBenchCovers } from './bench-covers.js';
import { DEFAULT_SYNTH, synthesize, type SynthOptions } from './synth-library.js';

/** Bump when the generator or the schema changes, so a reused data dir is rebuilt. */
const GENERATOR_VERSION = 8;

/** Works that get real files on disk (the stream row reads 1 MB ranges of them). */
export const STREAM_WORKS = 8;
export const STREAM_FILE_BYTES = 16 * 1024 * 1024;
export const STREAM_FILE = 'stream/track.mp3';

export interface BenchData {
  dataDir: string;
  libraryDir: string;
  workIds: number[];
  rareStrings: string[];
  /** [tagId, vaId] pairs that occur together on some work. */
  tagVaPairs: [number, string][];
  tagIds: number[];
  /** The largest circles and voice actors first (Zipf ranks). */
  circleIds: number[];
  vaIds: string[];
  streamHashes: string[];
  /** Absolute paths of the files behind streamHashes. */
  streamFiles: string[];
  buildSeconds: number;
  reused: boolean;
}

interface Manifest extends Omit<BenchData, 'reused' | 'dataDir'> {
  version: number;
  opts: SynthOptions;
}

export async function buildBenchData(dataDir: string, opts: SynthOptions = DEFAULT_SYNTH, reuse = false): Promise<BenchData> {
  const manifestFile = path.join(dataDir, 'bench-manifest.json');
  if (reuse && existsSync(manifestFile)) {
    const m = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
    if (m.version === GENERATOR_VERSION && JSON.stringify(m.opts) === JSON.stringify(opts)) {
      const { version: _v, opts: _o, ...data } = m;
      return { ...data, dataDir, reused: true };
    }
  }
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const started = Date.now();
  const lib = synthesize(opts);
  process.stdout.write(`  synthesized in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  const libraryDir = path.join(dataDir, 'library');

  // Real files for the stream row: deterministic bytes, 16 MB each. The bytes are printable ASCII
  // because autocannon appends every response body to a JS string (PipelinedRequestsQueue.addBody):
  // decoding arbitrary binary as UTF-8 costs the load generator more than the server spends sending
  // it (a bare node:http server drops from ~500 to ~27 req/s), while the server's work does not
  // depend on the bytes at all.
  const visible = lib.works.filter((w) => !w.missing);
  const streamWorks = visible.slice(0, STREAM_WORKS);
  const chunk = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < chunk.length; i++) chunk[i] = 0x20 + ((i * 31 + (i >> 9)) % 95);
  const streamHashes: string[] = [];
  const streamFiles: string[] = [];
  for (const w of streamWorks) {
    const file = path.join(libraryDir, w.dir!, STREAM_FILE);
    streamFiles.push(file);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, Buffer.concat(new Array(STREAM_FILE_BYTES / chunk.length).fill(chunk)));
    const n = w.files!.length;
    w.files!.push({ path: STREAM_FILE, n, size: STREAM_FILE_BYTES, mtimeMs: Date.now(), duration: 600 });
    streamHashes.push(`${w.id}/${n}`);
  }

  const db = await Database.open(path.join(dataDir, 'kikoplay.db'), { readers: 1 });
  try {
    await seedWorks(db, lib.works, { batch: 5000 });
    process.stdout.write(`  database written in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    await db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  } finally {
    await db.close();
  }

  const coverSeconds = await writeBenchCovers(
    path.join(dataDir, 'covers'),
    lib.works.map((w) => w.id),
  );
  process.stdout.write(`  covers written in ${coverSeconds.toFixed(1)} s\n`);

  const tagVaPairs: [number, string][] = [];
  for (let i = 0; tagVaPairs.length < 200 && i < visible.length; i += 997) {
    const w = visible[i];
    if (w.tags?.length && w.vas?.length) tagVaPairs.push([w.tags[0].id, w.vas[0].id]);
  }
  const data: Manifest = {
    version: GENERATOR_VERSION,
    opts,
    libraryDir,
    workIds: visible.filter((_, i) => i % 97 === 0).map((w) => w.id),
    rareStrings: lib.rareStrings.slice(0, 500),
    tagVaPairs,
    tagIds: lib.tags.map((t) => t.id),
    circleIds: lib.circles.slice(0, 100).map((c) => c.id),
    vaIds: lib.vas.slice(0, 100).map((v) => v.id),
    streamHashes,
    streamFiles,
    buildSeconds: (Date.now() - started) / 1000,
  };
  writeFileSync(path.join(dataDir, 'config.json'), JSON.stringify({ rootFolders: [{ name: 'bench', path: libraryDir }], enableGzip: true }, null, 2));
  writeFileSync(manifestFile, JSON.stringify(data));
  const { version: _v, opts: _o, ...rest } = data;
  return { ...rest, dataDir, reused: false };
}
