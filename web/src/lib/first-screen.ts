/**
 * The first screen of a page load before its extras. The work list is what a visit comes for: on a
 * fresh page (nothing compiled or cached yet, seconds of script on a slow machine) the header's
 * controls, the drawer, the player, the list's toolbar and the recent strip are drawn just after the
 * first cards instead of with them. The screen that matters says when its content is on screen
 * (`markFirstScreen`); the extras appear from the frame after that, in a transition (the browser paints
 * in between and input stays responsive). Later screens of the same page load draw everything at once.
 */
import { startTransition, useEffect, useState } from 'react';

/** If no screen says it has drawn its content (it failed), the extras still come after this long. */
const FALLBACK_MS = 3000;

let shown = false;
let scheduled = false;
const listeners = new Set<() => void>();

function reveal(): void {
  if (shown) return;
  shown = true;
  startTransition(() => {
    for (const fn of listeners) fn();
  });
}

/** The first screen's main content has been committed: show the extras once it has been painted. */
export function markFirstScreen(): void {
  if (shown || scheduled) return;
  scheduled = true;
  // the next frame draws the content; the extras render in a task after it
  requestAnimationFrame(() => setTimeout(reveal, 0));
}

/** False until the first screen of this page load has been drawn; true ever after. */
export function useFirstScreenShown(): boolean {
  const [done, setDone] = useState(shown);
  useEffect(() => {
    if (done) return;
    const fn = () => setDone(true);
    listeners.add(fn);
    // shown meanwhile (between the render and this effect)
    if (shown) fn();
    const fallback = setTimeout(() => {
      scheduled = true;
      reveal();
    }, FALLBACK_MS);
    return () => {
      listeners.delete(fn);
      clearTimeout(fallback);
    };
  }, [done]);
  return done;
}
