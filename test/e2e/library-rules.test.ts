/**
 * The library screens' rules as pure functions (no browser): advanced search conditions and their
 * messages, the lyric filter, the `page` parameter and the jump input, the list's API calls, the
 * metadata editor's lists, the file tree's paths and AI status aggregation, and the grid's columns.
 * (Kept next to the library's end-to-end tests; they run in a fraction of a second.)
 */
import { describe, expect, it } from 'vitest';
import { addPicked, addTyped, conditionsToWire, matchCandidates, type LabelCandidate, type SearchCondition } from '../../web/src/features/search/search-conditions.js';
import { clampJump, lyricParam, nextLyricOptions, pageCount, parsePage, resetKey, sourceOf, worksRequest, type ListFilters } from '../../web/src/features/works/works-source.js';
import { chunk, columnsFor } from '../../web/src/features/works/layout.js';
import { addLabel, NA_VA, removeLabel, vasToSend } from '../../web/src/features/work-detail/edit-meta.js';
import { audioBelow, firstAudioFolder, folderAt, initialPath, nodeStatus, workStatus, wrapIndex } from '../../web/src/features/work-detail/tree.js';
import type { TrackNode } from '../../server/contract/tracks.js';

const fuzzy = (v: string): SearchCondition => ({ type: 'fuzzy', value: v, name: v });

describe('advanced search conditions', () => {
  it.each([
    ['', 'fuzzy', 'empty'],
    ['   ', 'fuzzy', 'empty'],
    ['山田', 'va', 'pickCandidate'],
    ['耳かき', 'tag', 'pickCandidate'],
    ['サークル', 'circle', 'pickCandidate'],
    ['添い寝', 'fuzzy', 'duplicateKeyword'],
    [' 添い寝 ', 'fuzzy', 'duplicateKeyword'],
  ] as const)('refuses %j typed as %s: %s', (text, type, error) => {
    expect(addTyped([fuzzy('添い寝')], type, text)).toEqual({ ok: false, error });
  });

  it.each([
    ['rj123456', 'RJ123456'],
    ['123456', 'RJ123456'],
    ['RJ01234567', 'RJ01234567'],
    ['bj200001', 'BJ200001'],
    ['vj300001', 'VJ300001'],
  ])('turns a product code %j into a code condition %s', (text, code) => {
    expect(addTyped([], 'fuzzy', text)).toEqual({ ok: true, conditions: [{ type: 'code', value: code, name: code }] });
  });

  it('keeps 7-digit numbers and codes inside words as keywords, refuses a duplicate code', () => {
    expect(addTyped([], 'fuzzy', '1234567')).toEqual({ ok: true, conditions: [fuzzy('1234567')] });
    const code: SearchCondition = { type: 'code', value: 'RJ123456', name: 'RJ123456' };
    expect(addTyped([code], 'fuzzy', 'rj123456')).toEqual({ ok: false, error: 'duplicateCondition' });
  });

  it('adds a picked candidate once', () => {
    const va: SearchCondition = { type: 'va', value: 'uuid-1', name: '山田花子' };
    const added = addPicked([fuzzy('a')], va);
    expect(added).toEqual({ ok: true, conditions: [fuzzy('a'), va] });
    expect(addPicked(added.ok ? added.conditions : [], va)).toEqual({ ok: false, error: 'duplicateCondition' });
  });

  it('sends the conditions in the wire form {t, d, name}', () => {
    const list: SearchCondition[] = [
      fuzzy('kw'),
      { type: 'va', value: 'u', name: 'V' },
      { type: 'tag', value: 3, name: 'T' },
      { type: 'circle', value: 4, name: 'C' },
      { type: 'code', value: 'RJ000001', name: 'RJ000001' },
    ];
    expect(conditionsToWire(list).map((c) => [c.t, c.d])).toEqual([
      [1, 'kw'],
      [2, 'u'],
      [3, 3],
      [4, 4],
      [5, 'RJ000001'],
    ]);
  });

  it('lists candidates containing the text, names that start with it first, then by count', () => {
    const c = (type: LabelCandidate['type'], name: string, count: number): LabelCandidate => ({ type, id: name, name, count });
    const lists = { va: [c('va', '山田花子', 5), c('va', '小山田', 9)], tag: [c('tag', '山', 1)], circle: [c('circle', 'ＡＢＣ', 2)] };
    expect(matchCandidates(lists, 'va', '山田').map((x) => x.name)).toEqual(['山田花子', '小山田']);
    expect(matchCandidates(lists, 'fuzzy', '山').map((x) => x.name)).toEqual(['山田花子', '山', '小山田']);
    expect(matchCandidates(lists, 'circle', 'abc').map((x) => x.name)).toEqual(['ＡＢＣ']);
  });
});

