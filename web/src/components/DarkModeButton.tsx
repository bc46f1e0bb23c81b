import { ActionIcon } from '@mantine/core';
import { HoverTip } from './HoverTip.js';
import { useDarkMode } from './use-dark-mode.js';

/** A compact dark-mode cycle button for screens without the drawer (login). */
export function DarkModeButton() {
  const { label, icon: Icon, cycle, mode } = useDarkMode();
  return (
    <HoverTip label={label}>
      <ActionIcon variant="subtle" color="gray" size="lg" onClick={cycle} aria-label={label} data-mode={mode}>
        <Icon size={20} stroke={1.7} />
      </ActionIcon>
    </HoverTip>
  );
}
