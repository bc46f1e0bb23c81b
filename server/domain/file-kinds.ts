/**
 * File classification of a work folder (server/library/README.md#files-of-a-work): the one table, shared by
 * the scanner, duration probes, the track tree, lyric matching and the web player. Pure string rules.
 *
 * | class     | extensions (any case)                                              | kind    | lyric |
 * |-----------|--------------------------------------------------------------------|---------|-------|
 * | media     | .mp3 .ogg .opus .wav .aac .flac .webm .mp4 .m4a .mka               | audio   | no    |
 * | subtitle  | .lrc .srt .vtt .ass                                                | text    | yes   |
 * | image     | .jpg .jpeg .png .webp                                              | image   | no    |
 * | text      | .txt                                                               | text    | no    |
 * | document  | .pdf                                                               | other   | no    |
 * Everything else (.zip, .bmp, .gif, .doc, .mkv, files without extension, …) is left out entirely.
 * Hidden files are classified like any other (`.hidden.mp3` is audio).
 */
export type FileKind = 'audio' | 'text' | 'image' | 'other';

export interface FileClass {
  kind: FileKind;
  /** Counts as a local lyric file (`lyric_status` "local"): all subtitle extensions, `.ass` included. */
  isLyric: boolean;
  /** Media (audio or video container) whose duration is probed. */
  isMedia: boolean;
}

export const MEDIA_EXTENSIONS = ['.mp3', '.ogg', '.opus', '.wav', '.aac', '.flac', '.webm', '.mp4', '.m4a', '.mka'] as const;
export const SUBTITLE_EXTENSIONS = ['.lrc', '.srt', '.vtt', '.ass'] as const;
/** Subtitle files the player can load, in check-lrc priority order. `.ass` is listed but not loadable. */
export const LOADABLE_LYRIC_EXTENSIONS = ['.lrc', '.srt', '.vtt'] as const;
export const IMAGE_EXTENSIONS = ['.jpg', '.jpeg', '.png', '.webp'] as const;
/** Containers the player plays through a `<video>` element (they may carry a picture track). */
export const VIDEO_EXTENSIONS = ['.mp4', '.webm', '.mka'] as const;

const CLASSES = new Map<string, FileClass>([
  ...MEDIA_EXTENSIONS.map((e) => [e, { kind: 'audio', isLyric: false, isMedia: true }] as const),
  ...SUBTITLE_EXTENSIONS.map((e) => [e, { kind: 'text', isLyric: true, isMedia: false }] as const),
  ...IMAGE_EXTENSIONS.map((e) => [e, { kind: 'image', isLyric: false, isMedia: false }] as const),
  ['.txt', { kind: 'text', isLyric: false, isMedia: false }],
  ['.pdf', { kind: 'other', isLyric: false, isMedia: false }],
]);

/** Last path segment of a `/` or `\` separated path. */
export function baseName(path: string): string {
  const i = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return i < 0 ? path : path.slice(i + 1);
}

/**
 * Lower-case extension with its dot (`.mp3`), or '' when there is none. As in Node's `path.extname`, a
 * leading dot does not start an extension (`.mp3` alone is a hidden file with no extension).
 */
export function extensionOf(path: string): string {
  const name = baseName(path);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot).toLowerCase() : '';
}

/** The name without its last extension (`a.mp3.lrc` → `a.mp3`). */
export function stemOf(path: string): string {
  const name = baseName(path);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}

/** Class of a file by its name or path, or null when the file is not part of a work's track list. */
export function classifyFile(path: string): FileClass | null {
  return CLASSES.get(extensionOf(path)) ?? null;
}

/**
 * The extension meant by an argument that is either an extension (`mp4`, `.MP4`) or a file name or path
 * (`a.mp4`, `dir/.hidden.mp4`).
 */
function extensionArg(extOrName: string): string {
  return /^\.?[a-z0-9]+$/i.test(extOrName) ? ('.' + extOrName.replace(/^\./, '')).toLowerCase() : extensionOf(extOrName);
}

const inList = (list: readonly string[], extOrName: string): boolean => list.includes(extensionArg(extOrName));

/** Played through a `<video>` element. Takes an extension or a file name. */
export const isVideo = (extOrName: string): boolean => inList(VIDEO_EXTENSIONS, extOrName);
export const isMedia = (extOrName: string): boolean => inList(MEDIA_EXTENSIONS, extOrName);
export const isSubtitle = (extOrName: string): boolean => inList(SUBTITLE_EXTENSIONS, extOrName);
/** `.lrc`, `.srt` or `.vtt`: a subtitle the player can load. */
export const isLoadableLyric = (extOrName: string): boolean => inList(LOADABLE_LYRIC_EXTENSIONS, extOrName);
