/**
 * Cover images: `<coverDir>/<CODE>_img_<type>.jpg` for type main (~560 px), sam (100 px) and 240x240,
 * plus 200x150 and 280x210, the sizes of a work card in the lists, made from main when first asked for.
 * From DLsite when the metadata source has them, else made with sharp from the work's own image
 * (cover/folder/jacket names first). Files are written atomically (temp + rename), so a killed scan
 * never leaves a half-written cover.
 */
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { formatWorkCode } from '../domain/work-code.js';
import { COVER_TYPES, type CoverType } from '../domain/work-metadata.js';
import { naturalCompare } from '../domain/natural-sort.js';

/**
 * Types the cover route serves: the three the scanner makes, the legacy 360x360, and the card sizes
 * 200x150 and 280x210 (4:3, like main): a card up to 200 px wide (the compact grid of desktop
 * windows: six 185 px cards across 1280 px) decodes an eighth of main's pixels, a card up to 280 px
 * a quarter, instead of all of them.
 */
export const SERVED_COVER_TYPES = ['main', 'sam', '240x240', '360x360', '200x150', '280x210'] as const;
export type ServedCoverType = (typeof SERVED_COVER_TYPES)[number];
/** The types made from main on request rather than stored by a scan. */
export const DERIVED_COVER_TYPES = {
  '200x150': { width: 200, height: 150 },
  '280x210': { width: 280, height: 210 },
} as const satisfies Partial<Record<ServedCoverType, { width: number; height: number }>>;
export type DerivedCoverType = keyof typeof DERIVED_COVER_TYPES;
export const isDerivedCoverType = (type: ServedCoverType): type is DerivedCoverType => type in DERIVED_COVER_TYPES;

export const coverFileName = (workId: number, type: ServedCoverType): string => `${formatWorkCode(workId)}_img_${type}.jpg`;
export const coverPath = (coverDir: string, workId: number, type: ServedCoverType): string => path.join(coverDir, coverFileName(workId, type));

/** The bundled image served when a work has no cover (works from source and from dist/), in the size of `type` where one is bundled. */
export function defaultCoverPath(type?: ServedCoverType): string {
  const name = type !== undefined && isDerivedCoverType(type) ? `no-image-${type}.jpg` : 'no-image.jpg';
  return fileURLToPath(new URL(`../assets/${name}`, import.meta.url));
}

async function writeAtomic(file: string, data: Buffer, mtime?: Date): Promise<void> {
  await fsp.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await fsp.writeFile(tmp, data);
    if (mtime) await fsp.utimes(tmp, new Date(), mtime);
    await fsp.rename(tmp, file);
  } catch (err) {
    await fsp.rm(tmp, { force: true });
    throw err;
  }
}

export async function saveCover(coverDir: string, workId: number, type: CoverType, data: Buffer): Promise<void> {
  await writeAtomic(coverPath(coverDir, workId, type), data);
}

export async function removeCovers(coverDir: string, workId: number): Promise<void> {
  for (const t of SERVED_COVER_TYPES) await fsp.rm(coverPath(coverDir, workId, t), { force: true });
}

const SIZES: Record<CoverType, { width: number; height: number; fit: 'inside' | 'cover' }> = {
  main: { width: 560, height: 560, fit: 'inside' },
  sam: { width: 100, height: 100, fit: 'cover' },
  '240x240': { width: 240, height: 240, fit: 'cover' },
};

/** Make the three cover sizes from the bytes of one image of the work (read through library-path.ts). */
export async function makeCoversFromImage(coverDir: string, workId: number, input: Buffer): Promise<void> {
  const outputs: [CoverType, Buffer][] = [];
  for (const type of COVER_TYPES) {
    const s = SIZES[type];
    const buf = await sharp(input, { failOn: 'error' })
      .rotate()
      .resize({ width: s.width, height: s.height, fit: s.fit, withoutEnlargement: s.fit === 'inside' })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 85, mozjpeg: false })
      .toBuffer();
    outputs.push([type, buf]);
  }
  for (const [type, buf] of outputs) await saveCover(coverDir, workId, type, buf);
}

/**
 * Make a derived size from the work's main cover: cropped to the size's aspect ratio from the centre,
 * as the card's `object-fit: cover` shows main. Written atomically, like the others, with main's
 * modification time: it is made again when main changes.
 */
export async function makeDerivedCover(coverDir: string, workId: number, type: DerivedCoverType): Promise<void> {
  const { width, height } = DERIVED_COVER_TYPES[type];
  const main = coverPath(coverDir, workId, 'main');
  const { mtime } = await fsp.stat(main);
  const buf = await sharp(await fsp.readFile(main), { failOn: 'error' })
    .resize({ width, height, fit: 'cover', position: 'centre' })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 82, mozjpeg: false })
    .toBuffer();
  await writeAtomic(coverPath(coverDir, workId, type), buf, mtime);
}

const PREFERRED = /(cover|folder|jacket|front|表紙|ジャケット|封面|サムネ|thumb)/i;

/**
 * The image to use as a local cover: a name like cover/folder/jacket first (shallowest, then natural
 * order), else the first image in track-list order. Paths are relative to the work folder.
 */
export function pickCoverImage(imagePaths: string[]): string | null {
  if (!imagePaths.length) return null;
  const depth = (p: string) => p.split('/').length;
  const base = (p: string) => p.slice(p.lastIndexOf('/') + 1);
  const byOrder = (a: string, b: string) => depth(a) - depth(b) || naturalCompare(a, b);
  const preferred = imagePaths.filter((p) => PREFERRED.test(base(p))).sort(byOrder);
  if (preferred.length) return preferred[0];
  return imagePaths.slice().sort(byOrder)[0];
}
