/**
 * Walking a work's file tree (docs/API.md#work-detail-files-and-covers): the folder at a path, the wrapper folders
 * skipped on entry, relative paths, queue entries for the player, and each node's AI lyric status —
 * an audio file's from the tasks that belong to it (`tasksForAudio`), a folder's from its children
 *. Pure.
 */
import { aggregateAiStatus, isAiStatusCode, type AiStatusName } from '../../../../server/domain/ai-status.js';
import { tasksForAudio } from '../../../../server/domain/lyric-match.js';
import type { FileNode, FolderNode, TrackNode } from '../../../../server/contract/tracks.js';
import { entryFromNode } from '../player/queue-entry.js';
import type { QueueEntry } from '../player/store.js';

export const isFolder = (node: TrackNode): node is FolderNode => node.type === 'folder';
export const isFile = (node: TrackNode): node is FileNode => node.type !== 'folder';

/** The children of the folder at `path` (folder titles from the root), or null when it does not exist. */
export function folderAt(tree: readonly TrackNode[], path: readonly string[]): TrackNode[] | null {
  let level: readonly TrackNode[] = tree;
  for (const part of path) {
    const next = level.find((n): n is FolderNode => isFolder(n) && n.title === part);
    if (!next) return null;
    level = next.children;
  }
  return [...level];
}

/** Where to open the tree: down through levels that hold nothing but one folder (a wrapper folder). */
export function initialPath(tree: readonly TrackNode[]): string[] {
  const path: string[] = [];
  let level = tree;
  while (level.length === 1 && isFolder(level[0])) {
    path.push(level[0].title);
    level = level[0].children;
  }
  return path;
}

/** `a/b/file.mp3` for a file in folder `['a', 'b']`. */
export const relPath = (folder: readonly string[], title: string): string => [...folder, title].join('/');

/** The folder path as stored in queue entries (`subtitle`): null at the root. */
export const subtitleOf = (folder: readonly string[]): string | null => (folder.length ? folder.join('/') : null);

export const audioFiles = (nodes: readonly TrackNode[]): FileNode[] => nodes.filter((n): n is FileNode => n.type === 'audio');

export const imageFiles = (nodes: readonly TrackNode[]): FileNode[] => nodes.filter((n): n is FileNode => n.type === 'image');

/** Every audio file under a folder, depth first in tree order, with the folder each sits in. */
export function audioBelow(nodes: readonly TrackNode[], folder: readonly string[]): { node: FileNode; folder: string[] }[] {
  const out: { node: FileNode; folder: string[] }[] = [];
  for (const n of nodes) {
    if (isFolder(n)) out.push(...audioBelow(n.children, [...folder, n.title]));
    else if (n.type === 'audio') out.push({ node: n, folder: [...folder] });
  }
  return out;
}

/** The first folder (depth first) that holds audio files, for "play this work". */
export function firstAudioFolder(tree: readonly TrackNode[], folder: string[] = []): { nodes: FileNode[]; folder: string[] } | null {
  const here = audioFiles(tree);
  if (here.length) return { nodes: here, folder };
  for (const n of tree) {
    if (!isFolder(n)) continue;
    const found = firstAudioFolder(n.children, [...folder, n.title]);
    if (found) return found;
  }
  return null;
}

/** Queue entries of every audio file of the work, in tree order ("play all"). */
export const allAudioEntries = (tree: readonly TrackNode[]): QueueEntry[] => audioBelow(tree, []).flatMap(({ node, folder }) => toEntries([node], folder));

export function toEntries(nodes: readonly FileNode[], folder: readonly string[]): QueueEntry[] {
  const subtitle = subtitleOf(folder);
  return nodes.map((n) => entryFromNode(n, subtitle)).filter((e): e is QueueEntry => e !== null);
}

// ---- AI status -------------------------------------------------------------------------------------

export interface TaskLike {
  audio_path: string;
  status: number;
}

const codes = (tasks: readonly TaskLike[]) => tasks.map((t) => t.status).filter(isAiStatusCode);

/** Task paths use the server's separators; the tree uses '/'. */
export const normalizeTasks = <T extends TaskLike>(tasks: readonly T[]): T[] => tasks.map((t) => ({ ...t, audio_path: t.audio_path.replace(/\\/g, '/') }));

/** An audio file's status: its own tasks and those of files whose names match it; success beats error. */
export function audioStatus(path: string, tasks: readonly TaskLike[]): AiStatusName {
  return aggregateAiStatus(codes(tasksForAudio(path, tasks)), 'file');
}

/** A node's status; a folder aggregates its children with error beating success. Other files: none. */
export function nodeStatus(node: TrackNode, folder: readonly string[], tasks: readonly TaskLike[]): AiStatusName {
  if (!tasks.length) return 'none';
  if (isFolder(node)) {
    const inner = [...folder, node.title];
    return aggregateAiStatus(
      node.children.map((c) => nodeStatus(c, inner, tasks)),
      'folder',
    );
  }
  return node.type === 'audio' ? audioStatus(relPath(folder, node.title), tasks) : 'none';
}

/** The whole work's status: what decides whether the tree keeps polling. */
export const workStatus = (tasks: readonly TaskLike[]): AiStatusName => aggregateAiStatus(codes(tasks), 'folder');

/** Index after stepping `delta` through `count` items, wrapping at both ends (the image preview). */
export const wrapIndex = (index: number, delta: number, count: number): number => (count ? (((index + delta) % count) + count) % count : 0);
