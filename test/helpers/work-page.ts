/**
 * The work page's tests (test/e2e/library-work.test.ts as the admin, library-work-users.test.ts as a
 * user and a guest): the labels they give the generated test library, the work detail the API answers,
 * and the page's parts they use.
 */
import type { Page } from 'playwright-core';
import { notice } from './browser.js';
import type { WorkLabels } from './work-labels.js';

/** Works 100001 and 100003 share a tag; 100004 is the one the admin's edit test changes. */
export const WORK_PAGE_LABELS: readonly WorkLabels[] = [
  { id: 100001, title: '耳かきと添い寝', circle: 'テストサークル', tags: ['耳かき'], vas: ['山田花子'] },
  { id: 100003, title: '雨音の夜', circle: '別のサークル', tags: ['耳かき'], vas: ['佐藤さくら'] },
  { id: 100004, title: '星空のささやき', circle: '別のサークル', tags: ['癒やし'], vas: ['鈴木みどり'] },
];

/** GET /api/work/:id, the fields the tests read. */
export interface WorkDetail {
  title: string;
  userRating: number | null;
  progress: string | null;
  review_text: string | null;
  tags: { name: string }[];
  vas: { name: string }[];
  circle: { name: string };
}

export function workPage(page: Page) {
  return {
    notice: (text: string) => notice(page, text),
    row: (title: string) => page.locator(`[data-testid="tree-item"][data-title="${title}"]`),
    titles: () => page.getByTestId('tree-item').evaluateAll((els) => els.map((el) => (el as unknown as { dataset: { title?: string } }).dataset.title)),
    /**
     * Move the pointer onto star `n` of the work header's rating and answer whether the element that
     * was under it before the move is still in the page once the hover has filled the stars. A click
     * is a mousedown and a mouseup on the same element: one replaced between the two is a lost click.
     */
    starKeptUnderHover: async (n: number) => {
      await page.mouse.move(0, 0);
      const id = await page.getByTestId('work-header').getByLabel(`我的评分 ${n}`).getAttribute('id');
      const box = await page.locator(`label[for="${id}"]`).boundingBox();
      if (!box) throw new Error(`star ${n} is not on the screen`);
      const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
      type Doc = { elementFromPoint(x: number, y: number): { isConnected: boolean } | null };
      type G = { document: Doc; kikoplayUnderStar?: { isConnected: boolean } | null };
      await page.evaluate(
        ([px, py]) => {
          const g = globalThis as unknown as G;
          g.kikoplayUnderStar = g.document.elementFromPoint(px, py);
        },
        [x, y] as const,
      );
      await page.mouse.move(x, y);
      await page.locator('[data-testid="work-rating"] > [data-active]').waitFor(); // the hovered star's group
      return page.evaluate(() => (globalThis as unknown as G).kikoplayUnderStar?.isConnected === true);
    },
    /** Click star `n` of the work header's rating (the radio input itself is visually hidden). */
    star: async (n: number) => {
      const id = await page.getByTestId('work-header').getByLabel(`我的评分 ${n}`).getAttribute('id');
      await page.locator(`label[for="${id}"]`).click();
    },
    rowMenu: async (title: string, item: string) => {
      await page.locator(`[data-testid="tree-item"][data-title="${title}"]`).getByTestId('tree-item-menu').click();
      await page.getByRole('menuitem', { name: item }).click();
    },
  };
}
