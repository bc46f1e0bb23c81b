/** Pick the lyric of the playing track from every lyric of its work (query-lrc): matches first, then the rest. */
import { useQuery } from '@tanstack/react-query';
import { Badge, Center, Divider, Group, Loader, Modal, NavLink, ScrollArea, Stack, Text } from '@mantine/core';
import { IconFileText, IconSparkles } from '@tabler/icons-react';
import type { LyricOption } from '../../../../server/domain/lyric-match.js';
import { t } from '../../i18n/index.js';
import { useCurrentEntry } from '../player/store.js';
import { queryLrc } from './lyric-api.js';
import { useLyrics } from './lyric-store.js';

export function LyricSelectDialog({ opened, onClose }: { opened: boolean; onClose(): void }) {
  const entry = useCurrentEntry();
  const source = useLyrics((s) => s.source);
  const choose = useLyrics((s) => s.choose);
  const hash = entry?.hash ?? '';
  const options = useQuery({ queryKey: ['query-lrc', hash], queryFn: ({ signal }) => queryLrc(hash, signal), enabled: opened && !!hash, staleTime: 30_000 });

  const list = options.data ?? [];
  const matches = list.filter((o) => o.matchLevel >= 0);
  const others = list.filter((o) => o.matchLevel < 0);

  const item = (o: LyricOption) => (
    <NavLink
      key={`${o.isAI ? 'ai' : 'file'}-${o.hash}`}
      label={o.title}
      description={o.subtitle || undefined}
      leftSection={o.isAI ? <IconSparkles size={18} /> : <IconFileText size={18} />}
      rightSection={
        <Group gap={4} wrap="nowrap">
          {o.isAI && (
            <Badge size="xs" variant="light" color="grape">
              {t.player.lyrics.ai}
            </Badge>
          )}
          {source?.title === o.title && source.isAI === o.isAI && (
            <Badge size="xs" variant="filled">
              {t.player.lyrics.current}
            </Badge>
          )}
        </Group>
      }
      onClick={() => {
        if (entry) void choose(entry, o);
        onClose();
      }}
      data-testid="lyric-option"
    />
  );

  return (
    <Modal opened={opened} onClose={onClose} title={t.player.lyrics.selectTitle} centered size="lg" zIndex={310}>
      {options.isPending ? (
        <Center h={120}>
          <Loader size="sm" />
        </Center>
      ) : !list.length ? (
        <Text c="dimmed" ta="center" py="lg">
          {t.player.lyrics.noCandidates}
        </Text>
      ) : (
        <ScrollArea.Autosize mah="60vh">
          <Stack gap={0}>
            {matches.length > 0 && <Divider label={t.player.lyrics.matches} labelPosition="left" />}
            {matches.map(item)}
            {others.length > 0 && <Divider label={t.player.lyrics.others} labelPosition="left" mt="sm" />}
            {others.map(item)}
          </Stack>
        </ScrollArea.Autosize>
      )}
    </Modal>
  );
}
