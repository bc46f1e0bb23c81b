/**
 * Covers for the benchmark library: every work gets every served size, like a library whose covers
 * were fetched by a scan and whose card sizes were made when first shown. The images are photo-like
 * (gradients, shapes, text and grain: a main cover is about 60 KB, like DLsite's), because decoding
 * and drawing them is part of what the web benchmark measures; the flat placeholder of a work with
 * no cover costs the browser far less. A pool of distinct images is made with the server's own cover
 * code, then hard-linked per work (100,000 works take no more disk than the pool).
 */
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { coverPath, DERIVED_COVER_TYPES, makeCoversFromImage, makeDerivedCover, type DerivedCoverType } from '../../server/media/covers.js';
import { COVER_TYPES } from '../../server/domain/work-metadata.js';

const POOL_SIZE = 48;
const W = 560;
const H = 420;

/** A deterministic pseudo-random sequence in [0, 1). */
function sequence(seed: number): () => number {
  let s = (seed * 2654435761) >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

/** A 560x420 photo-like picture (PNG), different for each seed. */
async function artwork(seed: number): Promise<Buffer> {
  const r = sequence(seed + 1);
  const hue = () => Math.floor(r() * 360);
  let shapes = '';
  for (let i = 0; i < 14; i++) {
    shapes += `<ellipse cx="${r() * W}" cy="${r() * H}" rx="${20 + r() * 140}" ry="${20 + r() * 120}" fill="hsl(${hue()},${40 + r() * 50}%,${30 + r() * 50}%)" opacity="${0.4 + r() * 0.5}"/>`;
  }
  for (let i = 0; i < 6; i++) {
    shapes += `<text x="${r() * 400}" y="${40 + r() * 380}" font-size="${18 + r() * 40}" fill="hsl(${hue()},70%,${r() < 0.5 ? 15 : 90}%)">ASMR ${seed}</text>`;
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue()},60%,70%)"/><stop offset="1" stop-color="hsl(${hue()},60%,25%)"/></linearGradient></defs><rect width="${W}" height="${H}" fill="url(#g)"/>${shapes}</svg>`;
  const grain = await sharp({ create: { width: W, height: H, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 22 } } })
    .blur(0.6)
    .png()
    .toBuffer();
  return sharp(Buffer.from(svg))
    .composite([{ input: grain, blend: 'overlay' }])
    .png()
    .toBuffer();
}

/** Writes every served cover size of every work into `coverDir`; returns the seconds it took. */
export async function writeBenchCovers(coverDir: string, workIds: readonly number[]): Promise<number> {
  const started = Date.now();
  const poolDir = path.join(coverDir, '.pool');
  rmSync(poolDir, { recursive: true, force: true });
  mkdirSync(poolDir, { recursive: true });
  const derived = Object.keys(DERIVED_COVER_TYPES) as DerivedCoverType[];
  const types = [...COVER_TYPES, ...derived];
  for (let k = 0; k < POOL_SIZE; k++) {
    const source = path.join(poolDir, `art-${k}.png`);
    await sharp(await artwork(k)).toFile(source);
    // pool entry k is stored as the covers of a work with id k: the same names and code as the server's
    await makeCoversFromImage(poolDir, k, readFileSync(source));
    // a made card size carries main's modification time, which the server checks before using it
    for (const type of derived) await makeDerivedCover(poolDir, k, type);
  }
  for (const id of workIds) {
    for (const type of types) {
      const file = coverPath(coverDir, id, type);
      if (!existsSync(file)) linkSync(coverPath(poolDir, id % POOL_SIZE, type), file);
    }
  }
  return (Date.now() - started) / 1000;
}
