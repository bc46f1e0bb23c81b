/**
 * The lyric sync helper: ready (which came first, the voice or the line — press at that
 * moment) → measure (press when the other one happens) → done (the difference is applied to the
 * offset); reset starts over.
 */
import { useState } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconEar, IconFileText, IconRefresh } from '@tabler/icons-react';
import { t } from '../../i18n/index.js';
import { getEngine } from '../player/engine.js';
import { useLyrics } from './lyric-store.js';
import { finishMeasure, resetSync, startMeasure, SYNC_READY, type SyncState } from './sync-helper.js';
import { useActiveText } from './use-active-line.js';

export function SyncHelperDialog({ opened, onClose }: { opened: boolean; onClose(): void }) {
  const [state, setState] = useState<SyncState>(SYNC_READY);
  const text = useActiveText();
  const now = () => getEngine().currentTime;

  const close = () => {
    setState(resetSync());
    onClose();
  };

  return (
    <Modal opened={opened} onClose={close} title={t.player.lyrics.sync} centered zIndex={310}>
      <Stack gap="md" data-testid="sync-helper" data-phase={state.phase}>
        <Text size="sm" c="dimmed" ta="center" mih={22}>
          {text || '…'}
        </Text>
        {state.phase === 'ready' && (
          <>
            <Text size="sm">{t.player.lyrics.syncReady}</Text>
            <Group grow>
              <Button leftSection={<IconEar size={18} />} onClick={() => setState((s) => startMeasure(s, 'audio', now()))} data-testid="sync-audio-first">
                {t.player.lyrics.syncAudioFirst}
              </Button>
              <Button variant="light" leftSection={<IconFileText size={18} />} onClick={() => setState((s) => startMeasure(s, 'lyric', now()))} data-testid="sync-lyric-first">
                {t.player.lyrics.syncLyricFirst}
              </Button>
            </Group>
          </>
        )}
        {state.phase === 'measure' && (
          <>
            <Text size="sm">{state.first === 'audio' ? t.player.lyrics.syncMeasureAudio : t.player.lyrics.syncMeasureLyric}</Text>
            <Button
              size="lg"
              onClick={() => {
                const next = finishMeasure(state, now(), useLyrics.getState().offset);
                if (next.phase === 'done') useLyrics.getState().setOffset(next.offset);
                setState(next);
              }}
              data-testid="sync-now"
            >
              {t.player.lyrics.syncNow}
            </Button>
          </>
        )}
        {state.phase === 'done' && (
          <Text size="sm" data-testid="sync-result">
            {t.player.lyrics.syncDone(state.delta.toFixed(2), String(state.offset))}
          </Text>
        )}
        <Group justify="space-between">
          <Button variant="subtle" color="gray" leftSection={<IconRefresh size={16} />} onClick={() => setState(resetSync())} disabled={state.phase === 'ready'} data-testid="sync-reset">
            {t.player.lyrics.syncReset}
          </Button>
          <Button variant="default" onClick={close}>
            {t.player.lyrics.close}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
