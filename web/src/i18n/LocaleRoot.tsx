/**
 * Renders the app again in the new language when setLocale() switches it: the tree below is keyed by
 * the locale, so every screen (memoized ones too) reads `t` afresh. State that matters lives outside
 * React (the player engine, the query cache, the router), so nothing is lost.
 */
import { Fragment, useSyncExternalStore, type ReactNode } from 'react';
import { locale, subscribeLocale } from './index.js';

export function LocaleRoot({ children }: { children: ReactNode }) {
  const active = useSyncExternalStore(subscribeLocale, locale, locale);
  return <Fragment key={active}>{children}</Fragment>;
}
