/** How many works fit in a row (the display toggles). Pure. */

export interface DisplayMode {
  list: boolean;
  detail: boolean;
  /** Effective zoom: only in grid mode and on screens at least ZOOM_MIN_WIDTH wide. */
  zoom: boolean;
}

/** Zoom is offered from this window width up. */
export const ZOOM_MIN_WIDTH = 1120;
/** Labels are offered in list mode above this window width. */
export const LABEL_MIN_WIDTH = 700;

export const GRID_GAP = 12;

/** Narrowest a card may get, per display mode. */
function minCardWidth(mode: DisplayMode): number {
  if (mode.zoom) return 340;
  return mode.detail ? 240 : 165;
}

export function columnsFor(width: number, mode: DisplayMode): number {
  if (mode.list) return 1;
  if (width <= 0) return 1;
  return Math.max(1, Math.floor((width + GRID_GAP) / (minCardWidth(mode) + GRID_GAP)));
}

export function chunk<T>(items: readonly T[], size: number): T[][] {
  const rows: T[][] = [];
  for (let i = 0; i < items.length; i += size) rows.push(items.slice(i, i + size));
  return rows;
}

/**
 * The first `count` items cut into rows of `size`, keeping each row of `prev` whose items are the
 * same (same array, so memoised rows do not re-render): a list that grows only allocates its new
 * rows, and nothing is sliced twice.
 */
export function rowsKeeping<T>(items: readonly T[], count: number, size: number, prev: readonly T[][]): T[][] {
  const end = Math.min(count, items.length);
  const rows: T[][] = [];
  for (let start = 0, i = 0; start < end; start += size, i++) {
    const length = Math.min(size, end - start);
    const old = prev[i];
    let same = old !== undefined && old.length === length;
    for (let j = 0; same && j < length; j++) same = old![j] === items[start + j];
    rows.push(same ? old! : items.slice(start, start + length));
  }
  return rows;
}

/**
 * How many works to draw after `shown` when `count` are loaded, adding one row at a time: a partly
 * drawn last row is completed first, and the end of the list is not passed.
 */
export function withNextRow(shown: number, count: number, columns: number): number {
  return Math.min(count, (Math.floor(shown / columns) + 1) * columns);
}
