/**
 * Cover images: `<coverDir>/<CODE>_img_<type>.jpg` for type main (~560 px), sam (100 px) and 240x240.
 * From DLsite when the metadata source has them, else made with sharp from the work's own image
 * (cover/folder/jacket names first). Files are written atomically (temp + rename), so a killed scan
 * never leaves a half-written cover.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, promises as fsp } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { formatWorkCode } from '../domain/work-code.js';
import { COVER_TYPES, type CoverType } from '../library/metadata-types.js';
import { naturalCompare } from '../library/natural-order.js';

/** Types the cover route serves: the three the scanner makes plus the legacy 360x360. */
export const SERVED_COVER_TYPES = ['main', 'sam', '240x240', '360x360'] as const;
export type ServedCoverType = (typeof SERVED_COVER_TYPES)[number];

export const coverFileName = (workId: number, type: ServedCoverType): string => `${formatWorkCode(workId)}_img_${type}.jpg`;
export const coverPath = (coverDir: string, workId: number, type: ServedCoverType): string => path.join(coverDir, coverFileName(workId, type));

/** The bundled image served when a work has no cover (works from source and from dist/). */
export function defaultCoverPath(): string {
  return fileURLToPath(new URL('../assets/no-image.jpg', import.meta.url));
}

async function writeAtomic(file: string, data: Buffer): Promise<void> {
  await fsp.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await fsp.writeFile(tmp, data);
    await fsp.rename(tmp, file);
  } catch (err) {
    await fsp.rm(tmp, { force: true });
    throw err;
  }
}

export async function saveCover(coverDir: string, workId: number, type: CoverType, data: Buffer): Promise<void> {
  await writeAtomic(coverPath(coverDir, workId, type), data);
}

export function hasAllCovers(coverDir: string, workId: number): boolean {
  return COVER_TYPES.every((t) => existsSync(coverPath(coverDir, workId, t)));
}

export async function removeCovers(coverDir: string, workId: number): Promise<void> {
  for (const t of SERVED_COVER_TYPES) await fsp.rm(coverPath(coverDir, workId, t), { force: true });
}

const SIZES: Record<CoverType, { width: number; height: number; fit: 'inside' | 'cover' }> = {
  main: { width: 560, height: 560, fit: 'inside' },
  sam: { width: 100, height: 100, fit: 'cover' },
  '240x240': { width: 240, height: 240, fit: 'cover' },
};

/** Make the three cover sizes from one image file of the work. */
export async function makeCoversFromImage(coverDir: string, workId: number, imageFile: string): Promise<void> {
  const input = await fsp.readFile(imageFile);
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
