/**
 * File classification of server/library/README.md#files-of-a-work (case-insensitive extensions). Files of any other
 * extension are not part of a work's file list at all.
 *
 * Local to the scanner until a shared `server/domain/file-kinds.ts` exists; keep the two tables equal.
 */
export type FileKind = 'audio' | 'text' | 'image' | 'other';

export interface FileClass {
  kind: FileKind;
  /** `.lrc .srt .vtt .ass`: counts as "has local lyric". */
  isLyric: boolean;
  /** Media (audio or video container) whose duration is probed. */
  isMedia: boolean;
}

const TABLE = new Map<string, FileClass>();
const add = (exts: string[], c: FileClass) => exts.forEach((e) => TABLE.set(e, c));
add(['.mp3', '.ogg', '.opus', '.wav', '.aac', '.flac', '.webm', '.mp4', '.m4a', '.mka'], { kind: 'audio', isLyric: false, isMedia: true });
add(['.lrc', '.srt', '.vtt', '.ass'], { kind: 'text', isLyric: true, isMedia: false });
add(['.txt'], { kind: 'text', isLyric: false, isMedia: false });
add(['.jpg', '.jpeg', '.png', '.webp'], { kind: 'image', isLyric: false, isMedia: false });
add(['.pdf'], { kind: 'other', isLyric: false, isMedia: false });

/** Lower-cased extension with the dot ('' when none). */
export function extOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 || (dot === 0 && name.length > 1) ? name.slice(dot).toLowerCase() : '';
}

/** The class of a file name, or null when the file is not listed. */
export function classifyFile(name: string): FileClass | null {
  return TABLE.get(extOf(name)) ?? null;
}
