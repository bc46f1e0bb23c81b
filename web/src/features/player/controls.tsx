/** Small player controls shared by the bottom bar, the expanded player and the full-screen page. */
import { ActionIcon, Loader, type ActionIconProps } from '@mantine/core';
import {
  IconArrowsRight,
  IconArrowsShuffle,
  IconPlayerPauseFilled,
  IconPlayerPlayFilled,
  IconPlayerTrackNextFilled,
  IconPlayerTrackPrevFilled,
  IconRepeat,
  IconRepeatOnce,
  IconRewindBackward10,
  IconRewindBackward30,
  IconRewindBackward5,
  IconRewindForward10,
  IconRewindForward30,
  IconRewindForward5,
  type Icon,
} from '@tabler/icons-react';
import { HoverTip } from '../../components/HoverTip.js';
import type { PlayMode } from '../../../../server/domain/player-queue.js';
import { t } from '../../i18n/index.js';
import { useSharedConfig } from '../../lib/shared-config.js';
import { getEngine } from './engine.js';
import { useEngineState } from './engine-state.js';
import { usePlayer } from './store.js';
import classes from './player.module.css';

type ButtonProps = Omit<ActionIconProps, 'children'> & { iconSize?: number };

/** The seek icons come in 5, 10 and 30 s: the nearest one stands for other times. */
function nearest<T>(seconds: number, icons: Record<5 | 10 | 30, T>): T {
  const choice = ([5, 10, 30] as const).reduce((best, c) => (Math.abs(c - seconds) < Math.abs(best - seconds) ? c : best), 5 as 5 | 10 | 30);
  return icons[choice];
}

export const rewindIcon = (s: number): Icon => nearest(s, { 5: IconRewindBackward5, 10: IconRewindBackward10, 30: IconRewindBackward30 });
export const forwardIcon = (s: number): Icon => nearest(s, { 5: IconRewindForward5, 10: IconRewindForward10, 30: IconRewindForward30 });

function Control({ label, icon: I, onClick, iconSize = 22, testId, disabled, ...rest }: ButtonProps & { label: string; icon: Icon; onClick(): void; testId?: string }) {
  return (
    <HoverTip label={label} openDelay={400}>
      <ActionIcon variant="subtle" color="gray" size="xl" radius="xl" aria-label={label} onClick={onClick} data-testid={testId} disabled={disabled} className={classes.control} {...rest}>
        <I size={iconSize} />
      </ActionIcon>
    </HoverTip>
  );
}

export function PlayPauseButton({ iconSize = 26, ...rest }: ButtonProps) {
  const playing = usePlayer((s) => s.playing);
  const empty = usePlayer((s) => s.queue.length === 0);
  const buffering = useEngineState((s) => s.buffering);
  const label = playing ? t.player.pause : t.player.play;
  return (
    <HoverTip label={label} openDelay={400}>
      <ActionIcon
        variant="filled"
        size="xl"
        radius="xl"
        aria-label={label}
        data-testid="player-toggle"
        data-playing={playing}
        disabled={empty}
        onClick={() => usePlayer.getState().togglePlaying()}
        {...rest}
      >
        {buffering && playing ? <Loader size={iconSize - 4} color="white" /> : playing ? <IconPlayerPauseFilled size={iconSize} /> : <IconPlayerPlayFilled size={iconSize} />}
      </ActionIcon>
    </HoverTip>
  );
}

export function PreviousButton(props: ButtonProps) {
  const can = usePlayer((s) => s.index > 0);
  return <Control label={t.player.previous} icon={IconPlayerTrackPrevFilled} onClick={() => usePlayer.getState().previous()} disabled={!can} testId="player-previous" {...props} />;
}

export function NextButton(props: ButtonProps) {
  const can = usePlayer((s) => s.index + 1 < s.queue.length);
  return <Control label={t.player.next} icon={IconPlayerTrackNextFilled} onClick={() => usePlayer.getState().next()} disabled={!can} testId="player-next" {...props} />;
}

export function RewindButton(props: ButtonProps) {
  const seconds = useSharedConfig((s) => s.rewindSeekTime);
  return <Control label={t.player.rewind(seconds)} icon={rewindIcon(seconds)} onClick={() => getEngine().seekBy(-seconds)} testId="player-rewind" {...props} />;
}

export function ForwardButton(props: ButtonProps) {
  const seconds = useSharedConfig((s) => s.forwardSeekTime);
  return <Control label={t.player.forward(seconds)} icon={forwardIcon(seconds)} onClick={() => getEngine().seekBy(seconds)} testId="player-forward" {...props} />;
}

const MODE_ICONS: Record<PlayMode, Icon> = { order: IconArrowsRight, allRepeat: IconRepeat, repeatOnce: IconRepeatOnce, shuffle: IconArrowsShuffle };

export function PlayModeButton(props: ButtonProps) {
  const mode = usePlayer((s) => s.mode);
  return (
    <Control
      label={t.player.modes[mode]}
      icon={MODE_ICONS[mode]}
      onClick={() => usePlayer.getState().cycleMode()}
      testId="player-mode"
      data-mode={mode}
      color={mode === 'order' ? 'gray' : undefined}
      {...props}
    />
  );
}
