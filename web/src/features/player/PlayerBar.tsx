/**
 * The bottom bar: cover, title, elapsed / total time and work title, and previous/play/next — or rewind/play/
 * forward with the seek-button swap. Swipe gestures: up opens the player, down hides the
 * bar, sideways (or a 500 ms hold, then sideways) seeks by dragging.
 */
import { useEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { Box, Group, Image, Text, UnstyledButton } from '@mantine/core';
import { coverUrl } from '../../api/urls.js';
import { t } from '../../i18n/index.js';
import { usePref } from '../../lib/prefs.js';
import { dragTarget, endGesture, holdGesture, HOLD_MS, IDLE, moveGesture, startGesture, type GestureState } from './bar-gesture.js';
import { playerClock, useClock, type ClockState } from './clock.js';
import { ForwardButton, NextButton, PlayPauseButton, PreviousButton, RewindButton } from './controls.js';
import { getEngine } from './engine.js';
import { formatTime } from '../../i18n/format.js';
import { usePlayerUi } from './player-ui.js';
import { useCurrentEntry } from './store.js';

/** A hairline of progress along the top edge, moved directly on each clock tick (no re-render). */
function BarProgress() {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const update = () => {
      const { currentTime, duration } = playerClock.get();
      if (ref.current) ref.current.style.transform = `scaleX(${duration > 0 ? Math.min(1, currentTime / duration) : 0})`;
    };
    update();
    return playerClock.subscribe(update);
  }, []);
  return (
    <Box pos="absolute" top={0} left={0} right={0} h={3} style={{ overflow: 'hidden', background: 'var(--mantine-color-default-border)' }}>
      <div ref={ref} style={{ height: '100%', background: 'var(--mantine-primary-color-filled)', transformOrigin: 'left', transform: 'scaleX(0)' }} />
    </Box>
  );
}

const wholeSeconds = (c: ClockState) => Math.floor(c.currentTime);
const totalSeconds = (c: ClockState) => Math.floor(c.duration);

/** "1:23 / 4:56": re-rendered once a second, not on every clock tick. */
function BarTime() {
  const elapsed = formatTime(useClock(wholeSeconds));
  const total = formatTime(useClock(totalSeconds));
  return (
    <Text span size="xs" ff="monospace" style={{ flexShrink: 0, whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }} data-testid="player-bar-time">
      {elapsed} / {total}
    </Text>
  );
}

function capture(el: HTMLElement, pointerId: number): void {
  try {
    if (!el.hasPointerCapture(pointerId)) el.setPointerCapture(pointerId);
  } catch {
    /* the pointer is gone already */
  }
}

interface SeekPreview {
  from: number;
  to: number;
}

