/** The seek bar with current time and duration; re-renders 4× a second from the playback clock, not per frame. */
import { useState } from 'react';
import { Group, Slider, Text } from '@mantine/core';
import { t } from '../../i18n/index.js';
import { useClock } from './clock.js';
import { getEngine } from './engine.js';
import { formatTime } from '../../i18n/format.js';

const quarter = (s: { currentTime: number }) => Math.floor(s.currentTime * 4) / 4;
const durationOf = (s: { duration: number }) => s.duration;

export function ProgressSlider({ size = 'sm', light = false }: { size?: 'xs' | 'sm' | 'md'; light?: boolean }) {
  const current = useClock(quarter);
  const duration = useClock(durationOf);
  const [dragging, setDragging] = useState<number | null>(null);
  const value = dragging ?? Math.min(current, duration || current);
  const color = light ? 'rgba(255,255,255,0.85)' : 'dimmed';
  return (
    <div>
      <Slider
        size={size}
        min={0}
        max={Math.max(duration, 0.01)}
        step={0.01}
        value={value}
        disabled={duration <= 0}
        label={(v) => formatTime(v)}
        thumbLabel={t.player.progress}
        onChange={setDragging}
        onChangeEnd={(v) => {
          setDragging(null);
          getEngine().seek(v);
        }}
        data-testid="player-progress"
        styles={{ thumb: { transition: 'none' }, bar: { transition: 'none' } }}
      />
      <Group justify="space-between" mt={4}>
        <Text size="xs" c={color} ff="monospace" data-testid="player-current-time">
          {formatTime(value)}
        </Text>
        <Text size="xs" c={color} ff="monospace" data-testid="player-duration">
          {formatTime(duration)}
        </Text>
      </Group>
    </div>
  );
}
