/**
 * The expanded player's cover: a click flips it to the equalizer — swap left/right
 * channels, bass/middle/treble — with the spectrum of both channels. With the visualizer preference
 * the front shows the spectrum over the cover; with the video preference a video file shows its
 * picture instead of the cover.
 */
import { useEffect, useRef, useState, type CSSProperties } from 'react';
import { ActionIcon, Box, Button, Group, Image, Slider, Stack, Switch, Text, ThemeIcon } from '@mantine/core';
import { IconArrowBackUp, IconAdjustmentsHorizontal } from '@tabler/icons-react';
import { HoverTip } from '../../components/HoverTip.js';
import { t } from '../../i18n/index.js';
import { usePref } from '../../lib/prefs.js';
import { EQ_BANDS, EQ_RANGE_DB, type AudioGraph, type EqBand } from './audio-graph.js';
import { useVisualCover } from './cover-source.js';
import { getEngine } from './engine.js';
import { useEngineState } from './engine-state.js';
import { useCurrentEntry } from './store.js';
import { buildAudioGraph, useAudioGraph } from './use-audio-graph.js';
import { Visualizer } from './Visualizer.js';

function VideoStage() {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => (ref.current ? getEngine().attachStage(ref.current) : undefined), []);
  return <div ref={ref} style={{ position: 'absolute', inset: 0, background: '#000' }} data-testid="cover-video" />;
}

function Equalizer({ graph }: { graph: AudioGraph }) {
  const [swapped, setSwapped] = useState(graph.isSwapped);
  const [gains, setGains] = useState<Record<EqBand, number>>(() => ({ bass: graph.gain('bass'), middle: graph.gain('middle'), treble: graph.gain('treble') }));
  const setGain = (band: EqBand, db: number) => {
    graph.setGain(band, db);
    setGains((g) => ({ ...g, [band]: db }));
  };
  return (
    <Stack gap="xs" w="100%">
      <Switch
        label={t.player.equalizer.swapChannels}
        checked={swapped}
        onChange={(e) => {
          graph.setSwapped(e.currentTarget.checked);
          setSwapped(e.currentTarget.checked);
        }}
        data-testid="eq-swap"
      />
      {EQ_BANDS.map((b) => (
        <Group key={b.key} gap="sm" wrap="nowrap">
          <Text size="xs" w={32}>
            {t.player.equalizer.bands[b.key]}
          </Text>
          <Slider
            style={{ flex: 1 }}
            size="sm"
            min={-EQ_RANGE_DB}
            max={EQ_RANGE_DB}
            step={1}
            value={gains[b.key]}
            onChange={(v) => setGain(b.key, v)}
            label={(v) => `${v > 0 ? '+' : ''}${v} dB`}
            marks={[{ value: 0 }]}
          />
        </Group>
      ))}
      <Group justify="flex-end">
        <Button size="compact-xs" variant="subtle" color="gray" onClick={() => EQ_BANDS.forEach((b) => setGain(b.key, 0))}>
          {t.player.equalizer.reset}
        </Button>
      </Group>
    </Stack>
  );
}

export function CoverFlip({ size }: { size: number | string }) {
  const entry = useCurrentEntry();
  const cover = useVisualCover(entry?.workId);
  const video = useEngineState((s) => s.video);
  const [videoSource] = usePref('videoSource');
  const [visualizer] = usePref('visualizer');
  const graph = useAudioGraph();
  const [flipped, setFlipped] = useState(false);

  const face: CSSProperties = {
    position: 'absolute',
    inset: 0,
    backfaceVisibility: 'hidden',
    WebkitBackfaceVisibility: 'hidden',
    borderRadius: 'var(--mantine-radius-md)',
    overflow: 'hidden',
  };

  return (
    <Box w={size} maw="100%" style={{ aspectRatio: '1 / 1', perspective: 1200, margin: '0 auto' }} data-testid="cover-flip" data-flipped={flipped || undefined}>
      <Box pos="relative" w="100%" h="100%" style={{ transformStyle: 'preserve-3d', transition: 'transform 600ms', transform: flipped ? 'rotateY(180deg)' : undefined }}>
        <Box
          style={{ ...face, cursor: 'pointer', boxShadow: 'var(--mantine-shadow-md)', background: 'var(--mantine-color-default-hover)' }}
          onClick={() => {
            buildAudioGraph();
            setFlipped(true);
          }}
          role="button"
          aria-label={t.player.flipCover}
          tabIndex={0}
        >
          {video && videoSource ? <VideoStage /> : <Image src={cover} alt={t.player.cover} w="100%" h="100%" fit="cover" draggable={false} />}
          {visualizer && graph && (
            <Box pos="absolute" left={0} right={0} bottom={0} style={{ background: 'linear-gradient(transparent, rgba(0,0,0,0.45))' }}>
              <Visualizer graph={graph} height={90} color="rgba(255,255,255,0.9)" />
            </Box>
          )}
          <HoverTip label={t.player.flipCover}>
            <ThemeIcon pos="absolute" top={8} right={8} variant="filled" color="dark" radius="xl" size="md" aria-hidden style={{ opacity: 0.7 }}>
              <IconAdjustmentsHorizontal size={16} />
            </ThemeIcon>
          </HoverTip>
        </Box>
        <Box style={{ ...face, transform: 'rotateY(180deg)', background: 'var(--mantine-color-body)', border: '1px solid var(--mantine-color-default-border)' }} p="sm">
          <Stack h="100%" gap="xs" justify="space-between">
            <Group justify="space-between">
              <Text fw={600}>{t.player.equalizer.title}</Text>
              <ActionIcon variant="subtle" color="gray" aria-label={t.player.equalizer.back} onClick={() => setFlipped(false)} data-testid="cover-flip-back">
                <IconArrowBackUp size={18} />
              </ActionIcon>
            </Group>
            {graph ? <Visualizer graph={graph} height={80} /> : null}
            {graph ? (
              <Equalizer graph={graph} />
            ) : (
              <Button variant="light" onClick={() => buildAudioGraph()}>
                {t.player.equalizer.start}
              </Button>
            )}
          </Stack>
        </Box>
      </Box>
    </Box>
  );
}
