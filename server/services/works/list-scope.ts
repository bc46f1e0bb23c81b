import { badRequest } from '../../domain/errors.js';
import type { LabelKind } from '../../contract/labels.js';
import { emptyFilter, filterFromConditions, filterFromKeyword, KeywordError, type ListParams, type WorkFilter } from '../../contract/works-query.js';

/** What a list is restricted to, besides the common parameters. */
export type ListScope = { kind: 'all' } | { kind: 'label'; label: LabelKind; id: number | string } | { kind: 'search'; keyword: string; advanced: boolean };

/** The filter of a list: the common parameters and the scope (a label, a search keyword). */
export function filterOf(params: ListParams, scope: ListScope): WorkFilter {
  const base = { nsfw: params.nsfw, lyric: params.lyric };
  switch (scope.kind) {
    case 'all':
      return emptyFilter(base);
    case 'label': {
      const f = emptyFilter(base);
      if (scope.label === 'circles') f.circleIds.push(Number(scope.id));
      if (scope.label === 'tags') f.tagIds.push(Number(scope.id));
      if (scope.label === 'vas') f.vaIds.push(String(scope.id));
      return f;
    }
    case 'search':
      try {
        return scope.advanced ? filterFromConditions(scope.keyword, base) : filterFromKeyword(scope.keyword, base);
      } catch (err) {
        if (err instanceof KeywordError) throw badRequest(err.message, { code: 'SEARCH_KEYWORD_INVALID', field: 'keyword' });
        throw err;
      }
  }
}
