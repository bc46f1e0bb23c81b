/**
 * Where a library screen opens: at the top when the user went somewhere new (a link, a search), where it
 * was when the user went back (browser back/forward). The window's scroll position is remembered per
 * history entry; the work list restores it once its (cached) works are on screen again — a virtualised
 * list needs a few frames to grow to its height, so the restore retries for a short while.
 */
import { useEffect, useLayoutEffect, useRef } from 'react';
import { useLocation, useNavigationType } from 'react-router';

const positions = new Map<string, number>();
const MAX_FRAMES = 180;
const STEADY_FRAMES = 10;
/** The virtual list settles its own scroll position shortly after it mounts: hold at least this long. */
const MIN_HOLD_MS = 800;
const USER_SCROLL = ['wheel', 'touchstart', 'keydown', 'mousedown'] as const;

/**
 * Remember this entry's scroll position; scroll to the top when arriving by a new navigation. Returns
 * the position remembered for the entry when the screen came up (before any scroll event of the new
 * screen — the browser clamping a short page — could overwrite it).
 */
function useTrackScroll(): { key: string; back: boolean; saved: { current: number | undefined } } {
  const { key } = useLocation();
  const back = useNavigationType() === 'POP';
  const saved = useRef<number | undefined>(undefined);

  // a layout effect: its cleanup runs while the screen is taken down, before the browser clamps the
  // scroll position of the shorter page that replaces it (that scroll event must not be recorded)
  useLayoutEffect(() => {
    saved.current = positions.get(key);
    const save = () => positions.set(key, window.scrollY);
    window.addEventListener('scroll', save, { passive: true });
    return () => window.removeEventListener('scroll', save);
  }, [key]);

  useEffect(() => {
    if (!back) window.scrollTo(0, 0);
  }, [key, back]);

  return { key, back, saved };
}

/** Screens that show everything at once: top on arrival, the browser restores nothing it cannot. */
export function useScrollToTop(): void {
  useTrackScroll();
}

/** Top on arrival; on going back, the remembered position once `ready`. Returns the entry and how it was reached. */
export function useScrollMemory(ready: boolean): { key: string; back: boolean } {
  const { key, back, saved } = useTrackScroll();

  useEffect(() => {
    if (!ready || !back) return;
    const target = saved.current;
    if (!target) return;
    // rows above the viewport are measured as they render and move things: hold the position until it
    // has stayed put for a few frames; the user scrolling takes over at once
    let frames = 0;
    let steady = 0;
    let handle = 0;
    const started = performance.now();
    const stop = () => {
      cancelAnimationFrame(handle);
      for (const type of USER_SCROLL) window.removeEventListener(type, stop);
    };
    const step = () => {
      if (Math.abs(window.scrollY - target) > 2) {
        steady = 0;
        window.scrollTo(0, target);
      } else steady++;
      const holding = steady < STEADY_FRAMES || performance.now() - started < MIN_HOLD_MS;
      if (holding && ++frames < MAX_FRAMES) handle = requestAnimationFrame(step);
      else stop();
    };
    for (const type of USER_SCROLL) window.addEventListener(type, stop, { passive: true });
    handle = requestAnimationFrame(step);
    return stop;
  }, [key, ready, back, saved]);
  return { key, back };
}
