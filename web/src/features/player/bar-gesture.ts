/**
 * Swipe gestures on the bottom bar: idle → a press →
 * up (show the player), down (hide the bar) or horizontal (seek by dragging). A move of 15 px
 * vertically or 10 px horizontally decides the direction; holding still for 500 ms also enters
 * horizontal. Pure: the bar feeds pointer positions and times in, acts on what `endGesture` says.
 */
export const SWIPE_VERTICAL_PX = 15;
export const SWIPE_HORIZONTAL_PX = 10;
export const HOLD_MS = 500;

export type GesturePhase = 'idle' | 'pressed' | 'up' | 'down' | 'horizontal';

export interface GestureState {
  phase: GesturePhase;
  startX: number;
  startY: number;
  startTime: number;
  x: number;
  y: number;
}

export const IDLE: GestureState = { phase: 'idle', startX: 0, startY: 0, startTime: 0, x: 0, y: 0 };

export function startGesture(x: number, y: number, time: number): GestureState {
  return { phase: 'pressed', startX: x, startY: y, startTime: time, x, y };
}

/** A pointer move. Once a direction is chosen it stays for the rest of the gesture. */
export function moveGesture(s: GestureState, x: number, y: number, time: number): GestureState {
  if (s.phase === 'idle') return s;
  const next = { ...s, x, y };
  if (s.phase !== 'pressed') return next;
  const dx = x - s.startX;
  const dy = y - s.startY;
  if (Math.abs(dy) >= SWIPE_VERTICAL_PX && Math.abs(dy) > Math.abs(dx)) return { ...next, phase: dy < 0 ? 'up' : 'down' };
  if (Math.abs(dx) >= SWIPE_HORIZONTAL_PX) return { ...next, phase: 'horizontal' };
  if (time - s.startTime >= HOLD_MS) return { ...next, phase: 'horizontal' };
  return next;
}

/** The hold timer fired: a press that has not moved enough becomes a horizontal drag. */
export function holdGesture(s: GestureState, time: number): GestureState {
  return s.phase === 'pressed' && time - s.startTime >= HOLD_MS ? { ...s, phase: 'horizontal' } : s;
}

export type GestureOutcome =
  | { action: 'none' }
  /** A short press without movement: the bar's own click handles it. */
  | { action: 'tap' }
  | { action: 'open' }
  | { action: 'hide' }
  | { action: 'seek'; dx: number };

export function endGesture(s: GestureState): GestureOutcome {
  switch (s.phase) {
    case 'pressed':
      return { action: 'tap' };
    case 'up':
      return { action: 'open' };
    case 'down':
      return { action: 'hide' };
    case 'horizontal':
      return { action: 'seek', dx: s.x - s.startX };
    default:
      return { action: 'none' };
  }
}

/**
 * Seconds a horizontal drag of `dx` px moves on a bar `width` px wide: the whole bar spans the track,
 * at most 3 minutes, so short and long tracks both seek precisely.
 */
export function dragSeconds(dx: number, width: number, duration: number): number {
  if (!(width > 0) || !(duration > 0)) return 0;
  return (dx / width) * Math.min(duration, 180);
}

/** Where a drag lands, within the track. */
export function dragTarget(current: number, dx: number, width: number, duration: number): number {
  return Math.min(Math.max(0, current + dragSeconds(dx, width, duration)), Math.max(0, duration));
}
