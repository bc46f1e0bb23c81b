/**
 * The expanded player: the flipping cover, titles, the seek bar, the transport (play mode,
 * previous, rewind, play/pause, forward, next, queue), the lyric row (choose a lyric, offset + sync
 * helper), volume, speed, the full-screen link, the more-settings menu, and the lyric lines. A sheet
 * over the whole screen on phones, a panel on the right on desktops.
 */
import { Link } from 'react-router';
import { ActionIcon, Anchor, Badge, Box, Drawer, Group, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconChevronDown, IconFileMusic, IconPlaylist } from '@tabler/icons-react';
import { HoverTip } from '../../components/HoverTip.js';
import { t } from '../../i18n/index.js';
import { usePref } from '../../lib/prefs.js';
import { LyricList } from '../lyrics/LyricList.js';
import { OffsetControl } from '../lyrics/OffsetControl.js';
import { useLyrics } from '../lyrics/lyric-store.js';
import { ForwardButton, NextButton, PlayModeButton, PlayPauseButton, PreviousButton, RewindButton } from './controls.js';
import { CoverFlip } from './CoverFlip.js';
import { FullScreenLink } from './FullScreenLink.js';
import { MoreSettings } from './MoreSettings.js';
import { SpeedControl, VolumeControl } from './PlaybackControls.js';
import { usePlayerUi } from './player-ui.js';
import { ProgressSlider } from './ProgressSlider.js';
import { useCurrentEntry } from './store.js';

const DESKTOP = '(min-width: 48em)';

function LyricSource() {
  const source = useLyrics((s) => s.source);
  const open = usePlayerUi((s) => s.open);
  return (
    <HoverTip label={t.player.lyrics.select} openDelay={300}>
      <Badge
        component="button"
        type="button"
        variant="light"
        color={source ? undefined : 'gray'}
        leftSection={<IconFileMusic size={12} />}
        onClick={() => open('lyricSelect')}
        style={{ cursor: 'pointer', maxWidth: 180, textTransform: 'none' }}
        data-testid="lyric-select-open"
      >
        {source ? `${source.isAI ? `${t.player.lyrics.ai} · ` : ''}${source.title}` : t.player.lyrics.select}
      </Badge>
    </HoverTip>
  );
}

export function ExpandedPlayer() {
  const opened = usePlayerUi((s) => s.expanded);
  const setExpanded = usePlayerUi((s) => s.setExpanded);
  const open = usePlayerUi((s) => s.open);
  const dialog = usePlayerUi((s) => s.dialog);
  const menuOpen = usePlayerUi((s) => s.menuOpen);
  const entry = useCurrentEntry();
  const desktop = useMediaQuery(DESKTOP, undefined, { getInitialValueInEffect: false });
  const [hideSeek] = usePref('hideSeekButton');
  const close = () => setExpanded(false);

  return (
    <Drawer
      opened={opened && !!entry}
      onClose={close}
      position={desktop ? 'right' : 'bottom'}
      size={desktop ? 440 : '100%'}
      withCloseButton={false}
      // Escape closes a dialog or menu opened from here, not the player under it
      closeOnEscape={dialog === null && !menuOpen}
      padding={0}
      zIndex={250}
      // the dialog's name: a title in a header not shown
      title={t.player.nowPlaying}
      styles={{ header: { display: 'none' }, body: { height: '100%' }, content: { display: 'flex', flexDirection: 'column' } }}
    >
      {entry && (
        <Stack h="100%" gap={0} data-testid="expanded-player">
          <Group justify="space-between" px="sm" py={6} wrap="nowrap">
            <HoverTip label={t.player.collapse}>
              <ActionIcon variant="subtle" color="gray" size="lg" aria-label={t.player.collapse} onClick={close} data-testid="player-collapse">
                <IconChevronDown size={22} />
              </ActionIcon>
            </HoverTip>
            <Text size="sm" fw={600} c="dimmed">
              {t.player.nowPlaying}
            </Text>
            <Group gap={0} wrap="nowrap">
              <FullScreenLink onClick={close} />
              <MoreSettings />
            </Group>
          </Group>
          <Box px="lg" style={{ flex: '0 0 auto' }}>
            <CoverFlip size={desktop ? 300 : 'min(72vw, 38vh)'} />
            <Stack gap={2} mt="md" align="center">
              <Text fw={700} ta="center" lineClamp={2} data-testid="expanded-title">
                {entry.title}
              </Text>
              <Anchor component={Link} to={`/work/${entry.workId}`} onClick={close} size="sm" c="dimmed" ta="center" lineClamp={1} title={t.player.openWork}>
                {entry.workTitle || entry.hash}
              </Anchor>
            </Stack>
            <Box mt="sm">
              <ProgressSlider />
            </Box>
            <Group justify="center" gap={2} mt={4} wrap="nowrap">
              <PlayModeButton size="lg" iconSize={20} />
              <PreviousButton size="lg" />
              {!hideSeek && <RewindButton size="lg" />}
              <PlayPauseButton size={52} iconSize={28} />
              {!hideSeek && <ForwardButton size="lg" />}
              <NextButton size="lg" />
              <HoverTip label={t.player.queue.open} openDelay={400}>
                <ActionIcon variant="subtle" color="gray" size="lg" radius="xl" aria-label={t.player.queue.open} onClick={() => open('queue')} data-testid="queue-open">
                  <IconPlaylist size={20} />
                </ActionIcon>
              </HoverTip>
            </Group>
            <Group justify="space-between" mt="xs" gap="xs" wrap="wrap">
              <Group gap="xs" wrap="nowrap">
                <LyricSource />
                <OffsetControl />
              </Group>
              <Group gap={4} wrap="nowrap">
                <VolumeControl width={desktop ? 90 : 80} />
                <SpeedControl />
              </Group>
            </Group>
          </Box>
          <Box style={{ flex: 1, minHeight: 120 }} mt="xs">
            <LyricList height="100%" />
          </Box>
        </Stack>
      )}
    </Drawer>
  );
}
