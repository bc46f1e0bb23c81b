import { describe, expect, it } from 'vitest';
import { compareCodePoints, compareListPaths, compareTreePaths, naturalCompare, pathSegments } from '../../server/domain/natural-sort.js';

const sorted = (items: string[]) => [...items].sort(naturalCompare);

describe('naturalCompare', () => {
  it.each<[string, string[], string[]]>([
    ['numbers by value', ['track10', 'track2', 'track1'], ['track1', 'track2', 'track10']],
    ['numbers of any length', ['a100000000000000000001', 'a99999999999999999999', 'a3'], ['a3', 'a99999999999999999999', 'a100000000000000000001']],
    ['case-insensitive, exact text breaks ties', ['b', 'a', 'A', 'C'], ['A', 'a', 'b', 'C']],
    ['full-width digits count as digits', ['track１０', 'track２', 'track1'], ['track1', 'track２', 'track１０']],
    ['leading zeros: same value, fewer zeros first', ['track002', 'track2', 'track02'], ['track2', 'track02', 'track002']],
    ['1 before 01, both before 2 and 10', ['10', '01', '2', '1'], ['1', '01', '2', '10']],
    ['full-width digits and leading zeros', ['０１', '１', '1'], ['1', '１', '０１']],
    ['digits before letters', ['b', '1', 'a'], ['1', 'a', 'b']],
    ['prefix first', ['track1a', 'track1', 'track'], ['track', 'track1', 'track1a']],
    ['several number runs', ['v1.10.0', 'v1.2.10', 'v1.2.9'], ['v1.2.9', 'v1.2.10', 'v1.10.0']],
    ['kana order', ['さ', 'か', 'あ'], ['あ', 'か', 'さ']],
    ['CJK with numbers', ['第10話', '第2話', '第1話'], ['第1話', '第2話', '第10話']],
  ])('%s', (_name, items, expected) => {
    expect(sorted(items)).toEqual(expected);
  });

  it('is a total order: only identical strings compare equal, and it is antisymmetric', () => {
    const items = ['a', 'A', 'a1', 'a01', 'ａ', 'b', '𠀀', '\uffe5'];
    for (const x of items) {
      for (const y of items) {
        const c = naturalCompare(x, y);
        if (x === y) expect(c).toBe(0);
        else expect(c).not.toBe(0);
        expect(Math.sign(naturalCompare(y, x)) + Math.sign(c)).toBe(0);
      }
    }
  });

  it('compares astral characters by code point, after the BMP', () => {
    expect(compareCodePoints('𠀀', '\uffe5')).toBe(1);
    expect('𠀀' < '\uffe5').toBe(true); // what plain UTF-16 comparison would wrongly say
    expect(compareCodePoints('ab', 'abc')).toBe(-1);
    expect(compareCodePoints('abc', 'abc')).toBe(0);
  });
});

describe('tree order', () => {
  it('splits paths on / and \\', () => {
    expect(pathSegments('a/b\\c//d')).toEqual(['a', 'b', 'c', 'd']);
  });

  it('orders a work like the contract example, with real nested folders (sub-folders before files)', () => {
    const paths = [
      'track0.mp3',
      'readme.txt',
      'cover.JPG',
      'a.pdf',
      'wav/track1.wav',
      'txt/readme.txt',
      'mp3/SEなし/track10.mp3',
      'mp3/SEなし/track2.mp3',
      'mp3/SEなし/track1.mp3',
      'mp3/track1.mp3',
      'mp3/track1.lrc',
    ];
    expect([...paths].sort(compareTreePaths)).toEqual([
      'mp3/SEなし/track1.mp3',
      'mp3/SEなし/track2.mp3',
      'mp3/SEなし/track10.mp3',
      'mp3/track1.lrc',
      'mp3/track1.mp3',
      'txt/readme.txt',
      'wav/track1.wav',
      'a.pdf',
      'cover.JPG',
      'readme.txt',
      'track0.mp3',
    ]);
  });

  it('orders folders naturally at every level', () => {
    expect(['disc10/01.mp3', 'disc2/01.mp3', 'disc2/cd/01.mp3'].sort(compareTreePaths)).toEqual(['disc2/cd/01.mp3', 'disc2/01.mp3', 'disc10/01.mp3']);
  });

  it('treats identical paths as equal', () => {
    expect(compareTreePaths('a/b.mp3', 'a/b.mp3')).toBe(0);
  });
});

describe('list order', () => {
  const work = [
    'track0.mp3',
    'readme.txt',
    'cover.JPG',
    'a.pdf',
    'wav/track1.wav',
    'txt/readme.txt',
    'mp3/SEなし/track10.mp3',
    'mp3/SEなし/track2.mp3',
    'mp3/SEなし/track1.mp3',
    'mp3/track1.mp3',
    'mp3/track1.lrc',
  ];

  it("orders a work like the contract example: by folder, a folder's files before its sub-folders, root last", () => {
    expect([...work].sort(compareListPaths)).toEqual([
      'mp3/track1.lrc',
      'mp3/track1.mp3',
      'mp3/SEなし/track1.mp3',
      'mp3/SEなし/track2.mp3',
      'mp3/SEなし/track10.mp3',
      'txt/readme.txt',
      'wav/track1.wav',
      'a.pdf',
      'cover.JPG',
      'readme.txt',
      'track0.mp3',
    ]);
  });

  it("differs from the tree order only in where a folder's own files go", () => {
    const list = [...work].sort(compareListPaths);
    const tree = [...work].sort(compareTreePaths);
    expect(list.filter((p) => !p.startsWith('mp3/'))).toEqual(tree.filter((p) => !p.startsWith('mp3/')));
    expect(tree.slice(0, 3)).toEqual(['mp3/SEなし/track1.mp3', 'mp3/SEなし/track2.mp3', 'mp3/SEなし/track10.mp3']);
  });

  it('orders names like naturalCompare: 1 before 01, 2 before 10', () => {
    expect(['d/10.mp3', 'd/01.mp3', 'd/2.mp3', 'd/1.mp3'].sort(compareListPaths)).toEqual(['d/1.mp3', 'd/01.mp3', 'd/2.mp3', 'd/10.mp3']);
    expect(['disc10/a.mp3', 'disc2/a.mp3', 'disc01/a.mp3', 'disc1/a.mp3'].sort(compareListPaths)).toEqual(['disc1/a.mp3', 'disc01/a.mp3', 'disc2/a.mp3', 'disc10/a.mp3']);
    expect(['１０.mp3', '２.mp3', '1.mp3'].sort(compareListPaths)).toEqual(['1.mp3', '２.mp3', '１０.mp3']);
  });

  it("keeps a folder's sub-folders right after it, whatever the separator sorts like", () => {
    expect(['mp3 extra/a.mp3', 'mp3/SE/a.mp3', 'mp3/a.mp3'].sort(compareListPaths)).toEqual(['mp3/a.mp3', 'mp3/SE/a.mp3', 'mp3 extra/a.mp3']);
  });

  it('treats identical paths as equal', () => {
    expect(compareListPaths('a/b.mp3', 'a/b.mp3')).toBe(0);
    expect(compareListPaths('b.mp3', 'b.mp3')).toBe(0);
  });
});
