/**
 * /fullScreenPlayer/:workId?: the cover — or the video of a video file — over a blurred,
 * slowly drifting backdrop, with the spectrum when the visualizer is on, the current lyric line and
 * the seek bar. A double click toggles the browser's fullscreen. Nothing playing: with a work id the
 * work page opens, without one a notice says to play a work first and the work list opens.
 */
import { useEffect, useRef, useState, type RefObject } from 'react';
import { Navigate, useNavigate, useParams } from 'react-router';
import { ActionIcon, Box, Group, Image, Stack, Text } from '@mantine/core';
import { IconMaximize, IconMinimize } from '@tabler/icons-react';
import { HoverTip } from '../../components/HoverTip.js';
import { t } from '../../i18n/index.js';
import { notifyWarning } from '../../lib/notify.js';
import { usePref } from '../../lib/prefs.js';
import { useActiveText } from '../lyrics/use-active-line.js';
import { ForwardButton, NextButton, PlayPauseButton, PreviousButton, RewindButton } from '../player/controls.js';
import { useVisualCover } from '../player/cover-source.js';
import { getEngine } from '../player/engine.js';
import { useEngineState } from '../player/engine-state.js';
import { ProgressSlider } from '../player/ProgressSlider.js';
import { useCurrentEntry, usePlayer } from '../player/store.js';
import { usePlayerUser } from '../player/player-user.js';
import { PageLoader } from '../../components/PageLoader.js';
import { useAudioGraph } from '../player/use-audio-graph.js';
import { Visualizer } from '../player/Visualizer.js';
import { HEADER_HEIGHT } from '../../app/layouts/layout-sizes.js';
import { PLAYER_BAR_HEIGHT } from '../player/PlayerHost.js';
import classes from './fullscreen.module.css';

function useFullscreen(target: RefObject<HTMLElement | null>) {
  const [on, setOn] = useState(false);
  useEffect(() => {
    const sync = () => setOn(document.fullscreenElement !== null && document.fullscreenElement === target.current);
    document.addEventListener('fullscreenchange', sync);
    return () => document.removeEventListener('fullscreenchange', sync);
  }, [target]);
  const toggle = () => {
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    else void target.current?.requestFullscreen?.().catch(() => undefined);
  };
  return { on, toggle };
}

function VideoStage() {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => (ref.current ? getEngine().attachStage(ref.current) : undefined), []);
  return <div ref={ref} className={classes.video} data-testid="fullscreen-video" />;
}

function Lyric() {
  const text = useActiveText();
  const [fontSize] = usePref('lyricFontSize');
  return (
    <Text className={classes.lyric} style={{ fontSize: `${Math.max(1, fontSize * 1.2)}rem` }} data-testid="fullscreen-lyric">
      {text || '\u00a0'}
    </Text>
  );
}

export function FullScreenPlayerPage() {
  const { workId } = useParams();
  const navigate = useNavigate();
  const entry = useCurrentEntry();
  const hasQueue = usePlayer((s) => s.queue.length > 0);
  // until the player has started, a queue kept from before a reload is not back yet
  const ready = usePlayerUser((s) => s.ready);
  const playing = usePlayer((s) => s.playing);
  const video = useEngineState((s) => s.video);
  const cover = useVisualCover(entry?.workId);
  const [visualizer] = usePref('visualizer');
  const graph = useAudioGraph();
  const root = useRef<HTMLDivElement>(null);
  const fullscreen = useFullscreen(root);
  const validId = workId !== undefined && /^\d{1,15}$/.test(workId);

  useEffect(() => {
    if (!ready || hasQueue || validId) return;
    notifyWarning(t.player.fullScreenPage.nothingPlaying);
    void navigate('/works', { replace: true });
  }, [ready, hasQueue, validId, navigate]);

  if (!ready) return <PageLoader />;
  if (!hasQueue) return validId ? <Navigate to={`/work/${workId}`} replace /> : null;
  if (!entry) return null;

  return (
    <Box
      ref={root}
      className={classes.root}
      data-testid="fullscreen-player"
      data-fullscreen={fullscreen.on || undefined}
      onDoubleClick={(e) => {
        if ((e.target as HTMLElement).closest('button, [role="slider"]')) return;
        fullscreen.toggle();
      }}
      style={{ minHeight: fullscreen.on ? '100vh' : `calc(100dvh - ${HEADER_HEIGHT + PLAYER_BAR_HEIGHT}px - 2 * var(--mantine-spacing-md))` }}
      title={t.player.fullScreenPage.toggle}
    >
      <div className={classes.backdrop} style={{ backgroundImage: cover ? `url("${cover}")` : undefined }} />
      <div className={classes.shade} />
      <Stack className={classes.stage} gap="md" justify="center" align="center">
        {video ? <VideoStage /> : <Image src={cover} alt={entry.workTitle} className={classes.cover} data-playing={playing || undefined} draggable={false} />}
        {visualizer && graph && !video && <Visualizer graph={graph} height={70} color="rgba(255,255,255,0.85)" style={{ maxWidth: 640 }} />}
      </Stack>
      <Stack className={classes.bottom} gap={6}>
        <Lyric />
        <Text component="h1" c="gray.3" size="sm" ta="center" lineClamp={1}>
          {entry.title} · {entry.workTitle}
        </Text>
        <ProgressSlider light />
        <Group justify="center" gap={4} wrap="nowrap" className={classes.controls}>
          <PreviousButton size="lg" color="gray.0" />
          <RewindButton size="lg" color="gray.0" />
          <PlayPauseButton size={52} iconSize={28} />
          <ForwardButton size="lg" color="gray.0" />
          <NextButton size="lg" color="gray.0" />
          <HoverTip label={fullscreen.on ? t.player.fullScreenPage.exit : t.player.fullScreenPage.enter}>
            <ActionIcon
              variant="subtle"
              color="gray.0"
              size="lg"
              onClick={fullscreen.toggle}
              aria-label={fullscreen.on ? t.player.fullScreenPage.exit : t.player.fullScreenPage.enter}
              data-testid="fullscreen-toggle"
            >
              {fullscreen.on ? <IconMinimize size={20} /> : <IconMaximize size={20} />}
            </ActionIcon>
          </HoverTip>
        </Group>
      </Stack>
    </Box>
  );
}
