/**
 * The width of an element's content box (CSS px, what its children lay out in), kept up to date by a
 * ResizeObserver; 0 until measured. Only a change of width re-renders: the work list grows taller with
 * every row it adds, and a size hook that also tracked the height re-rendered the whole page for each.
 */
import { useCallback, useState } from 'react';

export function useElementWidth<T extends HTMLElement = HTMLDivElement>(): { ref: (el: T | null) => (() => void) | undefined; width: number } {
  const [width, setWidth] = useState(0);
  const ref = useCallback((el: T | null) => {
    if (!el) return undefined;
    const observer = new ResizeObserver((entries) => {
      const entry = entries[entries.length - 1];
      // the same number again is not a change (React skips the render)
      if (entry) setWidth(entry.contentRect.width);
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}
