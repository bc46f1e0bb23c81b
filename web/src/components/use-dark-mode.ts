/** The dark-mode cycle: auto → on → off → auto, with the icon and label of the state. */
import { useMantineColorScheme } from '@mantine/core';
import { IconMoon, IconSun, IconSunMoon, type Icon } from '@tabler/icons-react';
import { t } from '../i18n/index.js';
import { nextDarkMode } from '../lib/color-scheme.js';
import { parseDarkMode, type DarkMode } from '../lib/prefs.js';

/** Labels read in the active language at each call. */
const LOOKS: Record<DarkMode, () => { label: string; icon: Icon }> = {
  auto: () => ({ label: t.darkMode.auto, icon: IconSunMoon }),
  dark: () => ({ label: t.darkMode.on, icon: IconMoon }),
  light: () => ({ label: t.darkMode.off, icon: IconSun }),
};

export function useDarkMode() {
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const mode: DarkMode = parseDarkMode(colorScheme) ?? 'auto';
  return { mode, ...LOOKS[mode](), cycle: () => setColorScheme(nextDarkMode(mode)) };
}
