/**
 * Links in long lists as plain `<a href>` elements: a plain left click is followed inside the app (as
 * react-router's Link does), any other click (new tab, new window, download) is left to the browser.
 * One navigate function comes from the list through a context, instead of the half-dozen router hooks
 * each Link runs: a waterfall mounts cards with three links each, a row at a time, while it scrolls.
 */
import { createContext, type MouseEvent } from 'react';
import type { NavigateFunction } from 'react-router';

/** The navigate function of the list the cards are in; without one, links load their page as usual. */
export const FollowLinkContext = createContext<NavigateFunction | null>(null);

/** A click anywhere in a card: if it is a plain left click on one of its in-app links, follow it in the app. */
export function followLink(event: MouseEvent<HTMLElement>, navigate: NavigateFunction | null): void {
  if (!navigate || event.defaultPrevented || event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
  const anchor = (event.target as Element).closest('a');
  if (!anchor || !event.currentTarget.contains(anchor) || !anchor.hasAttribute('data-in-app')) return;
  if (anchor.target && anchor.target !== '_self') return;
  event.preventDefault();
  void navigate(anchor.getAttribute('href') ?? '/');
}
