/**
 * The on-screen lyric bar: the current line floating over the page, draggable anywhere,
 * in the chosen font size (0.2–10 rem, default 1.5). Its place is remembered as a fraction of the
 * window, so it stays on screen when the window changes size.
 */
import { useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { ActionIcon, Box, Portal, Text } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { t } from '../../i18n/index.js';
import { usePref } from '../../lib/prefs.js';
import { useActiveText } from './use-active-line.js';

const clamp01 = (v: number) => Math.min(0.98, Math.max(0.02, v));

export function LyricBar() {
  const [bar, setBar] = usePref('lyricBar');
  const [fontSize] = usePref('lyricFontSize');
  const text = useActiveText();
  const drag = useRef<{ dx: number; dy: number; id: number } | null>(null);
  const [live, setLive] = useState<{ x: number; y: number } | null>(null);
  const [hover, setHover] = useState(false);

  if (!bar.show || !text) return null;
  const pos = live ?? { x: bar.x, y: bar.y };

  const onDown = (e: ReactPointerEvent<HTMLDivElement>) => {
    if ((e.target as HTMLElement).closest('button')) return;
    drag.current = { dx: e.clientX - pos.x * window.innerWidth, dy: e.clientY - pos.y * window.innerHeight, id: e.pointerId };
    e.currentTarget.setPointerCapture(e.pointerId);
  };
  const onMove = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (!drag.current) return;
    setLive({ x: clamp01((e.clientX - drag.current.dx) / window.innerWidth), y: clamp01((e.clientY - drag.current.dy) / window.innerHeight) });
  };
  const onUp = () => {
    if (!drag.current) return;
    drag.current = null;
    if (live) setBar({ ...bar, x: live.x, y: live.y });
    setLive(null);
  };

  return (
    <Portal>
      <Box
        data-testid="lyric-bar"
        role="status"
        aria-label={t.player.lyrics.bar}
        onPointerDown={onDown}
        onPointerMove={onMove}
        onPointerUp={onUp}
        onPointerCancel={onUp}
        onMouseEnter={() => setHover(true)}
        onMouseLeave={() => setHover(false)}
        title={t.player.lyrics.barDrag}
        style={{
          position: 'fixed',
          left: `${pos.x * 100}%`,
          top: `${pos.y * 100}%`,
          transform: 'translate(-50%, -50%)',
          zIndex: 190,
          // a fixed box centred by translate only gets the space right of its left edge: size it to its text
          width: 'max-content',
          maxWidth: 'min(92vw, 900px)',
          padding: '0.35em 1.1em',
          borderRadius: 999,
          background: 'rgba(20, 20, 28, 0.62)',
          backdropFilter: 'blur(6px)',
          color: '#fff',
          cursor: 'grab',
          touchAction: 'none',
          userSelect: 'none',
          fontSize: `${fontSize}rem`,
          boxShadow: '0 4px 18px rgba(0,0,0,0.25)',
        }}
      >
        <Text inherit ta="center" fw={600} lh={1.35} style={{ whiteSpace: 'pre-line', textShadow: '0 1px 3px rgba(0,0,0,0.6)' }} data-testid="lyric-bar-text">
          {text}
        </Text>
        {hover && (
          <ActionIcon
            size="xs"
            radius="xl"
            variant="filled"
            color="dark"
            aria-label={t.player.lyrics.barHide}
            onClick={() => setBar({ ...bar, show: false })}
            style={{ position: 'absolute', top: -6, right: -6 }}
          >
            <IconX size={12} />
          </ActionIcon>
        )}
      </Box>
    </Portal>
  );
}
