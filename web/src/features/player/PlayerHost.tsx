/**
 * Everything of the player the main layout mounts besides the bottom bar: it starts the player for the
 * signed-in user and shows the expanded player, its dialogs, the on-screen lyric bar, the PIP lyric
 * controller, the volume indicator, the button that brings a swiped-away bar back, and the desktop
 * keyboard shortcuts.
 */
import { lazy, Suspense, useEffect } from 'react';
import { useLocation } from 'react-router';
import { ActionIcon, Affix } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconMusic } from '@tabler/icons-react';
import { HoverTip } from '../../components/HoverTip.js';
import { canWriteUser, isAdminUser, type Session } from '../../api/types.js';
import { t } from '../../i18n/index.js';
import { LyricBar } from '../lyrics/LyricBar.js';
import { LyricSelectDialog } from '../lyrics/LyricSelectDialog.js';
import { PipLyricsController, usePipOpen } from '../lyrics/PipLyricsController.js';
import { SyncHelperDialog } from '../lyrics/SyncHelperDialog.js';
import { SleepTimerDialog } from '../sleep-timer/SleepTimerDialog.js';
import { ExpandedPlayer } from './ExpandedPlayer.js';
import { startPlayer } from './player-runtime.js';
import { usePlayerUi } from './player-ui.js';
import { usePlayer } from './store.js';
import { useShortcuts } from './use-shortcuts.js';
import { VolumeIndicator } from './VolumeIndicator.js';

const QueueDialog = lazy(async () => ({ default: (await import('./QueueDialog.js')).QueueDialog }));
const LyricEditor = lazy(async () => ({ default: (await import('../lyrics/LyricEditor.js')).LyricEditor }));

/** Height of the bottom bar (the main layout's footer). */
export const PLAYER_BAR_HEIGHT = 64;

/** The main layout's footer: the bottom bar while something is queued and the bar is not swiped away. */
export function usePlayerFooter(): { height: number; collapsed: boolean } {
  const hasQueue = usePlayer((s) => s.queue.length > 0);
  const hidden = usePlayerUi((s) => s.barHidden);
  return { height: PLAYER_BAR_HEIGHT, collapsed: !hasQueue || hidden };
}

function BarRestoreButton() {
  const hidden = usePlayerUi((s) => s.barHidden);
  const hasQueue = usePlayer((s) => s.queue.length > 0);
  const playing = usePlayer((s) => s.playing);
  if (!hidden || !hasQueue) return null;
  return (
    <Affix position={{ bottom: 20, right: 20 }} zIndex={180}>
      <HoverTip label={t.player.showBar}>
        <ActionIcon
          size={48}
          radius="xl"
          variant={playing ? 'filled' : 'default'}
          aria-label={t.player.showBar}
          onClick={() => usePlayerUi.getState().setBarHidden(false)}
          data-testid="player-bar-restore"
          style={{ boxShadow: 'var(--mantine-shadow-md)' }}
        >
          <IconMusic size={22} />
        </ActionIcon>
      </HoverTip>
    </Affix>
  );
}

export function PlayerHost({ session }: { session: Session | undefined }) {
  const dialog = usePlayerUi((s) => s.dialog);
  const close = usePlayerUi((s) => s.close);
  const pipOpen = usePipOpen((s) => s.open);
  const { pathname } = useLocation();
  const desktop = useMediaQuery('(hover: hover) and (pointer: fine)', undefined, { getInitialValueInEffect: false });
  const userName = session?.user.name;
  const admin = isAdminUser(session?.user);
  const canWrite = canWriteUser(session?.user);

  useEffect(() => {
    if (userName !== undefined) startPlayer({ name: userName, admin, canWrite });
  }, [userName, admin, canWrite]);

  useShortcuts(desktop);
  const fullScreenPage = pathname.startsWith('/fullScreenPlayer');

  return (
    <>
      <ExpandedPlayer />
      {!pipOpen && !fullScreenPage && <LyricBar />}
      <PipLyricsController />
      <VolumeIndicator />
      <BarRestoreButton />
      <LyricSelectDialog opened={dialog === 'lyricSelect'} onClose={close} />
      <SyncHelperDialog opened={dialog === 'syncHelper'} onClose={close} />
      <SleepTimerDialog opened={dialog === 'sleepTimer'} onClose={close} />
      <Suspense fallback={null}>
        {dialog === 'queue' && <QueueDialog opened onClose={close} />}
        {dialog === 'lyricEditor' && <LyricEditor opened onClose={close} />}
      </Suspense>
    </>
  );
}
