/**
 * A small, playable demo library written from scratch (no fixtures needed, so it works from the
 * published package): a few works of synthesized WAV melodies with matching .lrc/.vtt/.srt lyrics and
 * a cover image each, and their circles, tags and voice actors (`applyDemoMetadata`, written after
 * the offline scan so the circle, tag and voice actor screens have something to show). Used by
 * `kikoplay demo` / `npm run demo`.
 */
import { writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { ensureDir } from '../config/ensure-dir.js';
import { parseProductCode } from '../domain/work-code.js';
import { AppError } from '../domain/errors.js';

const RATE = 22050;

/** 16-bit mono PCM WAV of a simple melody: `notes` are [frequency Hz (0 = rest), seconds]. */
export function synthWav(notes: [number, number][], volume = 0.25): Buffer {
  const total = Math.round(notes.reduce((s, [, d]) => s + d, 0) * RATE);
  const data = Buffer.alloc(total * 2);
  let i = 0;
  for (const [freq, dur] of notes) {
    const n = Math.round(dur * RATE);
    for (let k = 0; k < n && i < total; k++, i++) {
      const t = k / RATE;
      const env = Math.min(1, k / (RATE * 0.02)) * Math.min(1, (n - k) / (RATE * 0.05));
      const v = freq > 0 ? Math.sin(2 * Math.PI * freq * t) * 0.8 + Math.sin(4 * Math.PI * freq * t) * 0.2 : 0;
      data.writeInt16LE(Math.round(v * env * volume * 32767), i * 2);
    }
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8);
  header.write('fmt ', 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(RATE, 24);
  header.writeUInt32LE(RATE * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

const NOTE: Record<string, number> = { C4: 262, D4: 294, E4: 330, F4: 349, G4: 392, A4: 440, B4: 494, C5: 523, D5: 587, E5: 659, R: 0 };
const melody = (names: string, beat: number): [number, number][] => names.split(' ').map((n) => [NOTE[n] ?? 0, beat]);

const pad = (n: number) => String(n).padStart(2, '0');
const lrcTime = (s: number) => `[${pad(Math.floor(s / 60))}:${pad(Math.floor(s % 60))}.${pad(Math.round((s % 1) * 100))}]`;
const vttTime = (s: number, sep = '.') => `00:${pad(Math.floor(s / 60))}:${pad(Math.floor(s % 60))}${sep}${String(Math.round((s % 1) * 1000)).padStart(3, '0')}`;

function lyrics(lines: string[], every: number) {
  return {
    lrc: lines.map((l, i) => `${lrcTime(i * every)}${l}`).join('\n') + '\n',
    vtt: 'WEBVTT\n\n' + lines.map((l, i) => `${vttTime(i * every)} --> ${vttTime((i + 1) * every)}\n${l}\n`).join('\n'),
    srt: lines.map((l, i) => `${i + 1}\n${vttTime(i * every, ',')} --> ${vttTime((i + 1) * every, ',')}\n${l}\n`).join('\n'),
  };
}

async function cover(title: string, from: string, to: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="560" height="560">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
<rect width="560" height="560" fill="url(#g)"/>
<circle cx="280" cy="240" r="120" fill="none" stroke="#ffffff" stroke-opacity="0.6" stroke-width="10"/>
<circle cx="280" cy="240" r="30" fill="#ffffff" fill-opacity="0.8"/>
<text x="280" y="460" font-family="sans-serif" font-size="40" fill="#ffffff" text-anchor="middle">${title}</text>
</svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

interface DemoWork {
  folder: string;
  title: string;
  colors: [string, string];
  /** What a metadata site would say of the work (made up, like the works). */
  circle: string;
  tags: string[];
  vas: string[];
  tracks: { name: string; tune: string; beat: number; lines: string[]; lyric: 'lrc' | 'vtt' | 'srt' }[];
}

const WORKS: DemoWork[] = [
  {
    folder: 'RJ990001 【デモ】雨の日のささやき',
    title: 'Rainy Day',
    colors: ['#364fc7', '#15aabf'],
    circle: 'しずくレコード',
    tags: ['ASMR', '癒し', '雨音'],
    vas: ['星野ひかり'],
    tracks: [
      {
        name: '01 はじめに',
        tune: 'C4 E4 G4 E4 C4 E4 G4 C5 G4 E4 D4 R C4 E4 G4 E4',
        beat: 0.5,
        lines: ['こんにちは', '雨の音が聞こえますね', 'ゆっくりしていってください', 'おやすみなさい'],
        lyric: 'lrc',
      },
      { name: '02 雨音', tune: 'E4 D4 C4 D4 E4 E4 E4 R D4 D4 D4 R E4 G4 G4 R', beat: 0.5, lines: ['ぽつぽつ', 'ざあざあ', '雨が止んだら', 'お散歩しましょう'], lyric: 'vtt' },
    ],
  },
  {
    folder: 'RJ990002 夜のラジオ',
    title: 'Night Radio',
    colors: ['#5f3dc4', '#e64980'],
    circle: 'ミッドナイト放送局',
    tags: ['ラジオ', '癒し', '日常'],
    vas: ['月城ゆう', '星野ひかり'],
    tracks: [
      { name: 'track1', tune: 'G4 G4 D5 D5 E5 E5 D5 R C5 C5 B4 B4 A4 A4 G4 R', beat: 0.45, lines: ['今夜もはじまりました', '夜のラジオ', 'お便りを読みます', 'また来週'], lyric: 'srt' },
      { name: 'track2', tune: 'C5 B4 A4 G4 F4 E4 D4 C4', beat: 0.6, lines: ['エンディング', 'ありがとうございました'], lyric: 'lrc' },
    ],
  },
  {
    folder: 'BJ990003 デモ漫画 サウンドトラック',
    title: 'Soundtrack',
    colors: ['#2b8a3e', '#fab005'],
    circle: 'しずくレコード',
    tags: ['サウンドトラック', 'オリジナル'],
    vas: ['月城ゆう'],
    tracks: [{ name: 'OP', tune: 'C4 D4 E4 F4 G4 A4 B4 C5 B4 A4 G4 F4 E4 D4 C4 R', beat: 0.35, lines: ['オープニング', 'テーマ', 'おわり'], lyric: 'lrc' }],
  },
];

/** Write the demo library under `dir` (existing files are kept). Returns the folders written. */
export async function writeDemoLibrary(dir: string): Promise<string[]> {
  ensureDir(dir);
  const written: string[] = [];
  for (const w of WORKS) {
    const folder = path.join(dir, w.folder);
    ensureDir(folder);
    for (const t of w.tracks) {
      const audio = path.join(folder, `${t.name}.wav`);
      if (!existsSync(audio)) writeFileSync(audio, synthWav(melody(t.tune, t.beat)));
      const length = t.tune.split(' ').length * t.beat;
      const text = lyrics(t.lines, length / t.lines.length);
      writeFileSync(path.join(folder, `${t.name}.${t.lyric}`), text[t.lyric]);
    }
    const coverFile = path.join(folder, 'cover.jpg');
    if (!existsSync(coverFile)) writeFileSync(coverFile, await cover(w.title, ...w.colors));
    writeFileSync(path.join(folder, 'readme.txt'), `kikoplay demo: ${w.folder}\nSynthesized audio, free to use.\n`);
    written.push(folder);
  }
  return written;
}

/** The label edit of one work, as `POST /api/edit/work/:id` takes it (new labels by name, id 0). */
export type DemoLabels = {
  circle: { id: 0; name: string };
  tags: { id: 0; name: string }[];
  vas: { id: 0; name: string }[];
};

/**
 * Give the scanned demo works their circles, tags and voice actors through `edit` (the admin
 * correction of a work, so a later metadata fetch keeps them). Works the scan did not add are skipped;
 * returns how many were labelled.
 */
export async function applyDemoMetadata(edit: (workId: number, labels: DemoLabels) => Promise<unknown>): Promise<number> {
  let done = 0;
  for (const w of WORKS) {
    const id = parseProductCode(w.folder.split(' ')[0]);
    if (id === null) continue;
    try {
      await edit(id, {
        circle: { id: 0, name: w.circle },
        tags: w.tags.map((name) => ({ id: 0, name })),
        vas: w.vas.map((name) => ({ id: 0, name })),
      });
      done++;
    } catch (err) {
      if (!(err instanceof AppError && err.code === 'WORK_NOT_FOUND')) throw err;
    }
  }
  return done;
}
