/**
 * The metadata editor's list rules: no duplicate tag or voice actor, at least one
 * voice actor — with none, the N/A placeholder (id 0) stands in. Pure.
 */
/** An item of the metadata editor's pickers; `id` 0 marks a new, custom item. */
export interface EditLabel {
  id: number | string;
  name: string;
  count?: number;
}

export const NA_VA: EditLabel = { id: 0, name: 'N/A' };

const norm = (s: string) => s.normalize('NFKC').trim().toLowerCase();
const isPlaceholder = (l: EditLabel) => String(l.id) === '0' && l.name === NA_VA.name;

/** Same item: the same non-zero id, or the same name. */
export const sameLabel = (a: EditLabel, b: EditLabel): boolean => (String(a.id) !== '0' && String(a.id) === String(b.id)) || norm(a.name) === norm(b.name);

/** `notice`: the edit went through, and this message tells why the list looks the way it does. */
export type ListEdit = { ok: true; list: EditLabel[]; notice?: 'noVa' } | { ok: false; error: 'duplicate' | 'noVa' };

export function addLabel(list: readonly EditLabel[], item: EditLabel, kind: 'tag' | 'va'): ListEdit {
  if (!item.name.trim()) return { ok: true, list: [...list] };
  // a real voice actor replaces the placeholder
  const base = kind === 'va' ? list.filter((l) => !isPlaceholder(l)) : [...list];
  if (base.some((l) => sameLabel(l, item))) return { ok: false, error: 'duplicate' };
  return { ok: true, list: [...base, { id: item.id, name: item.name.trim() }] };
}

/** Removing the last voice actor leaves the placeholder, with the message; the placeholder itself stays. */
export function removeLabel(list: readonly EditLabel[], index: number, kind: 'tag' | 'va'): ListEdit {
  const next = list.filter((_, i) => i !== index);
  if (kind === 'va' && next.length === 0) {
    return isPlaceholder(list[index]) ? { ok: false, error: 'noVa' } : { ok: true, list: [NA_VA], notice: 'noVa' };
  }
  return { ok: true, list: next };
}

/** The voice actors to send: never empty. */
export const vasToSend = (list: readonly EditLabel[]): EditLabel[] => (list.length ? [...list] : [NA_VA]);
