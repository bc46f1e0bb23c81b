/**
 * Going back to the work list puts the page where it was: the window's scroll position is remembered per
 * history entry and restored once the (cached) works are on screen again. The virtualised list needs a
 * few frames to grow to its height, so the restore retries for a short while.
 */
import { useEffect } from 'react';
import { useLocation } from 'react-router';

const positions = new Map<string, number>();
const MAX_FRAMES = 30;

export function useScrollMemory(ready: boolean): void {
  const { key } = useLocation();

  useEffect(() => {
    const save = () => positions.set(key, window.scrollY);
    window.addEventListener('scroll', save, { passive: true });
    return () => window.removeEventListener('scroll', save);
  }, [key]);

  useEffect(() => {
    if (!ready) return;
    const target = positions.get(key);
    if (!target) return;
    let frame = 0;
    let handle = 0;
    const step = () => {
      window.scrollTo(0, target);
      if (Math.abs(window.scrollY - target) > 2 && ++frame < MAX_FRAMES) handle = requestAnimationFrame(step);
    };
    handle = requestAnimationFrame(step);
    return () => cancelAnimationFrame(handle);
  }, [key, ready]);
}
