/**
 * The queue: click to play an entry, drag to reorder (the current track stays
 * selected), remove one (removing the current one stops playback), clear all (with a confirmation).
 * At most 450 px tall, scrolling inside.
 */
import { useState } from 'react';
import { ActionIcon, Box, Button, Group, Modal, ScrollArea, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconGripVertical, IconPlayerPlayFilled, IconTrash, IconX } from '@tabler/icons-react';
import { closestCenter, DndContext, KeyboardSensor, PointerSensor, TouchSensor, useSensor, useSensors, type DragEndEvent } from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { t } from '../../i18n/index.js';
import { formatTime } from '../../i18n/format.js';
import { usePlayer, type QueueEntry } from './store.js';

export const QUEUE_MAX_HEIGHT = 450;

/** Queue entries may repeat a hash; ids are position-independent keys made unique per occurrence. */
function idsOf(queue: readonly QueueEntry[]): string[] {
  const seen = new Map<string, number>();
  return queue.map((e) => {
    const n = (seen.get(e.hash) ?? 0) + 1;
    seen.set(e.hash, n);
    return `${e.hash}#${n}`;
  });
}

function Row({ id, entry, index, current }: { id: string; entry: QueueEntry; index: number; current: boolean }) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id });
  return (
    <Group
      ref={setNodeRef}
      gap={4}
      wrap="nowrap"
      px={4}
      py={2}
      data-testid="queue-item"
      data-current={current || undefined}
      style={{
        transform: transform ? `translate3d(${transform.x}px, ${transform.y}px, 0)` : undefined,
        transition,
        zIndex: isDragging ? 1 : undefined,
        position: 'relative',
        borderRadius: 'var(--mantine-radius-sm)',
        background: isDragging ? 'var(--mantine-color-default-hover)' : current ? 'var(--mantine-primary-color-light)' : undefined,
      }}
    >
      <ActionIcon
        ref={setActivatorNodeRef}
        variant="subtle"
        color="gray"
        aria-label={t.player.queue.drag}
        style={{ cursor: 'grab', touchAction: 'none' }}
        {...attributes}
        {...listeners}
        data-testid="queue-drag"
      >
        <IconGripVertical size={16} />
      </ActionIcon>
      <UnstyledButton onClick={() => usePlayer.getState().setTrack(index)} style={{ flex: 1, minWidth: 0 }} py={4}>
        <Group gap={8} wrap="nowrap">
          <Text size="xs" c="dimmed" w={22} ta="right" ff="monospace">
            {current ? <IconPlayerPlayFilled size={12} /> : index + 1}
          </Text>
          <Box style={{ minWidth: 0 }}>
            <Text size="sm" fw={current ? 600 : 400} lineClamp={1} data-testid="queue-title">
              {entry.title}
            </Text>
            <Text size="xs" c="dimmed" lineClamp={1}>
              {[entry.workTitle, entry.subtitle].filter(Boolean).join(' · ')}
              {entry.duration ? ` · ${formatTime(entry.duration)}` : ''}
            </Text>
          </Box>
        </Group>
      </UnstyledButton>
      <ActionIcon variant="subtle" color="gray" aria-label={t.player.queue.remove} onClick={() => usePlayer.getState().remove(index)} data-testid="queue-remove">
        <IconX size={16} />
      </ActionIcon>
    </Group>
  );
}

export function QueueDialog({ opened, onClose }: { opened: boolean; onClose(): void }) {
  const queue = usePlayer((s) => s.queue);
  const index = usePlayer((s) => s.index);
  const [confirming, setConfirming] = useState(false);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 150, tolerance: 6 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const ids = idsOf(queue);

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = ids.indexOf(String(active.id));
    const to = ids.indexOf(String(over.id));
    if (from >= 0 && to >= 0) usePlayer.getState().move(from, to);
  };

  return (
    <Modal
      opened={opened}
      onClose={() => {
        setConfirming(false);
        onClose();
      }}
      title={
        <Group gap="xs">
          <Text fw={600}>{t.player.queue.title}</Text>
          <Text size="sm" c="dimmed">
            {t.player.queue.count(queue.length)}
          </Text>
        </Group>
      }
      centered
      zIndex={310}
      size="lg"
    >
      {queue.length === 0 ? (
        <Text c="dimmed" ta="center" py="xl">
          {t.player.queue.empty}
        </Text>
      ) : (
        <ScrollArea.Autosize mah={QUEUE_MAX_HEIGHT} type="auto" data-testid="queue-list">
          <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
            <SortableContext items={ids} strategy={verticalListSortingStrategy}>
              <Stack gap={2}>
                {queue.map((entry, i) => (
                  <Row key={ids[i]} id={ids[i]} entry={entry} index={i} current={i === index} />
                ))}
              </Stack>
            </SortableContext>
          </DndContext>
        </ScrollArea.Autosize>
      )}
      <Group justify="flex-end" mt="md">
        {confirming ? (
          <>
            <Text size="sm" style={{ flex: 1 }}>
              {t.player.queue.clearConfirm}
            </Text>
            <Button variant="default" size="xs" onClick={() => setConfirming(false)}>
              {t.player.queue.cancel}
            </Button>
            <Button
              color="red"
              size="xs"
              onClick={() => {
                usePlayer.getState().clear();
                setConfirming(false);
              }}
              data-testid="queue-clear-confirm"
            >
              {t.player.queue.clear}
            </Button>
          </>
        ) : (
          <Button variant="subtle" color="red" size="xs" leftSection={<IconTrash size={16} />} disabled={!queue.length} onClick={() => setConfirming(true)} data-testid="queue-clear">
            {t.player.queue.clear}
          </Button>
        )}
      </Group>
    </Modal>
  );
}
