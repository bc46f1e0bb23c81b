/** Mantine's colour scheme kept in the `darkMode` preference (validated, legacy values accepted). */
import type { MantineColorScheme, MantineColorSchemeManager } from '@mantine/core';
import { getPref, resetPref, setPref, subscribePref, type DarkMode } from './prefs.js';

export function prefsColorSchemeManager(): MantineColorSchemeManager {
  let unsubscribe: (() => void) | null = null;
  // Mantine answers an update by calling set() again: our own writes must not be echoed back.
  let writing = false;
  return {
    get: () => getPref('darkMode'),
    set: (value: MantineColorScheme) => {
      writing = true;
      try {
        setPref('darkMode', value);
      } finally {
        writing = false;
      }
    },
    subscribe: (onUpdate) => {
      unsubscribe?.();
      unsubscribe = subscribePref('darkMode', () => {
        if (!writing) onUpdate(getPref('darkMode'));
      });
    },
    unsubscribe: () => {
      unsubscribe?.();
      unsubscribe = null;
    },
    clear: () => resetPref('darkMode'),
  };
}

/** The dark-mode cycle of the drawer: auto → on → off → auto. */
export const nextDarkMode = (mode: DarkMode): DarkMode => (mode === 'auto' ? 'dark' : mode === 'dark' ? 'light' : 'auto');
