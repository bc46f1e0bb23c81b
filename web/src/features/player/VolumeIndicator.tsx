/** The volume shown for a second after a keyboard change (hidden after 1 s). */
import { useEffect, useState } from 'react';
import { Paper, Portal, Progress, Text } from '@mantine/core';
import { IconVolume } from '@tabler/icons-react';
import { t } from '../../i18n/index.js';
import { useEngineState } from './engine-state.js';
import { usePlayerUi } from './player-ui.js';

export function VolumeIndicator() {
  const until = usePlayerUi((s) => s.volumeShownUntil);
  const volume = useEngineState((s) => s.volume);
  const [visible, setVisible] = useState(false);

  useEffect(() => {
    const left = until - Date.now();
    if (left <= 0) return setVisible(false);
    setVisible(true);
    const id = setTimeout(() => setVisible(false), left);
    return () => clearTimeout(id);
  }, [until]);

  if (!visible) return null;
  const percent = Math.round(volume * 100);
  return (
    <Portal>
      <Paper
        shadow="lg"
        radius="lg"
        p="md"
        data-testid="volume-indicator"
        role="status"
        style={{ position: 'fixed', top: '18%', left: '50%', transform: 'translateX(-50%)', zIndex: 400, minWidth: 200, display: 'flex', alignItems: 'center', gap: 12 }}
      >
        <IconVolume size={22} />
        <Progress value={percent} style={{ flex: 1 }} />
        <Text size="sm" ff="monospace" w={40} ta="right" aria-label={t.player.volumeLevel(percent)}>
          {percent}%
        </Text>
      </Paper>
    </Portal>
  );
}
