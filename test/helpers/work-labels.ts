/**
 * Titles, circles, tags and voice actors for works of a scanned library (an offline scan knows none),
 * set through the admin's edit API: the seeds of the browser tests.
 */
import type { Api } from './e2e.js';

export interface WorkLabels {
  id: number;
  title: string;
  circle: string;
  tags: readonly string[];
  vas: readonly string[];
}

/** Set each work's title and labels, in order. */
export async function labelWorks(api: Api, works: readonly WorkLabels[]): Promise<void> {
  const label = (name: string) => ({ id: 0, name });
  for (const w of works) {
    await api('POST', `/api/edit/work/${w.id}`, { title: w.title, circle: label(w.circle), tags: w.tags.map(label), vas: w.vas.map(label) });
  }
}

/**
 * The labels of the generated test library's first four works (makeTestLibrary) for the work list
 * tests: two circles, tags and voice actors shared between works, so that every search and list has
 * more than one answer.
 */
export const WORK_LIST_LABELS: readonly WorkLabels[] = [
  { id: 100001, title: '耳かきと添い寝 其の一', circle: 'テストサークル', tags: ['耳かき', 'バイノーラル'], vas: ['山田花子'] },
  { id: 100002, title: '耳かきと添い寝 其の二', circle: 'テストサークル', tags: ['耳かき'], vas: ['山田花子', '佐藤さくら'] },
  { id: 100003, title: '雨音の夜', circle: 'テストサークル', tags: ['バイノーラル'], vas: ['佐藤さくら'] },
  { id: 100004, title: '星空のささやき', circle: '別のサークル', tags: ['癒やし'], vas: ['鈴木みどり'] },
];
