/** Work-list calls (docs/API.md#work-lists-and-search) and the queries built on them. */
import { apiGet } from '../../api/client.js';
import type { LabelDetail } from '../../../../server/contract/labels.js';
import type { WorkListItem, WorksPage } from '../../../../server/contract/works.js';
import type { LabelKindParam, WorksRequest } from './works-source.js';

export const fetchWorksPage = (req: WorksRequest, signal?: AbortSignal) => apiGet<WorksPage>(req.path, req.query, signal);

export const fetchLabel = (kind: LabelKindParam, id: string, signal?: AbortSignal) => apiGet<LabelDetail>(`/api/${kind}/${encodeURIComponent(id)}`, undefined, signal);

/** One random work (`order=betterRandom`), or null for an empty library. */
export async function fetchRandomWork(signal?: AbortSignal): Promise<WorkListItem | null> {
  const page = await apiGet<WorksPage>('/api/works', { order: 'betterRandom' }, signal);
  return page.works[0] ?? null;
}

/** How many works the library holds, whatever the list's filters: 0 for an empty library. */
export async function fetchLibrarySize(signal?: AbortSignal): Promise<number> {
  const page = await apiGet<WorksPage>('/api/works', { pageSize: 1 }, signal);
  return page.pagination.totalCount;
}

/** Query keys of the work lists: everything under WORKS_KEY is refetched after a rating changes. */
export const WORKS_KEY = ['works'] as const;
