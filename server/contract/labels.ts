/**
 * Circles, tags and voice actors on the wire (docs/API.md#labels). Pure.
 */

export const LABEL_KINDS = ['circles', 'tags', 'vas'] as const;
/** The route segment: `/api/circles`, `/api/tags`, `/api/vas`. */
export type LabelKind = (typeof LABEL_KINDS)[number];

/** `GET /api/{circles,tags,vas}` items: count desc, then name. */
export interface LabelItem {
  id: number | string;
  name: string;
  /** Number of listed (non-missing) works linked to the label. */
  count: number;
}

/** `GET /api/{circles,tags,vas}/:id`. */
export interface LabelDetail {
  id: number | string;
  name: string;
  count: number;
}

/** 404 texts of the contract. */
export const LABEL_NOT_FOUND: Record<LabelKind, (id: number | string) => string> = {
  circles: (id) => `社团${id}不存在`,
  tags: (id) => `标签${id}不存在`,
  // a voice actor id is free text up to 64 characters: not repeated (error bodies never echo input)
  vas: () => '声优不存在',
};
