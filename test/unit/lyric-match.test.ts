import { describe, expect, it } from 'vitest';
import { AiStatus } from '../../server/domain/ai-status.js';
import {
  audioStem,
  boundedEditDistance,
  findExactLyric,
  folderOf,
  lyricStem,
  matchLyricName,
  matchLyricPath,
  rankLyricCandidates,
  tasksForAudio,
  MAX_FUZZY_CHARS,
  type MatchGrade,
} from '../../server/domain/lyric-match.js';

describe('paths and stems', () => {
  it.each([
    ['track.mp3', ''],
    ['mp3/track.mp3', 'mp3'],
    ['mp3/SEなし/track.mp3', 'mp3/SEなし'],
    ['mp3\\SEなし\\track.mp3', 'mp3/SEなし'],
  ])('folderOf(%s) = %j', (path, folder) => {
    expect(folderOf(path)).toBe(folder);
  });

  it.each([
    ['a/track01.mp3', 'track01'],
    ['01.intro.mp3', '01.intro'],
    ['noext', 'noext'],
  ])('audioStem(%s) = %s', (path, stem) => {
    expect(audioStem(path)).toBe(stem);
  });

  it.each([
    ['track01.lrc', 'track01'],
    ['track01.mp3.lrc', 'track01'],
    ['track01.WAV.vtt', 'track01'],
    ['01.intro.srt', '01.intro'],
    ['track01.ass', 'track01'],
    ['x/track01.flac.LRC', 'track01'],
  ])('lyricStem(%s) = %s', (path, stem) => {
    expect(lyricStem(path)).toBe(stem);
  });
});

describe('findExactLyric (check-lrc)', () => {
  const audio = 'mp3/track01.mp3';

  it.each<[string, string[], { path: string; extension: string } | null]>([
    ['stem + .lrc', ['mp3/track01.lrc'], { path: 'mp3/track01.lrc', extension: '.lrc' }],
    ['stem + .LRC (extension reported lower case)', ['mp3/track01.LRC'], { path: 'mp3/track01.LRC', extension: '.lrc' }],
    ['full name + .lrc', ['mp3/track01.mp3.lrc'], { path: 'mp3/track01.mp3.lrc', extension: '.lrc' }],
    ['full name + .VTT', ['mp3/track01.mp3.VTT'], { path: 'mp3/track01.mp3.VTT', extension: '.vtt' }],
    ['.srt', ['mp3/track01.srt'], { path: 'mp3/track01.srt', extension: '.srt' }],
    ['.lrc beats .srt beats .vtt', ['mp3/track01.vtt', 'mp3/track01.srt', 'mp3/track01.lrc'], { path: 'mp3/track01.lrc', extension: '.lrc' }],
    ['.srt beats .vtt', ['mp3/track01.vtt', 'mp3/track01.mp3.srt'], { path: 'mp3/track01.mp3.srt', extension: '.srt' }],
    ['stem beats full name', ['mp3/track01.mp3.lrc', 'mp3/track01.lrc'], { path: 'mp3/track01.lrc', extension: '.lrc' }],
    ['exact case beats other case', ['mp3/TRACK01.lrc', 'mp3/track01.LRC'], { path: 'mp3/track01.LRC', extension: '.lrc' }],
    ['a name in another case (case-insensitive disk)', ['mp3/Track01.Lrc'], { path: 'mp3/Track01.Lrc', extension: '.lrc' }],
    ['another folder does not count', ['track01.lrc', 'mp3/sub/track01.lrc', 'txt/track01.lrc'], null],
    ['.ass is never loaded', ['mp3/track01.ass'], null],
    ['a similar name is not exact', ['mp3/track01_ja.lrc', 'mp3/track1.lrc'], null],
    ['no lyric at all', ['mp3/track01.mp3', 'mp3/cover.jpg'], null],
  ])('%s', (_name, files, want) => {
    expect(findExactLyric(audio, [audio, ...files])).toEqual(want);
  });

  it('works at the work root and with backslash paths', () => {
    expect(findExactLyric('a.mp3', ['a.mp3', 'a.lrc'])).toEqual({ path: 'a.lrc', extension: '.lrc' });
    expect(findExactLyric('mp3\\a.mp3', ['mp3\\a.vtt'])).toEqual({ path: 'mp3\\a.vtt', extension: '.vtt' });
  });
});

