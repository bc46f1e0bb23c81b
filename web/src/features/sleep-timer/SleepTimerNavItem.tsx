/** The drawer entry of the sleep timer: opens the dialog and shows the time left while it runs. */
import { NavItem } from '../../components/NavItem.js';
import { IconZzz } from '@tabler/icons-react';
import { t } from '../../i18n/index.js';
import { usePref } from '../../lib/prefs.js';
import { usePlayerUi } from '../player/player-ui.js';
import { remainingText } from './sleep-time.js';
import { useNow } from './use-now.js';

export function SleepTimerNavItem({ mini, onNavigate }: { mini: boolean; onNavigate?: () => void }) {
  const [timer] = usePref('sleepTimer');
  const now = useNow(timer !== null);
  const open = usePlayerUi((s) => s.open);
  return (
    <NavItem
      icon={IconZzz}
      label={t.player.sleep.title}
      description={timer ? remainingText(timer, now) : undefined}
      active={timer !== null}
      mini={mini}
      testId="sleep-timer-entry"
      onClick={() => {
        open('sleepTimer');
        onNavigate?.();
      }}
    />
  );
}
