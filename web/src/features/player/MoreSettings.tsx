/** The expanded player's more-settings menu (local preferences). */
import { useState } from 'react';
import { ActionIcon, Button, Divider, Group, Popover, Slider, Stack, Switch, Text } from '@mantine/core';
import { IconDotsVertical, IconPencil, IconZzz } from '@tabler/icons-react';
import { HoverTip } from '../../components/HoverTip.js';
import { t } from '../../i18n/index.js';
import { LYRIC_FONT_SIZE, usePref, type PrefName } from '../../lib/prefs.js';
import { pipSupported } from '../lyrics/pip-lyrics.js';
import { usePlayerUi } from './player-ui.js';
import { usePlayerUser } from './player-user.js';
import { buildAudioGraph } from './use-audio-graph.js';

function PrefSwitch({ name, label, onEnable }: { name: Extract<PrefName, 'seekButtonSwap' | 'hideSeekButton' | 'visualizer' | 'videoSource' | 'pipLyrics'>; label: string; onEnable?: () => void }) {
  const [value, setValue] = usePref(name);
  return (
    <Switch
      label={label}
      checked={value}
      onChange={(e) => {
        const on = e.currentTarget.checked;
        setValue(on);
        if (on) onEnable?.();
      }}
      data-testid={`pref-${name}`}
    />
  );
}

export function MoreSettings() {
  const [bar, setBar] = usePref('lyricBar');
  const [fontSize, setFontSize] = usePref('lyricFontSize');
  const admin = usePlayerUser((s) => s.admin);
  const open = usePlayerUi((s) => s.open);
  const setMenuOpen = usePlayerUi((s) => s.setMenuOpen);
  const [opened, setOpened] = useState(false);
  const toggle = (next: boolean) => {
    setOpened(next);
    setMenuOpen(next);
  };
  const openDialog = (d: 'sleepTimer' | 'lyricEditor') => {
    toggle(false);
    open(d);
  };
  const desktop = typeof window !== 'undefined' && window.matchMedia('(hover: hover) and (pointer: fine)').matches;
  return (
    <Popover position="top-end" width={300} withinPortal zIndex={320} shadow="md" trapFocus returnFocus opened={opened} onChange={toggle}>
      <Popover.Target>
        <HoverTip label={t.player.more} openDelay={400}>
          <ActionIcon variant="subtle" color="gray" size="lg" aria-label={t.player.more} data-testid="player-more" onClick={() => toggle(!opened)}>
            <IconDotsVertical size={20} />
          </ActionIcon>
        </HoverTip>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="sm" data-testid="player-more-panel">
          <Text fw={600} size="sm">
            {t.player.more}
          </Text>
          <PrefSwitch name="seekButtonSwap" label={t.player.settings.seekSwap} />
          <PrefSwitch name="hideSeekButton" label={t.player.settings.hideSeek} />
          <PrefSwitch name="visualizer" label={t.player.settings.visualizer} onEnable={buildAudioGraph} />
          <PrefSwitch name="videoSource" label={t.player.settings.videoSource} />
          {desktop && pipSupported() && <PrefSwitch name="pipLyrics" label={t.player.settings.pipLyrics} />}
          <Divider />
          <Switch label={t.player.settings.lyricBar} checked={bar.show} onChange={(e) => setBar({ ...bar, show: e.currentTarget.checked })} data-testid="pref-lyricBar" />
          <div>
            <Text size="sm" mb={4}>
              {t.player.settings.lyricFontSize}
            </Text>
            <Slider
              min={LYRIC_FONT_SIZE.min}
              max={LYRIC_FONT_SIZE.max}
              step={0.1}
              value={fontSize}
              onChange={setFontSize}
              label={(v) => `${v.toFixed(1)} rem`}
              marks={[{ value: LYRIC_FONT_SIZE.default, label: `${LYRIC_FONT_SIZE.default}` }]}
              mb="md"
              data-testid="lyric-font-size"
            />
          </div>
          <Divider />
          <Group gap="xs">
            <Button size="xs" variant="light" leftSection={<IconZzz size={16} />} onClick={() => openDialog('sleepTimer')}>
              {t.player.settings.sleepTimer}
            </Button>
            {admin && (
              <Button size="xs" variant="light" leftSection={<IconPencil size={16} />} onClick={() => openDialog('lyricEditor')} data-testid="lyric-edit-open">
                {t.player.settings.editLyrics}
              </Button>
            )}
          </Group>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
