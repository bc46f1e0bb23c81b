/**
 * The work list's tests (test/e2e/library.test.ts: search, filters, sort, display; library-pages.test.ts:
 * pages, the waterfall, the label lists): their server over the generated test library, scanned and
 * labelled, and the list page's parts they use.
 */
import type { Page } from 'playwright-core';
import { notice } from './browser.js';
import { servedApp, type Api, type ServedApp } from './e2e.js';
import { makeTestLibrary } from './library.js';
import { labelWorks, type WorkLabels } from './work-labels.js';

/**
 * The labels of the generated test library's first four works: two circles, tags and voice actors
 * shared between works, so that every search and list has more than one answer.
 */
const WORK_LIST_LABELS: readonly WorkLabels[] = [
  { id: 100001, title: '耳かきと添い寝 其の一', circle: 'テストサークル', tags: ['耳かき', 'バイノーラル'], vas: ['山田花子'] },
  { id: 100002, title: '耳かきと添い寝 其の二', circle: 'テストサークル', tags: ['耳かき'], vas: ['山田花子', '佐藤さくら'] },
  { id: 100003, title: '雨音の夜', circle: 'テストサークル', tags: ['バイノーラル'], vas: ['佐藤さくら'] },
  { id: 100004, title: '星空のささやき', circle: '別のサークル', tags: ['癒やし'], vas: ['鈴木みどり'] },
];

/** The file's server: the works are only read, so one scanned, labelled library serves every test. */
export const workListApp = (): ServedApp => servedApp({ library: makeTestLibrary, seed: ({ api }) => labelWorks(api, WORK_LIST_LABELS) });

/** The total count of a list route's answer (its pagination). */
export const totalOf = async (api: Api, p: string): Promise<number> => (await api<{ pagination: { totalCount: number } }>('GET', p)).pagination.totalCount;

/** The list page's parts on the page `page()` answers (the running test's own). */
export function workListParts(page: () => Page) {
  return {
    cards: () => page().getByTestId('work-card'),
    list: () => page().getByTestId('works-list'),
    notice: (text: string) => notice(page(), text),
    pickOption: async (testId: string, option: string) => {
      await page().getByTestId(testId).click();
      await page().getByRole('option', { name: option, exact: true }).click();
    },
  };
}
