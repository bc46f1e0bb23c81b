/**
 * The keyboard-shortcut overlay: every shortcut the app answers, grouped — playback (the player's keys,
 * features/player/keyboard.ts, with the server's seek times), search and lists (Enter in the search
 * box, the advanced search box and the page box), the image preview, and the overlay and dialogs.
 */
import { Fragment } from 'react';
import { Group, Kbd, Modal, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { t } from '../../i18n/index.js';
import { useSharedConfig } from '../../lib/shared-config.js';

/** One way to press a shortcut: keys held together. */
type Combo = readonly string[];

interface Shortcut {
  /** Alternatives (Space or K). */
  combos: readonly Combo[];
  action: string;
}

function useGroups(): { title: string; items: Shortcut[] }[] {
  const S = t.shortcuts;
  const K = S.keys;
  const rewind = useSharedConfig((s) => s.rewindSeekTime);
  const forward = useSharedConfig((s) => s.forwardSeekTime);
  return [
    {
      title: S.groups.playback,
      items: [
        { combos: [[K.space], ['K']], action: S.playPause },
        { combos: [['←'], ['J']], action: t.player.rewind(rewind) },
        { combos: [['→'], ['L']], action: t.player.forward(forward) },
        { combos: [[K.shift, '←'], ['P']], action: S.previous },
        { combos: [[K.shift, '→'], ['N']], action: S.next },
        { combos: [['↑']], action: S.volumeUp },
        { combos: [['↓']], action: S.volumeDown },
      ],
    },
    {
      title: S.groups.search,
      items: [
        { combos: [[K.enter]], action: S.searchNow },
        { combos: [[K.enter]], action: S.addTerm },
        { combos: [[K.enter]], action: S.jumpPage },
      ],
    },
    { title: S.groups.images, items: [{ combos: [['←'], ['→']], action: S.previousImage }] },
    {
      title: S.groups.general,
      items: [
        { combos: [['?']], action: S.showHelp },
        { combos: [[K.esc]], action: S.closeDialog },
      ],
    },
  ];
}

function Keys({ combos }: { combos: readonly Combo[] }) {
  return (
    <Group gap={6} wrap="wrap">
      {combos.map((combo, i) => (
        <Fragment key={i}>
          {i > 0 && (
            <Text span size="xs" c="dimmed" aria-hidden>
              /
            </Text>
          )}
          <Group gap={3} wrap="nowrap">
            {combo.map((key, j) => (
              <Fragment key={j}>
                {j > 0 && (
                  <Text span size="xs" aria-hidden>
                    +
                  </Text>
                )}
                <Kbd size="sm">{key}</Kbd>
              </Fragment>
            ))}
          </Group>
        </Fragment>
      ))}
    </Group>
  );
}

export function ShortcutHelp({ onClose }: { onClose(): void }) {
  const groups = useGroups();
  return (
    <Modal opened onClose={onClose} title={t.shortcuts.title} size="xl" zIndex={400} closeButtonProps={{ 'aria-label': t.shortcuts.close }} data-testid="shortcut-help">
      <Stack gap="md">
        <Text size="sm">{t.shortcuts.hint}</Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg" verticalSpacing="md">
          {groups.map((group) => (
            <Stack key={group.title} gap={6} data-testid="shortcut-group">
              <Title order={3} size="h5">
                {group.title}
              </Title>
              <Table withRowBorders={false} verticalSpacing={4} horizontalSpacing={0}>
                <Table.Tbody>
                  {group.items.map((item) => (
                    <Table.Tr key={item.action} data-testid="shortcut-row">
                      <Table.Td w="45%" pr="sm" style={{ verticalAlign: 'top' }}>
                        <Keys combos={item.combos} />
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{item.action}</Text>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Stack>
          ))}
        </SimpleGrid>
        <Text size="xs" c="dimmed">
          {t.shortcuts.desktopOnly}
        </Text>
      </Stack>
    </Modal>
  );
}