describe('matchLyricName (fuzzy rule)', () => {
  it.each<[string, string, string, MatchGrade | null]>([
    // equal
    ['equal names', 'track01', 'track01', 'exact'],
    ['equal after case folding', 'Track01', 'TRACK01', 'exact'],
    ['equal after NFKC (full-width)', 'ｔｒａｃｋ０１', 'track01', 'exact'],
    // contains, both ways
    ['audio contains lyric', '01_オープニング_SEあり', '01_オープニング', 'contains'],
    ['lyric contains audio (language suffix)', 'track01', 'track01_ja', 'contains'],
    ['contains ignores case', '01 Opening', '01 OPENING (translated)', 'contains'],
    ['contains never splits a number', 'track10', 'track1', null],
    ['… nor at the start of a number', 'track110', 'track10', null],
    // SE variants
    ['あり ↔ なし', 'SEあり', 'SEなし', 'contains'],
    ['なし ↔ あり', '01_本編_SEなし', '01_本編_SEあり', 'contains'],
    ['有り ↔ 無し', '効果音有り', '効果音無し', 'contains'],
    ['有 ↔ 無', 'SE有', 'SE無', 'contains'],
    ['swapped audio name contained in the lyric name', 'SEあり', '01_SEなし', 'contains'],
    // track-number guard
    ['differ only by a track number', 'track1', 'track10', null],
    ['differ only by numbers, CJK', '第1話 はじめまして', '第2話 はじめまして', null],
    ['differ only by leading numbers', '01 intro', '02 intro', null],
    ['same number written with zeros', 'track01', 'track1', 'fuzzy'],
    ['fuzzy stages never bridge different numbers', '01 はじめにのご挨拶', '02 はじめにのご挨拶編', null],
    ['the guard needs numbers on both sides: plain containment still counts', 'オープニング', 'オープニング2', 'contains'],
    // equal length, small edit distance
    ['equal length, distance 1', 'track_a', 'track_b', null],
    ['equal length, distance 2', 'ささやきA', 'つぶやきA', null],
    // similarity
    ['similarity above 0.8', 'おやすみなさいのキス', 'おやすみなさいのキスね', 'contains'],
    ['similarity above 0.8 (typo + extra)', 'goodnight kiss', 'good night kiss!', 'fuzzy'],
    ['similarity 0.8 and a weak edge match', 'good night kiss', 'good nite kiss', null],
    ['similarity exactly 0.8 is not enough', 'abcde', 'abcdxy', null],
    // edge match
    ['edge match above 0.9', '耳かき本編パート', '耳かき本編の長い追加説明パート', 'fuzzy'],
    ['edge match at most 0.9', '耳かき本編パート', '耳かき前編の長い追加説明パート', null],
    ['edge match: same start and end, longer middle', 'お姉さんの耳かきと添い寝ボイス', 'お姉さんの耳かきとたっぷり添い寝ボイス', 'fuzzy'],
    // unrelated
    ['unrelated names', 'opening', 'ending', null],
    ['empty names never match', '', 'track', null],
  ])('%s: %j vs %j', (_name, audio, lyric, grade) => {
    expect(matchLyricName(audio, lyric)).toBe(grade);
  });

  it('applies to paths with stems taken properly', () => {
    expect(matchLyricPath('mp3/track01.mp3', 'lrc/track01.mp3.lrc')).toBe('exact');
    expect(matchLyricPath('mp3/01.intro.mp3', 'vtt/01.vtt')).toBe('contains');
  });
});

