/**
 * Queue entries and saved play states as they travel: built from the file tree, stored in play history
 * (`state = {queue, index, seconds}`, stored verbatim by the server) and read back — also from states
 * written by the older kikoeru clients, whose entries are whole tree nodes without `workId`/`subtitle`.
 * Pure: no DOM, no store.
 */
import { isVideo } from '../../../../server/domain/file-kinds.js';

/** A queue entry, as the kikoeru clients store it in play history. */
export interface QueueEntry {
  /** `<workId>/<n>` */
  hash: string;
  title: string;
  /** folder path inside the work, '' or null at its root */
  subtitle: string | null;
  workTitle: string;
  workId: number;
  mediaStreamUrl?: string;
  mediaDownloadUrl?: string;
  /** seconds, when known */
  duration?: number;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const HASH = /^(\d{1,15})\/(\d{1,9})$/;

/** The work id of a track hash `<workId>/<n>`, or null when it is not one. */
export function workIdOfHash(hash: string): number | null {
  const m = HASH.exec(hash);
  return m ? Number(m[1]) : null;
}

/**
 * A queue entry from anything that looks like one (our entries, anchor tree nodes); null when it has no
 * usable hash or title. Unknown fields are dropped.
 */
export function normalizeEntry(raw: unknown): QueueEntry | null {
  if (!isRecord(raw)) return null;
  const { hash, title } = raw;
  if (typeof hash !== 'string' || typeof title !== 'string' || !title) return null;
  const fromHash = workIdOfHash(hash);
  if (fromHash === null) return null;
  const workId = typeof raw.workId === 'number' && Number.isSafeInteger(raw.workId) ? raw.workId : fromHash;
  const entry: QueueEntry = {
    hash,
    title,
    subtitle: typeof raw.subtitle === 'string' && raw.subtitle ? raw.subtitle : null,
    workTitle: typeof raw.workTitle === 'string' ? raw.workTitle : '',
    workId,
  };
  if (typeof raw.mediaStreamUrl === 'string' && raw.mediaStreamUrl) entry.mediaStreamUrl = raw.mediaStreamUrl;
  if (typeof raw.mediaDownloadUrl === 'string' && raw.mediaDownloadUrl) entry.mediaDownloadUrl = raw.mediaDownloadUrl;
  if (typeof raw.duration === 'number' && Number.isFinite(raw.duration) && raw.duration >= 0) entry.duration = raw.duration;
  return entry;
}

/** A play state: the queue, the current index and the second to resume at. */
export interface PlayState {
  queue: QueueEntry[];
  index: number;
  seconds: number;
}

/**
 * Reads a saved play state. Entries that cannot be played are dropped (the index follows the entry it
 * pointed at; when that one is gone, the first entry). Null when nothing playable is left.
 */
export function parsePlayState(raw: unknown): PlayState | null {
  if (!isRecord(raw) || !Array.isArray(raw.queue)) return null;
  const wanted = typeof raw.index === 'number' && Number.isInteger(raw.index) ? raw.index : 0;
  const queue: QueueEntry[] = [];
  let index = 0;
  raw.queue.forEach((item, i) => {
    const entry = normalizeEntry(item);
    if (!entry) return;
    if (i === wanted) index = queue.length;
    queue.push(entry);
  });
  if (!queue.length) return null;
  const keptCurrent = normalizeEntry(raw.queue[wanted]) !== null;
  const seconds = keptCurrent && typeof raw.seconds === 'number' && Number.isFinite(raw.seconds) && raw.seconds > 0 ? raw.seconds : 0;
  return { queue, index: keptCurrent ? index : 0, seconds };
}

/** Path of the entry's file inside its work (`folder/file.mp3`). */
export const entryPath = (entry: Pick<QueueEntry, 'subtitle' | 'title'>): string => (entry.subtitle ? `${entry.subtitle.replace(/\\/g, '/')}/${entry.title}` : entry.title);

/** Played through the `<video>` element (mp4, webm, mka). */
export const isVideoEntry = (entry: Pick<QueueEntry, 'title'>): boolean => isVideo(entry.title);

/** The media URL of an entry, before the token is added: its own stream URL, else the API's. */
export function entryMediaPath(entry: Pick<QueueEntry, 'hash' | 'mediaStreamUrl'>): string {
  return entry.mediaStreamUrl || `/api/media/stream/${entry.hash.split('/').map(encodeURIComponent).join('/')}`;
}

/** A tree node of `GET /api/tracks/:id` as a queue entry (`subtitle` = the folder path it sits in). */
export function entryFromNode(
  node: { hash: string; title: string; workTitle: string; mediaStreamUrl?: string; mediaDownloadUrl?: string; duration?: number },
  folder: string | null,
): QueueEntry | null {
  return normalizeEntry({ ...node, subtitle: folder });
}

/** The state saved to play history: plain entries, seconds with two decimals. */
export function toPlayState(queue: readonly QueueEntry[], index: number, seconds: number): PlayState {
  return { queue: queue.map((e) => ({ ...e })), index, seconds: Math.max(0, Math.round(seconds * 100) / 100) };
}
