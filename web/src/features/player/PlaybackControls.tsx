/** Volume (0..1) and playback speed (0.5–3×, remembered per user) of the expanded player. */
import { ActionIcon, Button, Group, Menu, Slider } from '@mantine/core';
import { IconVolume, IconVolume2, IconVolume3 } from '@tabler/icons-react';
import { useRef } from 'react';
import { HoverTip } from '../../components/HoverTip.js';
import { t } from '../../i18n/index.js';
import { getEngine } from './engine.js';
import { useEngineState } from './engine-state.js';
import { usePlayerUi } from './player-ui.js';
import { setPlaybackRate, SPEEDS } from './player-user.js';

export function VolumeControl({ width = 110 }: { width?: number }) {
  const volume = useEngineState((s) => s.volume);
  const before = useRef(1);
  const Icon = volume === 0 ? IconVolume3 : volume < 0.5 ? IconVolume2 : IconVolume;
  return (
    <Group gap={4} wrap="nowrap">
      <HoverTip label={volume === 0 ? t.player.unmute : t.player.mute} openDelay={400}>
        <ActionIcon
          variant="subtle"
          color="gray"
          aria-label={volume === 0 ? t.player.unmute : t.player.mute}
          onClick={() => {
            if (volume > 0) {
              before.current = volume;
              getEngine().setVolume(0);
            } else getEngine().setVolume(before.current || 1);
          }}
        >
          <Icon size={20} />
        </ActionIcon>
      </HoverTip>
      <Slider
        w={width}
        size="sm"
        min={0}
        max={1}
        step={0.01}
        value={volume}
        onChange={(v) => getEngine().setVolume(v)}
        label={(v) => `${Math.round(v * 100)}%`}
        thumbLabel={t.player.volume}
        data-testid="player-volume"
      />
    </Group>
  );
}

export function SpeedControl() {
  const rate = useEngineState((s) => s.rate);
  const setMenuOpen = usePlayerUi((s) => s.setMenuOpen);
  return (
    <Menu position="top" withinPortal zIndex={320} onChange={setMenuOpen}>
      <Menu.Target>
        <HoverTip label={t.player.speed} openDelay={400}>
          <Button
            variant={rate === 1 ? 'subtle' : 'light'}
            color={rate === 1 ? 'gray' : undefined}
            size="compact-sm"
            aria-label={`${t.player.speed} ${t.player.speedValue(rate)}`}
            data-testid="player-speed"
            miw={44}
          >
            {t.player.speedValue(rate)}
          </Button>
        </HoverTip>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t.player.speed}</Menu.Label>
        {SPEEDS.map((s) => (
          <Menu.Item key={s} onClick={() => setPlaybackRate(s)} fw={s === rate ? 700 : undefined} c={s === rate ? 'var(--mantine-primary-color-filled)' : undefined}>
            {t.player.speedValue(s)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
