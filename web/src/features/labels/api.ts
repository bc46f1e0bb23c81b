/** `GET /api/{circles,tags,vas}`: every label with its number of works, count descending (docs/API.md#labels). */
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../api/client.js';
import type { LabelItem, LabelKind } from '../../../../server/contract/labels.js';

export const fetchLabels = (kind: LabelKind, signal?: AbortSignal) => apiGet<LabelItem[]>(`/api/${kind}`, undefined, signal);

export const labelsKey = (kind: LabelKind) => ['labels', kind] as const;

/** The whole list, cached for a few minutes (the server answers 304 while the library is unchanged). */
export function useLabels(kind: LabelKind, enabled = true) {
  return useQuery({ queryKey: labelsKey(kind), queryFn: ({ signal }) => fetchLabels(kind, signal), staleTime: 5 * 60_000, enabled });
}
