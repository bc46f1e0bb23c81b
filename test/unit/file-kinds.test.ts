import { describe, expect, it } from 'vitest';
import { type FileClass, baseName, classifyFile, extensionOf, isLoadableLyric, isMedia, isSubtitle, isVideo, stemOf } from '../../server/domain/file-kinds.js';

describe('classifyFile', () => {
  it.each<[string, FileClass]>([
    ...['.mp3', '.ogg', '.opus', '.wav', '.aac', '.flac', '.webm', '.mp4', '.m4a', '.mka'].map((e): [string, FileClass] => [`a${e}`, { kind: 'audio', isLyric: false, isMedia: true }]),
    ...['.lrc', '.srt', '.vtt', '.ass'].map((e): [string, FileClass] => [`a${e}`, { kind: 'text', isLyric: true, isMedia: false }]),
    ...['.jpg', '.jpeg', '.png', '.webp'].map((e): [string, FileClass] => [`a${e}`, { kind: 'image', isLyric: false, isMedia: false }]),
    ['readme.txt', { kind: 'text', isLyric: false, isMedia: false }],
    ['manual.pdf', { kind: 'other', isLyric: false, isMedia: false }],
    ['TRACK.MP3', { kind: 'audio', isLyric: false, isMedia: true }],
    ['Cover.JPG', { kind: 'image', isLyric: false, isMedia: false }],
    ['dir/sub/lyric.LRC', { kind: 'text', isLyric: true, isMedia: false }],
    ['dir\\sub\\a.Flac', { kind: 'audio', isLyric: false, isMedia: true }],
    ['.hidden.mp3', { kind: 'audio', isLyric: false, isMedia: true }],
    ['.folder/a.wav', { kind: 'audio', isLyric: false, isMedia: true }],
    ['a.mp3.lrc', { kind: 'text', isLyric: true, isMedia: false }],
  ])('%s → %o', (name, cls) => {
    expect(classifyFile(name)).toEqual(cls);
  });

  it.each(['a.zip', 'a.bmp', 'a.gif', 'a.doc', 'a.mkv', 'noext', '.mp3', 'dir.mp3/file', 'a.', 'a.mp3.bak'])('excludes %s', (name) => {
    expect(classifyFile(name)).toBeNull();
  });
});

describe('name helpers', () => {
  it.each([
    ['a/b/c.mp3', 'c.mp3', '.mp3', 'c'],
    ['a\\b\\C.Mp3', 'C.Mp3', '.mp3', 'C'],
    ['track.mp3.lrc', 'track.mp3.lrc', '.lrc', 'track.mp3'],
    ['.hidden', '.hidden', '', '.hidden'],
    ['noext', 'noext', '', 'noext'],
  ])('%s: base %s, extension %j, stem %s', (path, base, ext, stem) => {
    expect(baseName(path)).toBe(base);
    expect(extensionOf(path)).toBe(ext);
    expect(stemOf(path)).toBe(stem);
  });
});

describe('predicates', () => {
  it.each([
    ['mp4', true],
    ['.mp4', true],
    ['.MP4', true],
    ['.webm', true],
    ['mka', true],
    ['movie.mp4', true],
    ['dir/.hidden.webm', true],
    ['.mp3', false],
    ['.m4a', false],
    ['.mkv', false],
    ['', false],
  ])('isVideo(%j) = %s', (arg, want) => {
    expect(isVideo(arg)).toBe(want);
  });

  it('tells media, subtitles and loadable lyrics apart', () => {
    expect(isMedia('.flac')).toBe(true);
    expect(isMedia('a.txt')).toBe(false);
    expect(isSubtitle('.ass')).toBe(true);
    expect(isLoadableLyric('.ass')).toBe(false);
    expect(isLoadableLyric('a.VTT')).toBe(true);
    expect(isLoadableLyric('srt')).toBe(true);
  });
});
