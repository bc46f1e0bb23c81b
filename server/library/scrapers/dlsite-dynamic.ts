import { asArray, asRecord, asText, toFloat, toInt } from './common.js';
import type { WorkMetadata } from '../../domain/work-metadata.js';

/**
 * Parser of DLsite's dynamic sales info (`/<floor>/product/info/ajax?product_id=<code>`): an object keyed by
 * the product code. A work no longer on sale has no entry (DLsite answers `[]`): null.
 */

export type DynamicInfo = Pick<WorkMetadata, 'dl_count' | 'price' | 'rate_average_2dp' | 'rate_count' | 'rate_count_detail' | 'review_count' | 'rank'>;

export const EMPTY_DYNAMIC_INFO: DynamicInfo = {
  dl_count: 0,
  price: 0,
  rate_average_2dp: 0,
  rate_count: 0,
  rate_count_detail: null,
  review_count: 0,
  rank: null,
};

type RateDetail = NonNullable<WorkMetadata['rate_count_detail']>;
type Rank = NonNullable<WorkMetadata['rank']>;

/** `[{review_point, count, ratio}]`, also accepting DLsite's older `{ "1": count, … }` form. */
export function parseRateCountDetail(v: unknown): RateDetail | null {
  if (Array.isArray(v)) {
    const rows = v.map(asRecord).map((r) => ({ review_point: toInt(r.review_point), count: toInt(r.count), ratio: toInt(r.ratio) }));
    const valid = rows.filter((r) => r.review_point >= 1 && r.review_point <= 5);
    return valid.length ? valid : null;
  }
  const obj = asRecord(v);
  const points = Object.keys(obj).filter((k) => /^[1-5]$/.test(k));
  if (!points.length) return null;
  const total = points.reduce((sum, k) => sum + toInt(obj[k]), 0);
  return points
    .map(Number)
    .sort((a, b) => a - b)
    .map((p) => {
      const count = toInt(obj[String(p)]);
      return { review_point: p, count, ratio: total ? Math.round((count / total) * 100) : 0 };
    });
}

export function parseRank(v: unknown): Rank | null {
  const rows = asArray(v)
    .map(asRecord)
    .map((r) => ({ term: asText(r.term), category: asText(r.category), rank: toInt(r.rank), rank_date: asText(r.rank_date) }))
    .filter((r) => r.term && r.rank > 0);
  return rows.length ? rows : null;
}

/** Fields of a dynamic-info-like record (also used for the counts asmr.one repeats). */
export function dynamicFromRecord(r: Record<string, unknown>): DynamicInfo {
  return {
    dl_count: toInt(r.dl_count),
    price: toInt(r.price),
    rate_average_2dp: Math.round(toFloat(r.rate_average_2dp) * 100) / 100,
    rate_count: toInt(r.rate_count),
    rate_count_detail: parseRateCountDetail(r.rate_count_detail),
    review_count: toInt(r.review_count),
    rank: parseRank(r.rank),
  };
}

export function parseDynamicInfo(json: unknown, code: string): DynamicInfo | null {
  const entry = asRecord(json)[code];
  if (entry === undefined || entry === null || typeof entry !== 'object') return null;
  return dynamicFromRecord(asRecord(entry));
}
