/**
 * What a metadata source returns for a work (server/domain/work-metadata.ts holds the shapes) and the
 * interface the scanner fetches through.
 */
import type { CoverType, WorkMetadata } from '../../domain/work-metadata.js';
import type { HostOutage } from './http-fetch.js';

export type MetadataResult = { ok: true; metadata: WorkMetadata; warnings: string[] } | { ok: false; notFound: boolean; error: string; warnings: string[] };

/** Fetches metadata for one work id. Implementations take base URLs, timeouts and proxy from config. */
export interface MetadataSource {
  /**
   * Metadata of one work. Source failures are `warnings`; `notFound` means every source answered "no such
   * work". When `signal` aborts, the promise rejects at once with `signal.reason` (never a failed result).
   */
  fetch(workId: number, signal?: AbortSignal): Promise<MetadataResult>;
  /** Download one cover image; null when the source has none. Rejects on network/server failures. */
  fetchCover(workId: number, type: CoverType, signal?: AbortSignal): Promise<Buffer | null>;
  /** Sites given up as unreachable since the last call (each reported once); the scanner logs them. */
  takeOutages?(): HostOutage[];
  /** True when every site a metadata fetch asks is given up: a fetch fails at once without a request. */
  unreachable?(): boolean;
}
