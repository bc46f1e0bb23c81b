/**
 * The first screen of a page load before its extras. The work list is what a visit comes for: on a
 * fresh page (nothing compiled or cached yet, seconds of script on a slow machine) the header's
 * controls, the drawer, the player, the list's toolbar and the recent strip are drawn just after the
 * first cards instead of with them. The screen that matters says when its content is on screen
 * (`markFirstScreen`); the extras then appear stage by stage (`FirstScreenStage`), one stage a frame,
 * each in a transition: every commit stays small, the browser paints in between and input (a user
 * already scrolling the list) stays responsive. Later screens of the same page load draw everything at
 * once.
 */
import { startTransition, useEffect, useState } from 'react';

/**
 * The order the extras appear in: what sits with the cards first (the recent strip too: it moves the
 * list down, better at once than while someone reads), the player last.
 */
export const FirstScreenStage = { list: 0, header: 1, navigation: 2, player: 3 } as const;
export type FirstScreenStage = (typeof FirstScreenStage)[keyof typeof FirstScreenStage];
const LAST_STAGE = FirstScreenStage.player;

/** If no screen says it has drawn its content (it failed), the extras still come after this long. */
const FALLBACK_MS = 3000;

/** The highest stage shown so far (-1: none). */
let shownStage = -1;
let scheduled = false;
const listeners = new Map<number, Set<() => void>>();

const nextFrame = (fn: () => void) => requestAnimationFrame(() => setTimeout(fn, 0));

function showStage(stage: number): void {
  if (stage <= shownStage) return;
  const from = shownStage + 1;
  shownStage = stage;
  startTransition(() => {
    for (let s = from; s <= stage; s++) for (const fn of listeners.get(s) ?? []) fn();
  });
}

function revealStepwise(): void {
  showStage(shownStage + 1);
  if (shownStage < LAST_STAGE) nextFrame(revealStepwise);
}

/** The first screen's main content has been committed: show the extras once it has been painted. */
export function markFirstScreen(): void {
  if (shownStage >= 0 || scheduled) return;
  scheduled = true;
  // the next frame draws the content; the extras render in tasks after it
  nextFrame(revealStepwise);
}

/** False until this stage of the first screen's extras is shown; true ever after. */
export function useFirstScreenShown(stage: FirstScreenStage): boolean {
  const [done, setDone] = useState(shownStage >= stage);
  useEffect(() => {
    if (done) return;
    const fn = () => setDone(true);
    let set = listeners.get(stage);
    if (!set) listeners.set(stage, (set = new Set()));
    set.add(fn);
    // shown meanwhile (between the render and this effect)
    if (shownStage >= stage) fn();
    const fallback = setTimeout(() => {
      scheduled = true;
      showStage(LAST_STAGE);
    }, FALLBACK_MS);
    return () => {
      set.delete(fn);
      clearTimeout(fallback);
    };
  }, [done, stage]);
  return done;
}