export function PlayerBar() {
  const entry = useCurrentEntry();
  const [swap] = usePref('seekButtonSwap');
  const setExpanded = usePlayerUi((s) => s.setExpanded);
  const setBarHidden = usePlayerUi((s) => s.setBarHidden);
  const hidden = usePlayerUi((s) => s.barHidden);
  const gesture = useRef<GestureState>(IDLE);
  const hold = useRef<ReturnType<typeof setTimeout> | null>(null);
  const suppressClick = useRef(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const [preview, setPreview] = useState<SeekPreview | null>(null);

  useEffect(
    () => () => {
      if (hold.current) clearTimeout(hold.current);
    },
    [],
  );

  if (!entry || hidden) return null;

  const width = () => rootRef.current?.clientWidth ?? 1;
  const showPreview = (g: GestureState, from: number) => {
    const duration = playerClock.get().duration;
    setPreview({ from, to: dragTarget(from, g.x - g.startX, width(), duration) });
  };

  const onPointerDown = (e: ReactPointerEvent<HTMLDivElement>) => {
    // the transport buttons keep their clicks; the rest of the bar (cover, titles) takes gestures
    if (e.button !== 0 || (e.target as HTMLElement).closest('[data-bar-controls]')) return;
    gesture.current = startGesture(e.clientX, e.clientY, e.timeStamp);
    suppressClick.current = false;
    const target = e.currentTarget;
    const pointerId = e.pointerId;
    const from = playerClock.get().currentTime;
    if (hold.current) clearTimeout(hold.current);
    hold.current = setTimeout(() => {
      const g = holdGesture(gesture.current, gesture.current.startTime + HOLD_MS);
      gesture.current = g;
      if (g.phase === 'horizontal') {
        capture(target, pointerId);
        showPreview(g, from);
      }
    }, HOLD_MS);
    (e.currentTarget as HTMLDivElement).dataset.from = String(from);
  };

  const onPointerMove = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (gesture.current.phase === 'idle') return;
    const g = moveGesture(gesture.current, e.clientX, e.clientY, e.timeStamp);
    gesture.current = g;
    if (g.phase !== 'pressed') {
      if (hold.current) clearTimeout(hold.current);
      hold.current = null;
      // captured only once it is a swipe, so a plain tap still clicks what is under it
      capture(e.currentTarget, e.pointerId);
    }
    if (g.phase === 'horizontal') showPreview(g, Number(e.currentTarget.dataset.from ?? 0));
  };

  const finish = (e: ReactPointerEvent<HTMLDivElement>, cancelled: boolean) => {
    if (hold.current) clearTimeout(hold.current);
    hold.current = null;
    const outcome = endGesture(gesture.current);
    const g = gesture.current;
    gesture.current = IDLE;
    setPreview(null);
    if (cancelled) return;
    if (outcome.action !== 'tap' && outcome.action !== 'none') suppressClick.current = true;
    if (outcome.action === 'open') setExpanded(true);
    else if (outcome.action === 'hide') setBarHidden(true);
    else if (outcome.action === 'seek') {
      const from = Number(e.currentTarget.dataset.from ?? 0);
      getEngine().seek(dragTarget(from, g.x - g.startX, width(), playerClock.get().duration));
    }
  };

  return (
    <Box
      ref={rootRef}
      pos="relative"
      h="100%"
      data-testid="player-bar"
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={(e) => finish(e, false)}
      onPointerCancel={(e) => finish(e, true)}
      style={{ touchAction: 'none', userSelect: 'none' }}
    >
      <BarProgress />
      <Group h="100%" gap={4} px={{ base: 6, sm: 'md' }} wrap="nowrap">
        <UnstyledButton
          onClick={() => {
            if (suppressClick.current) suppressClick.current = false;
            else setExpanded(true);
          }}
          // named by the titles it shows; what it does is its description
          title={t.player.expand}
          data-testid="player-bar-open"
          style={{ flex: 1, minWidth: 0, display: 'flex', alignItems: 'center', gap: 10 }}
        >
          <Image src={coverUrl(entry.workId, 'sam')} alt="" w={46} h={46} radius="sm" fit="cover" style={{ flexShrink: 0 }} draggable={false} />
          <Box style={{ minWidth: 0 }}>
            <Text size="sm" fw={600} lineClamp={1} data-testid="player-bar-title">
              {entry.title}
            </Text>
            <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
              <BarTime />
              <Text size="xs" c="dimmed" lineClamp={1} style={{ minWidth: 0 }}>
                {entry.workTitle}
              </Text>
            </Group>
          </Box>
        </UnstyledButton>
        <Group gap={2} wrap="nowrap" data-bar-controls>
          {swap ? <RewindButton size="lg" /> : <PreviousButton size="lg" />}
          <PlayPauseButton size="lg" iconSize={22} />
          {swap ? <ForwardButton size="lg" /> : <NextButton size="lg" />}
        </Group>
      </Group>
      {preview && (
        <Box
          pos="absolute"
          inset={0}
          data-testid="player-seek-preview"
          style={{ display: 'grid', placeItems: 'center', background: 'color-mix(in srgb, var(--mantine-color-body) 88%, transparent)', pointerEvents: 'none' }}
        >
          <Text fw={700} ff="monospace" size="lg">
            {formatTime(preview.to)} / {formatTime(playerClock.get().duration)}
            <Text span c="dimmed" size="sm" ml="xs">
              ({preview.to >= preview.from ? '+' : '−'}
              {formatTime(Math.abs(preview.to - preview.from))})
            </Text>
          </Text>
        </Box>
      )}
    </Box>
  );
}
