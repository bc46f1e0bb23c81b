import { formatWorkCode, splitWorkId, workIdFromParts, type WorkPrefix } from '../../domain/work-code.js';
import type { CoverType } from '../../domain/work-metadata.js';

/**
 * Where things live on DLsite. Every base comes from config so tests and mirrors
 * can stand in. The floor ("section") of a work follows its prefix: RJ → `maniax` (doujin), BJ → `books`,
 * VJ → `pro` (the PC-software floor); its image folder follows the same split: `doujin`, `books`,
 * `professional`.
 */

const SECTION: Record<WorkPrefix, string> = { RJ: 'maniax', BJ: 'books', VJ: 'pro' };
const IMAGE_DIR: Record<WorkPrefix, string> = { RJ: 'doujin', BJ: 'books', VJ: 'professional' };

export const dlsiteSection = (workId: number): string => SECTION[splitWorkId(workId).prefix];

/** `base` + `path` with exactly one slash between (a base may carry a path prefix, e.g. a mirror). */
export function joinUrl(base: string, path: string): string {
  return base.replace(/\/+$/, '') + '/' + path.replace(/^\/+/, '');
}

export interface DlsiteBases {
  dlsiteBaseUrl: string;
  dlsiteImageBaseUrl: string;
}

export function productPageUrl(bases: DlsiteBases, workId: number): string {
  return joinUrl(bases.dlsiteBaseUrl, `${dlsiteSection(workId)}/work/=/product_id/${formatWorkCode(workId)}.html`);
}

/** The "dynamic" sales info (counts, price, ratings, rank) keyed by product code. */
export function dynamicInfoUrl(bases: DlsiteBases, workId: number): string {
  return joinUrl(bases.dlsiteBaseUrl, `${dlsiteSection(workId)}/product/info/ajax?product_id=${formatWorkCode(workId)}`);
}

export function productJsonUrl(bases: DlsiteBases, workId: number): string {
  return joinUrl(bases.dlsiteBaseUrl, `${dlsiteSection(workId)}/api/=/product.json?workno=${formatWorkCode(workId)}`);
}

/** The image folder ("bucket") of a work: its digits rounded up to the next multiple of 1000, coded like a work. */
export function coverBucket(workId: number): string {
  const { prefix, digits } = splitWorkId(workId);
  return formatWorkCode(workIdFromParts(prefix, Math.ceil(digits / 1000) * 1000));
}

/** The DLsite image URL of one cover type of a work (`main` and `sam` as published, `240x240` resized). */
export function coverUrl(bases: DlsiteBases, workId: number, type: CoverType): string {
  const { prefix } = splitWorkId(workId);
  const code = formatWorkCode(workId);
  const folder = `images2/work/${IMAGE_DIR[prefix]}/${coverBucket(workId)}`;
  const path = type === '240x240' ? `resize/${folder}/${code}_img_main_240x240.jpg` : `modpub/${folder}/${code}_img_${type}.jpg`;
  return joinUrl(bases.dlsiteImageBaseUrl, path);
}

export function coverUrls(bases: DlsiteBases, workId: number): Record<CoverType, string> {
  return { main: coverUrl(bases, workId, 'main'), sam: coverUrl(bases, workId, 'sam'), '240x240': coverUrl(bases, workId, '240x240') };
}

/** asmr.one's own copies of the covers. */
export function asmrOneCoverUrl(asmrOneBaseUrl: string, workId: number, type: CoverType): string {
  return joinUrl(asmrOneBaseUrl, `api/cover/${formatWorkCode(workId)}.jpg?type=${type}`);
}

export function asmrOneWorkInfoUrl(asmrOneBaseUrl: string, workId: number): string {
  return joinUrl(asmrOneBaseUrl, `api/workInfo/${formatWorkCode(workId)}`);
}

/** HVDB knows doujin (RJ) works only, by their numeric id. */
export function hvdbWorkUrl(hvdbBaseUrl: string, workId: number): string | null {
  const { prefix, digits } = splitWorkId(workId);
  return prefix === 'RJ' ? joinUrl(hvdbBaseUrl, `Dashboard/WorkDetails/${digits}`) : null;
}
