/**
 * Builds libraries of work folders from the tiny committed fixtures in test/fixtures/audio:
 *
 * - `generateTestLibrary(dir)`: ≥ 30 works with every case the scanner must handle (RJ 6/8-digit, BJ,
 *   VJ, lower case, nesting at the depth limit, a duplicate, CJK and mojibake names, .lrc/.vtt/.srt,
 *   images, mp3/flac/m4a/wav/ogg/opus/webm/mp4, a broken file, an empty work, an unreadable folder,
 *   symlink loops, skipped system folders) and returns what a scan must find.
 * - `generateBenchLibrary(dir, n)`: n works × 10 files (hard links of the fixtures, copies where
 *   links are not possible) for the scan benchmark.
 *
 * CLI: node --import tsx scripts/gen-library.ts <dir> [--bench <works>]
 */
import { chmodSync, copyFileSync, existsSync, linkSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import iconv from 'iconv-lite';
import sharp from 'sharp';

export const FIXTURE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../test/fixtures/audio');

/** Durations as ffprobe-static reports them (see test/fixtures/audio/README.md). */
export const FIXTURES = {
  mp3: { file: 'tone-2s.mp3', duration: 2.16 },
  flac: { file: 'tone-1.5s.flac', duration: 1.5 },
  m4a: { file: 'tone-3s.m4a', duration: 3.0 },
  wav: { file: 'tone-1s.wav', duration: 1.0 },
  ogg: { file: 'tone-2.5s.ogg', duration: 2.5 },
  opus: { file: 'tone-2s.opus', duration: 2.0065 },
  webm: { file: 'tone-1s.webm', duration: 1.008 },
  mp4: { file: 'tiny-video.mp4', duration: 2.0 },
  broken: { file: 'broken.mp3', duration: null },
} as const;
export type FixtureKind = keyof typeof FIXTURES;

export interface ExpectedFile {
  /** Relative to the work folder, '/'-separated. */
  path: string;
  kind: 'audio' | 'text' | 'image' | 'other';
  isLyric: boolean;
  /** ffprobe's duration for media; null for unreadable media and non-media. */
  duration: number | null;
}

export interface ExpectedWork {
  id: number;
  code: string;
  /** Relative to the library root, '/'-separated. */
  dir: string;
  folderName: string;
  files: ExpectedFile[];
  hasLocalLyric: boolean;
  totalDuration: number;
  /** False for folders a scan must not find (too deep, 7 digits, skipped system folders). */
  found: boolean;
  /** True when the folder may be unreadable (chmod 000 has no effect when running as root). */
  maybe?: boolean;
  /** Set on the copies of a duplicated code. */
  duplicateOf?: string;
}

export interface GeneratedLibrary {
  root: string;
  works: ExpectedWork[];
  /** Works a scan must list (found, not maybe, one per code). */
  listed: ExpectedWork[];
}

const LRC = '[00:00.00]はじめに\n[00:01.00]テスト歌詞\n';
const VTT = 'WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nこんにちは\n';
const SRT = '1\n00:00:00,000 --> 00:00:01,000\n字幕テスト\n';

let jpegCache: Buffer | null = null;
let pngCache: Buffer | null = null;
async function tinyJpeg(): Promise<Buffer> {
  jpegCache ??= await sharp({ create: { width: 64, height: 48, channels: 3, background: '#4c6ef5' } })
    .jpeg({ quality: 70 })
    .toBuffer();
  return jpegCache;
}
async function tinyPng(): Promise<Buffer> {
  pngCache ??= await sharp({ create: { width: 40, height: 40, channels: 3, background: '#f76707' } })
    .png()
    .toBuffer();
  return pngCache;
}

function place(src: string, dest: string, link: boolean): void {
  mkdirSync(path.dirname(dest), { recursive: true });
  if (existsSync(dest)) return;
  if (link) {
    try {
      linkSync(src, dest);
      return;
    } catch {
      /* another file system: copy */
    }
  }
  copyFileSync(src, dest);
}

type Spec = { audio?: [string, FixtureKind][]; text?: [string, string][]; images?: [string, 'jpg' | 'png'][]; other?: string[] };

async function writeWork(root: string, dir: string, spec: Spec, link = true): Promise<ExpectedFile[]> {
  const abs = path.join(root, dir);
  mkdirSync(abs, { recursive: true });
  const files: ExpectedFile[] = [];
  for (const [rel, kind] of spec.audio ?? []) {
    place(path.join(FIXTURE_DIR, FIXTURES[kind].file), path.join(abs, rel), link);
    files.push({ path: rel, kind: 'audio', isLyric: false, duration: FIXTURES[kind].duration });
  }
  for (const [rel, content] of spec.text ?? []) {
    mkdirSync(path.dirname(path.join(abs, rel)), { recursive: true });
    writeFileSync(path.join(abs, rel), content);
    const ext = path.extname(rel).toLowerCase();
    files.push({ path: rel, kind: 'text', isLyric: ext !== '.txt', duration: null });
  }
  for (const [rel, fmt] of spec.images ?? []) {
    mkdirSync(path.dirname(path.join(abs, rel)), { recursive: true });
    writeFileSync(path.join(abs, rel), fmt === 'jpg' ? await tinyJpeg() : await tinyPng());
    files.push({ path: rel, kind: 'image', isLyric: false, duration: null });
  }
  for (const rel of spec.other ?? []) {
    writeFileSync(path.join(abs, rel), '%PDF-1.4\n%kikoplay test\n');
    files.push({ path: rel, kind: 'other', isLyric: false, duration: null });
  }
  return files;
}

const code6 = (p: string, n: number) => `${p}${String(n).padStart(6, '0')}`;
const FORMATS: FixtureKind[] = ['mp3', 'flac', 'm4a', 'wav', 'ogg', 'opus'];

/** Shift-JIS bytes read as GBK: the classic mojibake of Japanese names unpacked on a Chinese system. */
export const mojibake = (text: string): string => iconv.decode(iconv.encode(text, 'shift_jis'), 'gbk');

export async function generateTestLibrary(root: string): Promise<GeneratedLibrary> {
  mkdirSync(root, { recursive: true });
  const works: ExpectedWork[] = [];
  const add = async (id: number, code: string, dir: string, spec: Spec, extra: Partial<ExpectedWork> = {}) => {
    const files = await writeWork(root, dir, spec);
    const total = files.reduce((s, f) => s + (f.kind === 'audio' && f.duration ? f.duration : 0), 0);
    works.push({ id, code, dir, folderName: path.basename(dir), files, hasLocalLyric: files.some((f) => f.isLyric), totalDuration: total, found: true, ...extra });
  };

  // 20 plain RJ works rotating through the audio formats, some with lyrics and covers
  for (let i = 1; i <= 20; i++) {
    const a = FORMATS[i % FORMATS.length];
    const b = FORMATS[(i + 1) % FORMATS.length];
    const spec: Spec = {
      audio: [
        [`01 track.${a}`, a],
        [`02 track.${b}`, b],
      ],
    };
    if (i % 3 === 0) spec.text = [[`01 track.lrc`, LRC]];
    if (i % 4 === 0) spec.text = [...(spec.text ?? []), [`02 track.vtt`, VTT]];
    if (i % 5 === 0) spec.text = [...(spec.text ?? []), [`02 track.srt`, SRT], ['readme.txt', 'hello']];
    if (i % 2 === 0) spec.images = [['cover.jpg', 'jpg']];
    if (i % 7 === 0) spec.other = ['booklet.pdf'];
    await add(100000 + i, code6('RJ', 100000 + i), `${i % 2 ? '' : '[Circle] '}RJ${100000 + i} 作品${i}`, spec);
  }
  // 8-digit RJ, BJ, VJ, lower-case code
  await add(1000001, 'RJ01000001', 'RJ01000001 八桁コード', { audio: [['track.mp3', 'mp3']], text: [['track.lrc', LRC]] });
  await add(1e12 + 200001, 'BJ200001', 'BJ200001 [サークル] 漫画付き', {
    audio: [['track.ogg', 'ogg']],
    images: [
      ['folder.png', 'png'],
      ['page1.jpg', 'jpg'],
    ],
  });
  await add(2e12 + 300001, 'VJ300001', 'VJ300001 ゲーム音楽', {
    audio: [
      ['bgm.opus', 'opus'],
      ['movie.mp4', 'mp4'],
    ],
  });
  await add(100021, 'RJ100021', 'rj100021 lower case', { audio: [['a.flac', 'flac']] });
  // nesting: subfolders inside a work, and work folders one level below the root (the depth limit)
  await add(100030, 'RJ100030', 'circle-a/RJ100030 nested', {
    audio: [
      ['mp3/SEなし/track1.mp3', 'mp3'],
      ['mp3/SEなし/track2.mp3', 'mp3'],
      ['mp3/SEなし/track10.mp3', 'mp3'],
      ['wav/track1.wav', 'wav'],
      ['track0.m4a', 'm4a'],
    ],
    text: [['mp3/track1.lrc', LRC]],
  });
  await add(100031, 'RJ100031', 'circle-a/deeper/RJ100031 too deep', { audio: [['x.mp3', 'mp3']] }, { found: false });
  // a duplicated code: the copy in the first folder in path order wins
  await add(100040, 'RJ100040', 'RJ100040 copy one', { audio: [['one.mp3', 'mp3']] });
  await add(100040, 'RJ100040', 'zz-archive/RJ100040 copy two', { audio: [['two.mp3', 'mp3']] }, { duplicateOf: 'RJ100040' });
  // CJK names
  await add(100050, 'RJ100050', 'RJ100050 【ASMR】耳かき・添い寝 (CV:山田花子)', {
    audio: [
      ['01_はじめに.mp3', 'mp3'],
      ['02_耳かき.wav', 'wav'],
    ],
    text: [
      ['01_はじめに.lrc', LRC],
      ['02_耳かき.vtt', VTT],
    ],
    images: [['表紙.jpg', 'jpg']],
  });
  // mojibake (Shift-JIS read as GBK) folder and file names
  const mj = mojibake('トラック');
  await add(100051, 'RJ100051', `RJ100051 ${mojibake('ささやき')}`, { audio: [[`${mj}1.mp3`, 'mp3']], text: [[`${mj}1.srt`, SRT]] });
  // video and webm, and a broken file that no prober can read
  await add(100052, 'RJ100052', 'RJ100052 video', {
    audio: [
      ['pv.mp4', 'mp4'],
      ['bgm.webm', 'webm'],
      ['broken.mp3', 'broken'],
    ],
  });
  // an empty work folder
  await add(100060, 'RJ100060', 'RJ100060 empty', {});
  // symlinks: a loop back to the work folder and a dangling link inside a work
  await add(100061, 'RJ100061', 'RJ100061 links', { audio: [['real.mp3', 'mp3']] });
  try {
    symlinkSync('..', path.join(root, 'RJ100061 links', 'loop'));
    symlinkSync('/nonexistent/kikoplay/file.mp3', path.join(root, 'RJ100061 links', 'dangling.mp3'));
    symlinkSync('.', path.join(root, 'self-loop'));
  } catch {
    /* file systems without symlinks */
  }
  // an invalid UTF-8 file name (raw Shift-JIS bytes) inside a work: reported and skipped
  await add(100062, 'RJ100062', 'RJ100062 raw bytes', { audio: [['ok.mp3', 'mp3']] });
  try {
    writeFileSync(Buffer.concat([Buffer.from(path.join(root, 'RJ100062 raw bytes') + '/'), iconv.encode('トラック.mp3', 'shift_jis')]), 'x');
  } catch {
    /* file systems that insist on UTF-8 names */
  }
  // codes that are not work codes, and folders that are skipped
  await add(1234567, 'RJ1234567', 'RJ1234567 seven digits', { audio: [['x.mp3', 'mp3']] }, { found: false });
  await add(100090, 'RJ100090', '$RECYCLE.BIN/RJ100090 deleted', { audio: [['x.mp3', 'mp3']] }, { found: false });
  await add(100091, 'RJ100091', '.hidden/RJ100091 hidden', { audio: [['x.mp3', 'mp3']] }, { found: false });
  mkdirSync(path.join(root, 'not a work', 'notes'), { recursive: true });
  // an unreadable folder (chmod 000; root can still read it)
  await add(100070, 'RJ100070', 'locked/RJ100070 locked', { audio: [['x.mp3', 'mp3']] }, { maybe: true });
  chmodSync(path.join(root, 'locked'), 0o000);

  const listed = works.filter((w) => w.found && !w.maybe && !w.duplicateOf);
  return { root, works, listed };
}

/** Give the unreadable folder its permissions back so the tree can be deleted. */
export function unlockTestLibrary(root: string): void {
  try {
    chmodSync(path.join(root, 'locked'), 0o755);
  } catch {
    /* already gone */
  }
}

/**
 * n works × 10 files each (3 audio, 2 .lrc, 1 .vtt, 1 image, 1 .txt, 1 .pdf, 1 nested audio), hard
 * links of the fixtures so 10,000 works take little space. Grouped 100 works per circle folder.
 */
export async function generateBenchLibrary(root: string, n: number): Promise<{ root: string; works: number; files: number }> {
  const src = path.join(root, '.src');
  mkdirSync(src, { recursive: true });
  const lrc = path.join(src, 'a.lrc');
  const vtt = path.join(src, 'a.vtt');
  const txt = path.join(src, 'a.txt');
  const pdf = path.join(src, 'a.pdf');
  const jpg = path.join(src, 'a.jpg');
  writeFileSync(lrc, LRC);
  writeFileSync(vtt, VTT);
  writeFileSync(txt, 'readme');
  writeFileSync(pdf, '%PDF-1.4\n');
  writeFileSync(jpg, await tinyJpeg());
  const audio = (k: FixtureKind) => path.join(FIXTURE_DIR, FIXTURES[k].file);
  for (let i = 0; i < n; i++) {
    const id = 200000 + i;
    const dir = path.join(root, `circle-${String(Math.floor(i / 100)).padStart(3, '0')}`, `RJ${id} bench work ${i}`);
    const a = FORMATS[i % FORMATS.length];
    place(audio('mp3'), path.join(dir, '01 intro.mp3'), true);
    place(audio(a), path.join(dir, `02 main.${a}`), true);
    place(audio('ogg'), path.join(dir, '03 outro.ogg'), true);
    place(audio('mp3'), path.join(dir, 'SE/04 extra.mp3'), true);
    place(lrc, path.join(dir, '01 intro.lrc'), true);
    place(lrc, path.join(dir, '03 outro.lrc'), true);
    place(vtt, path.join(dir, `02 main.vtt`), true);
    place(jpg, path.join(dir, 'cover.jpg'), true);
    place(txt, path.join(dir, 'readme.txt'), true);
    place(pdf, path.join(dir, 'booklet.pdf'), true);
  }
  return { root, works: n, files: n * 10 };
}

async function main(argv: string[]): Promise<void> {
  const dir = argv[0];
  if (!dir) {
    process.stderr.write('usage: node --import tsx scripts/gen-library.ts <dir> [--bench <works>]\n');
    process.exit(2);
  }
  const b = argv.indexOf('--bench');
  if (b >= 0) {
    const n = Number(argv[b + 1] ?? 10000);
    if (!Number.isInteger(n) || n <= 0) throw new Error('--bench needs a positive number of works');
    const r = await generateBenchLibrary(path.resolve(dir), n);
    process.stdout.write(`bench library: ${r.works} works, ${r.files} files in ${r.root}\n`);
  } else {
    const lib = await generateTestLibrary(path.resolve(dir));
    process.stdout.write(`test library: ${lib.listed.length} listed works (${lib.works.length} folders) in ${lib.root}\n`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((err) => {
    process.stderr.write(`gen-library: ${(err as Error).message}\n`);
    process.exit(1);
  });
}