describe('the work list query', () => {
  const filters: ListFilters = { sortField: 'release', sortDirection: 'desc', ageRating: 'nsfw_2', lyricOptions: ['local', 'ai'] };

  it('picks the endpoint from the route and the query', () => {
    const at = (p: string, q = '') => sourceOf(p, new URLSearchParams(q), []);
    expect(worksRequest(at('/works'), filters, 7, 1)).toEqual({ path: '/api/works', query: { page: 1, order: 'release', sort: 'desc', nsfw: 2, lyric: 'ai_local', seed: 7 } });
    expect(worksRequest(at('/works', 'keyword=耳'), filters, 0, 2).path).toBe('/api/search');
    expect(worksRequest(at('/works', 'keyword=耳'), filters, 0, 2).query.keyword).toBe('耳');
    expect(worksRequest(at('/works', 'circleId=12&keyword=x'), filters, 0, 1).path).toBe('/api/circles/12/works');
    expect(worksRequest(at('/works', 'tagId=5'), filters, 0, 1).path).toBe('/api/tags/5/works');
    expect(worksRequest(at('/works', 'vaId=a/b'), filters, 0, 1).path).toBe('/api/vas/a%2Fb/works');
    const advanced = worksRequest(sourceOf('/search', new URLSearchParams('keyword=ignored'), [fuzzy('x')]), filters, 0, 1);
    expect(advanced.query).toMatchObject({ isAdvance: 1, keyword: '[{"t":1,"d":"x","name":"x"}]' });
  });

  it('starts over when anything listed changes, not when the page does', () => {
    const a = resetKey({ kind: 'all' }, filters);
    expect(resetKey({ kind: 'all' }, { ...filters, lyricOptions: ['ai', 'local'] })).toBe(a);
    expect(resetKey({ kind: 'all' }, { ...filters, sortDirection: 'asc' })).not.toBe(a);
    expect(resetKey({ kind: 'keyword', keyword: 'x' }, filters)).not.toBe(a);
  });

  it('joins lyric options; "no lyric" with others leaves only "no lyric"', () => {
    expect(lyricParam([])).toBeUndefined();
    expect(lyricParam(['local'])).toBe('local');
    expect(lyricParam(['local', 'ai'])).toBe('ai_local');
    expect(nextLyricOptions(['local', 'ai'], ['local', 'ai', 'no'])).toEqual(['no']);
    expect(nextLyricOptions(['no'], ['no', 'ai'])).toEqual(['ai']);
    expect(nextLyricOptions(['local'], ['local', 'ai'])).toEqual(['local', 'ai']);
  });

  it.each([
    ['1', 1],
    ['12', 12],
    [' 3 ', 3],
    ['0', null],
    ['-1', null],
    ['1.5', null],
    ['abc', null],
    ['', null],
  ])('reads page %j as %s', (raw, page) => expect(parsePage(raw)).toBe(page));

  it.each([
    ['5', 10, 5],
    ['999', 10, 10],
    ['0', 10, 1],
    ['-3', 10, 1],
    ['2.6', 10, 3],
    ['', 10, null],
    ['x', 10, null],
  ] as const)('clamps a jump to %j of %d pages to %s', (raw, max, page) => expect(clampJump(raw, max)).toBe(page));

  it('counts pages of 12', () => {
    expect([pageCount(0, 12), pageCount(12, 12), pageCount(13, 12)]).toEqual([1, 1, 2]);
  });

  it('fits cards to the width: more compact than detailed, three when zoomed, one in list mode', () => {
    const grid = { list: false, detail: false, zoom: false };
    expect(columnsFor(1184, grid)).toBe(6);
    expect(columnsFor(351, grid)).toBe(2);
    expect(columnsFor(1184, { ...grid, detail: true })).toBe(4);
    expect(columnsFor(1184, { ...grid, zoom: true })).toBe(3);
    expect(columnsFor(1184, { ...grid, list: true })).toBe(1);
    expect(chunk([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
  });
});

describe('the metadata editor', () => {
  const va = (id: number | string, name: string) => ({ id, name });

  it('refuses a duplicate tag or voice actor by id or by name', () => {
    expect(addLabel([va(1, '耳かき')], va(1, '耳かき'), 'tag')).toEqual({ ok: false, error: 'duplicate' });
    expect(addLabel([va(1, '耳かき')], va(0, ' 耳かき '), 'tag')).toEqual({ ok: false, error: 'duplicate' });
    expect(addLabel([va(1, '耳かき')], va(0, '新しい'), 'tag')).toEqual({ ok: true, list: [va(1, '耳かき'), va(0, '新しい')] });
  });

  it('keeps at least one voice actor: N/A stands in, and a real one replaces it', () => {
    const removed = removeLabel([va('u1', '山田')], 0, 'va');
    expect(removed).toEqual({ ok: true, list: [NA_VA], notice: 'noVa' });
    expect(removeLabel([NA_VA], 0, 'va')).toEqual({ ok: false, error: 'noVa' });
    expect(addLabel([NA_VA], va('u2', '佐藤'), 'va')).toEqual({ ok: true, list: [va('u2', '佐藤')] });
    expect(vasToSend([])).toEqual([NA_VA]);
  });
});

describe('the file tree', () => {
  const audio = (hash: string, title: string) => ({ type: 'audio' as const, hash, title, workTitle: 'w', mediaStreamUrl: '', mediaDownloadUrl: '' });
  const tree: TrackNode[] = [
    {
      type: 'folder',
      title: 'wrap',
      children: [
        { type: 'folder', title: 'mp3', children: [audio('1/1', 'a.mp3'), audio('1/2', 'b.mp3')] },
        { type: 'folder', title: 'wav', children: [audio('1/3', 'a.wav')] },
      ],
    },
  ];

  it('opens below wrapper folders and finds folders by path', () => {
    expect(initialPath(tree)).toEqual(['wrap']);
    expect(folderAt(tree, ['wrap', 'mp3'])?.map((n) => n.title)).toEqual(['a.mp3', 'b.mp3']);
    expect(folderAt(tree, ['nope'])).toBeNull();
    expect(firstAudioFolder(tree)?.folder).toEqual(['wrap', 'mp3']);
    expect(audioBelow(tree, []).map((a) => `${a.folder.join('/')}/${a.node.title}`)).toEqual(['wrap/mp3/a.mp3', 'wrap/mp3/b.mp3', 'wrap/wav/a.wav']);
  });

  it('gives files their tasks (same name in another folder too) and folders the sum of their children', () => {
    const tasks = [
      { audio_path: 'wrap/mp3/a.mp3', status: 4 },
      { audio_path: 'wrap/wav/a.wav', status: 3 },
      { audio_path: 'wrap/mp3/b.mp3', status: 1 },
    ];
    const mp3 = (tree[0] as { children: TrackNode[] }).children[0] as { children: TrackNode[] };
    expect(nodeStatus(mp3.children[0], ['wrap', 'mp3'], tasks)).toBe('success'); // a.mp3: error, but a.wav's lyric fits: success beats error
    expect(nodeStatus(mp3.children[1], ['wrap', 'mp3'], tasks)).toBe('pending');
    expect(nodeStatus(tree[0], [], tasks)).toBe('pending'); // pending beats the rest
    const failedOne = [
      { audio_path: 'wrap/mp3/b.mp3', status: 4 },
      { audio_path: 'wrap/wav/a.wav', status: 3 },
    ];
    expect(nodeStatus(mp3.children[0], ['wrap', 'mp3'], failedOne)).toBe('success');
    expect(nodeStatus(tree[0], [], failedOne)).toBe('error'); // in a folder, error beats success
    expect(nodeStatus(tree[0], [], [])).toBe('none');
    expect(
      workStatus([
        { audio_path: 'x', status: 2 },
        { audio_path: 'y', status: 1 },
      ]),
    ).toBe('transcribing');
  });

  it('steps through images wrapping around at both ends', () => {
    expect([wrapIndex(0, -1, 3), wrapIndex(2, 1, 3), wrapIndex(1, 1, 3), wrapIndex(0, 1, 0)]).toEqual([2, 0, 2, 0]);
  });
});
