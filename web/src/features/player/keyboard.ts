/**
 * Desktop keyboard shortcuts: what a key press asks the player to do. Pure: the player
 * host turns commands into engine calls. Keys typed into a field, and presses with Ctrl/Cmd/Alt, are
 * left alone.
 *
 * | key                  | command                         |
 * |----------------------|---------------------------------|
 * | Space, K             | play / pause                    |
 * | ←, J / →, L          | rewind / forward (seek times)   |
 * | ↑ / ↓                | volume ± 0.04                   |
 * | Shift+← / Shift+→, P / N | previous / next track       |
 */
export const VOLUME_STEP = 0.04;
/** The volume indicator hides this long after the last change. */
export const VOLUME_INDICATOR_MS = 1000;

export type KeyCommand = { type: 'toggle' } | { type: 'seek'; direction: -1 | 1 } | { type: 'volume'; delta: number } | { type: 'next' } | { type: 'previous' };

export interface KeyPress {
  key: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  /** The event comes from an input, a textarea, a select or editable content. */
  editable: boolean;
  /** Auto-repeat of a held key. */
  repeat?: boolean;
}

export function commandForKey(e: KeyPress): KeyCommand | null {
  if (e.editable || e.ctrlKey || e.metaKey || e.altKey) return null;
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  switch (key) {
    case ' ':
    case 'k':
      return e.repeat ? null : { type: 'toggle' };
    case 'ArrowLeft':
      return e.shiftKey ? (e.repeat ? null : { type: 'previous' }) : { type: 'seek', direction: -1 };
    case 'ArrowRight':
      return e.shiftKey ? (e.repeat ? null : { type: 'next' }) : { type: 'seek', direction: 1 };
    case 'j':
      return { type: 'seek', direction: -1 };
    case 'l':
      return { type: 'seek', direction: 1 };
    case 'ArrowUp':
      return { type: 'volume', delta: VOLUME_STEP };
    case 'ArrowDown':
      return { type: 'volume', delta: -VOLUME_STEP };
    case 'n':
      return e.repeat ? null : { type: 'next' };
    case 'p':
      return e.repeat ? null : { type: 'previous' };
    default:
      return null;
  }
}

/** Volume after a step, within 0..1, without float dust (0.04 × 25 = 1). */
export function stepVolume(volume: number, delta: number): number {
  return Math.min(1, Math.max(0, Math.round((volume + delta) * 100) / 100));
}
