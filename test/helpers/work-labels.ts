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
