/** The work list's pure layout helpers: columns per width and mode, rows, and the waterfall's row-by-row growth. */
import { describe, expect, it } from 'vitest';
import { chunk, columnsFor, rowsKeeping, withNextRow } from '../../web/src/features/works/layout.js';

describe('work list layout', () => {
  it('fits as many cards as their narrowest width allows, one column in list mode', () => {
    expect(columnsFor(1000, { list: false, detail: false, zoom: false })).toBe(5); // (1000+12)/(165+12) = 5.7
    expect(columnsFor(1000, { list: false, detail: true, zoom: false })).toBe(4); // (1000+12)/(240+12) = 4.02
    expect(columnsFor(1000, { list: false, detail: false, zoom: true })).toBe(2); // (1000+12)/(340+12) = 2.9
    expect(columnsFor(1000, { list: true, detail: false, zoom: false })).toBe(1);
    expect(columnsFor(100, { list: false, detail: false, zoom: false })).toBe(1);
    expect(columnsFor(0, { list: false, detail: false, zoom: false })).toBe(1);
  });

  it('cuts works into rows, the last one shorter', () => {
    expect(chunk([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(chunk([], 3)).toEqual([]);
  });

  it('cuts the first works into rows, keeping the earlier rows that did not change', () => {
    const works = [1, 2, 3, 4, 5, 6, 7];
    const first = rowsKeeping(works, 5, 2, []);
    expect(first).toEqual([[1, 2], [3, 4], [5]]);
    const grown = rowsKeeping(works, 7, 2, first);
    expect(grown).toEqual([[1, 2], [3, 4], [5, 6], [7]]);
    expect(grown[0]).toBe(first[0]);
    expect(grown[1]).toBe(first[1]);
    expect(grown[2]).not.toBe(first[2]);
    // other works in a kept row's place: a new row
    const changed = rowsKeeping([1, 9, 3, 4], 4, 2, grown);
    expect(changed[0]).toEqual([1, 9]);
    expect(changed[0]).not.toBe(grown[0]);
    expect(changed[1]).toBe(grown[1]);
    expect(rowsKeeping(works, 99, 3, [])).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
  });

  it('grows the waterfall a whole row at a time, completing a partial row and stopping at the end', () => {
    // 12 works drawn in rows of 5, a page of 12 more arrives: 15, 20, 24
    const steps: number[] = [];
    for (let shown = 12; shown < 24;) steps.push((shown = withNextRow(shown, 24, 5)));
    expect(steps).toEqual([15, 20, 24]);
    expect(withNextRow(10, 24, 5)).toBe(15);
    expect(withNextRow(23, 24, 5)).toBe(24);
    expect(withNextRow(0, 3, 7)).toBe(3);
  });
});
