/** All lines of the current lyric, the current one highlighted and kept in view; a click seeks to a line. */
import { useEffect, useRef } from 'react';
import { Box, Center, Loader, Stack, Text, UnstyledButton } from '@mantine/core';
import { t } from '../../i18n/index.js';
import { getEngine } from '../player/engine.js';
import { useLyrics } from './lyric-store.js';
import { useActiveLine } from './use-active-line.js';

export function LyricList({ height, light = false }: { height: number | string; light?: boolean }) {
  const status = useLyrics((s) => s.status);
  const lines = useLyrics((s) => s.lines);
  const offset = useLyrics((s) => s.offset);
  const active = useActiveLine();
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const container = box.current;
    const el = container?.querySelector<HTMLElement>(`[data-line="${active}"]`);
    if (!container || !el) return;
    const target = el.offsetTop - container.clientHeight / 2 + el.clientHeight / 2;
    container.scrollTo({ top: Math.max(0, target), behavior: 'smooth' });
  }, [active, lines]);

  if (status === 'loading') {
    return (
      <Center h={height}>
        <Loader size="sm" />
      </Center>
    );
  }
  if (status !== 'ready') {
    return (
      <Center h={height}>
        <Text size="sm" c={light ? 'gray.4' : 'dimmed'}>
          {t.player.lyrics.none}
        </Text>
      </Center>
    );
  }
  return (
    <Box ref={box} h={height} style={{ overflowY: 'auto', position: 'relative', scrollbarWidth: 'thin' }} data-testid="lyric-list">
      <Stack gap={2} py="40%">
        {lines.map((line, i) => (
          <UnstyledButton
            key={`${i}-${line.time}`}
            data-line={i}
            data-active={i === active || undefined}
            onClick={() => getEngine().seek(line.time / 1000 + offset)}
            px="sm"
            py={4}
            style={{ borderRadius: 'var(--mantine-radius-sm)', textAlign: 'center' }}
          >
            <Text
              size={i === active ? 'md' : 'sm'}
              fw={i === active ? 700 : 400}
              c={i === active ? (light ? 'white' : 'var(--mantine-color-violet-text)') : light ? 'gray.5' : 'dimmed'}
              style={{ whiteSpace: 'pre-line', transition: 'color 150ms, font-size 150ms' }}
            >
              {line.text}
            </Text>
          </UnstyledButton>
        ))}
      </Stack>
    </Box>
  );
}
