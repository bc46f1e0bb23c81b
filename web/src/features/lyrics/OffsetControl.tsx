/**
 * The lyric offset input (4 decimals, step 0.1 s, cleared = 0) with its visible label, and the button to
 * the sync helper.
 */
import { useId } from 'react';
import { ActionIcon, Group, NumberInput, Text } from '@mantine/core';
import { IconClockHour4 } from '@tabler/icons-react';
import { HoverTip } from '../../components/HoverTip.js';
import { t } from '../../i18n/index.js';
import { usePlayerUi } from '../player/player-ui.js';
import { OFFSET_STEP } from './lyric-timing.js';
import { useLyrics } from './lyric-store.js';

export function OffsetControl() {
  const offset = useLyrics((s) => s.offset);
  const setOffset = useLyrics((s) => s.setOffset);
  const open = usePlayerUi((s) => s.open);
  const id = useId();
  return (
    <Group gap={4} wrap="nowrap">
      <Text component="label" htmlFor={id} size="xs" style={{ whiteSpace: 'nowrap' }} data-testid="lyric-offset-label">
        {t.player.lyrics.offsetLabel}
      </Text>
      <HoverTip label={t.player.lyrics.offsetHint} openDelay={500}>
        <NumberInput
          id={id}
          size="xs"
          w={96}
          placeholder="0"
          value={offset}
          step={OFFSET_STEP}
          decimalScale={4}
          allowDecimal
          allowNegative
          suffix={t.player.lyrics.offsetSuffix}
          onChange={(v) => setOffset(v)}
          data-testid="lyric-offset"
        />
      </HoverTip>
      <HoverTip label={t.player.lyrics.sync} openDelay={300}>
        <ActionIcon variant="subtle" color="gray" size="lg" aria-label={t.player.lyrics.sync} onClick={() => open('syncHelper')} data-testid="lyric-sync-open">
          <IconClockHour4 size={20} />
        </ActionIcon>
      </HoverTip>
    </Group>
  );
}
