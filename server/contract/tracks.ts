/**
 * The file tree of a work (`GET /api/tracks/:id`, docs/API.md#work-detail-files-and-covers) and its media URLs
 * (docs/API.md#media).
 * Pure: built from the work's stored file list, never from a directory listing.
 */
import { naturalCompare } from '../domain/natural-sort.js';
import type { FileKind } from '../domain/file-kinds.js';

export type { FileKind };

export interface FolderNode {
  type: 'folder';
  title: string;
  children: TrackNode[];
}

export interface FileNode {
  type: FileKind;
  /** `<workId>/<n>`: n is the file's stable number. */
  hash: string;
  title: string;
  /** Seconds; only on audio files whose duration is known. */
  duration?: number;
  workTitle: string;
  mediaStreamUrl: string;
  mediaDownloadUrl: string;
}

export type TrackNode = FolderNode | FileNode;

/** One stored file of a work. */
export interface TrackFile {
  n: number;
  /** Relative to the work folder, '/' separated. */
  path: string;
  kind: FileKind;
  duration: number | null;
}

/** Where the work lives, for offloaded URLs. */
export interface WorkLocation {
  id: number;
  title: string;
  rootFolder: string;
  dir: string;
}

export interface MediaUrlOptions {
  offloadMedia: boolean;
  offloadStreamPath: string;
  offloadDownloadPath: string;
}

export const trackHash = (workId: number, n: number): string => `${workId}/${n}`;

/**
 * The reverse-proxy URL of a file when `offloadMedia` is on: `<base>/<alias>/<work dir>/<file path>`,
 * every segment percent-encoded (a Location header must be ASCII; proxies decode it back).
 */
export function offloadUrl(base: string, work: Pick<WorkLocation, 'rootFolder' | 'dir'>, filePath: string): string {
  const segments = [work.rootFolder, ...work.dir.split('/'), ...filePath.split('/')].filter((s) => s !== '' && s !== '.');
  const encoded = segments.map(encodeURIComponent).join('/');
  const trimmed = base.replace(/\/+$/, '');
  if (/^https?:\/\//i.test(trimmed)) return `${trimmed}/${encoded}`;
  return `${trimmed.startsWith('/') ? '' : '/'}${trimmed}/${encoded}`.replace(/^\/\//, '/');
}

/**
 * Stream and download URLs of a file: relative API URLs without a token (clients append
 * `?token=`); with `offloadMedia`, the proxy paths for everything except text streams (lyrics are read
 * through the API so their charset is detected).
 */
export function mediaUrls(work: WorkLocation, file: Pick<TrackFile, 'n' | 'path' | 'kind'>, opts: MediaUrlOptions): { stream: string; download: string } {
  const hash = trackHash(work.id, file.n);
  const api = { stream: `/api/media/stream/${hash}`, download: `/api/media/download/${hash}` };
  if (!opts.offloadMedia) return api;
  return {
    stream: file.kind === 'text' ? api.stream : offloadUrl(opts.offloadStreamPath, work, file.path),
    download: offloadUrl(opts.offloadDownloadPath, work, file.path),
  };
}

interface MutableFolder {
  title: string;
  folders: Map<string, MutableFolder>;
  files: { name: string; file: TrackFile }[];
}

const newFolder = (title: string): MutableFolder => ({ title, folders: new Map(), files: [] });

/**
 * The nested tree: a folder per path segment (split on '/' and '\'), sub-folders first, then files,
 * each level in natural order ("track2" before "track10").
 */
export function buildTrackTree(work: WorkLocation, files: TrackFile[], opts: MediaUrlOptions): TrackNode[] {
  const root = newFolder('');
  for (const file of files) {
    const parts = file.path.split(/[/\\]/).filter(Boolean);
    const name = parts.pop();
    if (!name) continue;
    let folder = root;
    for (const part of parts) {
      let next = folder.folders.get(part);
      if (!next) {
        next = newFolder(part);
        folder.folders.set(part, next);
      }
      folder = next;
    }
    folder.files.push({ name, file });
  }
  return toNodes(root, work, opts);
}

function toNodes(folder: MutableFolder, work: WorkLocation, opts: MediaUrlOptions): TrackNode[] {
  const folders = [...folder.folders.values()].sort((a, b) => naturalCompare(a.title, b.title));
  const files = [...folder.files].sort((a, b) => naturalCompare(a.name, b.name));
  const nodes: TrackNode[] = folders.map((f) => ({ type: 'folder', title: f.title, children: toNodes(f, work, opts) }));
  for (const { name, file } of files) {
    const urls = mediaUrls(work, file, opts);
    const node: FileNode = {
      type: file.kind,
      hash: trackHash(work.id, file.n),
      title: name,
      workTitle: work.title,
      mediaStreamUrl: urls.stream,
      mediaDownloadUrl: urls.download,
    };
    if (file.kind === 'audio' && file.duration !== null && Number.isFinite(file.duration)) node.duration = file.duration;
    nodes.push(node);
  }
  return nodes;
}
