/**
 * A work's metadata as the metadata sources (DLsite page + dynamic API, DLsite product.json, HVDB,
 * asmr.one) give it, normalised; the scanner's enrichment queue stores it, fields a user edited are kept.
 * Pure shapes shared by the scanner, the repositories and the cover store.
 */
export interface WorkMetadata {
  title: string;
  circle: { id: number; name: string } | null;
  nsfw: boolean;
  release: string; // YYYY-MM-DD or ''
  tags: { id: number; name: string }[];
  vas: { id: string; name: string }[]; // id = uuidv5(name, VA_NAMESPACE)
  price: number;
  dl_count: number;
  review_count: number;
  rate_count: number;
  rate_average_2dp: number;
  rate_count_detail: { review_point: number; count: number; ratio: number }[] | null;
  rank: { term: string; category: string; rank: number; rank_date: string }[] | null;
  /** Other language editions of the same product: [{ id, name }] (name = edition/language label). */
  related: { id: number; name: string }[] | null;
  /** Cover image URLs by type, when the source knows them. */
  covers: Partial<Record<CoverType, string>>;
  /**
   * The work whose DLsite images are this work's cover (a translated edition often shows the original's);
   * absent when the source does not say. Optional: added after the first version of this contract.
   */
  coverFrom?: number;
  /** Where the data came from. */
  source: 'dlsite' | 'dlsite-json' | 'asmr.one';
}

export type CoverType = 'main' | 'sam' | '240x240';
export const COVER_TYPES: CoverType[] = ['main', 'sam', '240x240'];

/** UUID v5 namespace of voice actor ids (the kikoeru one, docs/API.md#identifiers). */
export const VA_NAMESPACE = '699d9c07-b965-4399-bafd-18a3cacf073c';
