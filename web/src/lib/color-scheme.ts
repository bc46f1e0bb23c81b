/** Mantine's colour scheme kept in the `darkMode` preference (validated, legacy values accepted). */
import type { MantineColorScheme, MantineColorSchemeManager } from '@mantine/core';
import { getPref, resetPref, setPref, subscribePref, type DarkMode } from './prefs.js';

export function prefsColorSchemeManager(): MantineColorSchemeManager {
  let unsubscribe: (() => void) | null = null;
  return {
    get: () => getPref('darkMode'),
    set: (value: MantineColorScheme) => setPref('darkMode', value),
    subscribe: (onUpdate) => {
      unsubscribe?.();
      unsubscribe = subscribePref('darkMode', () => onUpdate(getPref('darkMode')));
    },
    unsubscribe: () => {
      unsubscribe?.();
      unsubscribe = null;
    },
    clear: () => resetPref('darkMode'),
  };
}

/** The dark-mode cycle of the drawer (spec §4): auto → on → off → auto. */
export const nextDarkMode = (mode: DarkMode): DarkMode => (mode === 'auto' ? 'dark' : mode === 'dark' ? 'light' : 'auto');