describe('rankLyricCandidates (query-lrc)', () => {
  const audio = 'mp3/track01.mp3';
  const files = [
    { path: 'mp3/track01.lrc', hash: '7/1' },
    { path: 'mp3/track01.mp3.vtt', hash: '7/2' },
    { path: 'vtt/track01.vtt', hash: '7/3' },
    { path: 'mp3/track01_ja.srt', hash: '7/4' },
    { path: 'lyrics/track01 翻訳版.lrc', hash: '7/5' },
    { path: 'mp3/track02.lrc', hash: '7/6' },
    { path: 'mp3/track10.lrc', hash: '7/7' },
    { path: 'readme.txt', hash: '7/8' },
    { path: 'mp3/track01.ass', hash: '7/9' },
    { path: 'mp3/track01.mp3', hash: '7/10' },
    { path: 'mp3/trak01.lrc', hash: '7/11' },
  ];
  const tasks = [
    { id: 11, audio_path: 'mp3/track01.mp3', status: AiStatus.SUCCESS },
    { id: 12, audio_path: 'wav/track01.wav', status: AiStatus.SUCCESS },
    { id: 13, audio_path: 'mp3/track02.mp3', status: AiStatus.SUCCESS },
    { id: 14, audio_path: 'mp3/track01.mp3', status: AiStatus.ERROR },
    { id: 15, audio_path: 'mp3/track03.mp3', status: AiStatus.PENDING },
  ];

  it('lists local lyric files and successful AI lyrics with their match level, best first', () => {
    expect(rankLyricCandidates(audio, files, tasks)).toEqual([
      { title: 'track01.lrc', subtitle: 'mp3', hash: '7/1', isAI: false, matchLevel: 0 },
      { title: 'track01.mp3.vtt', subtitle: 'mp3', hash: '7/2', isAI: false, matchLevel: 0 },
      { title: 'track01.mp3.lrc', subtitle: 'mp3', hash: 11, isAI: true, matchLevel: 0 },
      { title: 'track01.vtt', subtitle: 'vtt', hash: '7/3', isAI: false, matchLevel: 0.5 },
      { title: 'track01.wav.lrc', subtitle: 'wav', hash: 12, isAI: true, matchLevel: 0.5 },
      { title: 'track01_ja.srt', subtitle: 'mp3', hash: '7/4', isAI: false, matchLevel: 1 },
      { title: 'track01 翻訳版.lrc', subtitle: 'lyrics', hash: '7/5', isAI: false, matchLevel: 1.5 },
      { title: 'trak01.lrc', subtitle: 'mp3', hash: '7/11', isAI: false, matchLevel: 2 },
      { title: 'track02.lrc', subtitle: 'mp3', hash: '7/6', isAI: false, matchLevel: -1 },
      { title: 'track10.lrc', subtitle: 'mp3', hash: '7/7', isAI: false, matchLevel: -1 },
      { title: 'track02.mp3.lrc', subtitle: 'mp3', hash: 13, isAI: true, matchLevel: -1 },
    ]);
  });

  it('uses "" as the folder of files at the work root', () => {
    expect(rankLyricCandidates('a.mp3', [{ path: 'a.lrc', hash: '1/0' }], [])).toEqual([{ title: 'a.lrc', subtitle: '', hash: '1/0', isAI: false, matchLevel: 0 }]);
  });

  it('gives an empty list when the work has no lyrics', () => {
    expect(rankLyricCandidates(audio, [{ path: 'cover.jpg', hash: '1/0' }], [{ id: 1, audio_path: audio, status: AiStatus.PENDING }])).toEqual([]);
  });
});

describe('tasksForAudio (tree status badges)', () => {
  const tasks = [
    { id: 1, audio_path: 'SEあり/01_はじめに.mp3' },
    { id: 2, audio_path: 'SEなし/01_はじめに.mp3' },
    { id: 3, audio_path: 'SEあり/02_耳かき.mp3' },
    { id: 4, audio_path: 'wav/01_はじめに_SEなし.wav' },
  ];

  it('attaches the task of the file itself and of matching names elsewhere', () => {
    expect(tasksForAudio('SEあり/01_はじめに.mp3', tasks).map((t) => t.id)).toEqual([1, 2, 4]);
  });

  it('does not attach other tracks', () => {
    expect(tasksForAudio('SEあり/03_おやすみ.mp3', tasks)).toEqual([]);
  });
});

describe('bounded work on big inputs (issue 18 item 2)', () => {
  /** Full-matrix Levenshtein, the reference. */
  const reference = (a: string[], b: string[]): number => {
    let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      const row = [i];
      for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = row;
    }
    return prev[b.length];
  };
  let seed = 7;
  const random = (n: number) => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n;
  const word = (len: number, alphabet: number) => Array.from({ length: len }, () => 'abcdefgh'[random(alphabet)]);

  it('boundedEditDistance equals the full distance up to its limit, and limit + 1 beyond', () => {
    for (let k = 0; k < 400; k++) {
      const a = word(random(30), 1 + random(8));
      const b = random(2) ? word(random(30), 1 + random(8)) : [...a.slice(0, random(a.length + 1)), ...word(random(4), 3), ...a.slice(random(a.length + 1))];
      const limit = random(12);
      const full = reference(a, b);
      expect(boundedEditDistance(a, b, limit), `${a.join('')} / ${b.join('')} ≤ ${limit}`).toBe(Math.min(full, limit + 1));
    }
  });

  it('keeps the fuzzy grades of names up to the longest file name', () => {
    const long = 'あ'.repeat(MAX_FUZZY_CHARS - 10) + 'いうえおか';
    expect(matchLyricName(long, long.slice(0, -5) + 'いうえおきく')).toBe('fuzzy');
    expect(matchLyricName(long, long.slice(0, -5) + 'いうえおき')).toBeNull(); // same length, distance 1
    expect(matchLyricName(long, 'ん'.repeat(MAX_FUZZY_CHARS))).toBeNull();
  });

  it('does not spend length² on names longer than any file system allows', () => {
    // the old full matrix needed 4·10⁸ cells for this one pair (seconds); contains and exact still apply
    const a = 'あ'.repeat(20_000) + 'い';
    const b = 'あ'.repeat(20_000) + 'う';
    const start = performance.now();
    expect(matchLyricName(a, b)).toBeNull();
    expect(matchLyricName(a, a)).toBe('exact');
    expect(matchLyricName(a, a + 'x')).toBe('contains');
    expect(performance.now() - start).toBeLessThan(1000);
  });
});
