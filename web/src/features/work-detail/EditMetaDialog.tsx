/**
 * Edit work info, for the admin: title, circle,
 * tags and voice actors picked from the candidates or added as custom items (id 0). Saved with
 * POST /api/edit/work/:id; on success the page reloads after 2 s, on failure '自定义meta失败: …'.
 */
import { useEffect, useState } from 'react';
import { Button, Group, Modal, Pill, Stack, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import type { WorkDetail } from '../../../../server/contract/works.js';
import { errorText } from '../../api/errors.js';
import { t } from '../../i18n/index.js';
import { notifyError, notifySuccess, notifyWarning } from '../../lib/notify.js';
import { editWork, type EditLabel } from './api.js';
import { addLabel, removeLabel, vasToSend, type ListEdit } from './edit-meta.js';
import { LabelPicker } from './LabelPicker.js';

const E = t.library.editMeta;
/** The page refreshes 2 s after a successful edit. */
export const RELOAD_AFTER_EDIT_MS = 2000;

interface EditMetaDialogProps {
  work: WorkDetail;
  opened: boolean;
  onClose(): void;
  /** What "refresh the page" does (a full reload in the app). */
  onSaved(): void;
}

function LabelList({ items, color, onRemove, testId }: { items: EditLabel[]; color: string; onRemove(i: number): void; testId: string }) {
  return (
    <Group gap={6} data-testid={testId}>
      {items.map((item, i) => (
        <Pill
          key={`${item.id}:${item.name}`}
          withRemoveButton
          onRemove={() => onRemove(i)}
          removeButtonProps={{ 'aria-label': t.library.search.remove(item.name), 'aria-hidden': false, tabIndex: 0 }}
          style={{ background: `var(--mantine-color-${color}-light)` }}
        >
          {item.name}
          {String(item.id) === '0' && item.name !== 'N/A' ? ' *' : ''}
        </Pill>
      ))}
    </Group>
  );
}

export function EditMetaDialog({ work, opened, onClose, onSaved }: EditMetaDialogProps) {
  const [title, setTitle] = useState(work.title);
  const [circle, setCircle] = useState<EditLabel>(work.circle);
  const [tags, setTags] = useState<EditLabel[]>(work.tags);
  const [vas, setVas] = useState<EditLabel[]>(vasToSend(work.vas));
  // the pickers whose list is open: Esc closes that list, not the dialog
  const [openLists, setOpenLists] = useState<ReadonlySet<string>>(new Set());
  const listOpen = (picker: string) => (open: boolean) =>
    setOpenLists((now) => {
      if (now.has(picker) === open) return now;
      const next = new Set(now);
      if (open) next.add(picker);
      else next.delete(picker);
      return next;
    });

  useEffect(() => {
    if (!opened) return;
    setTitle(work.title);
    setCircle(work.circle);
    setTags(work.tags);
    setVas(vasToSend(work.vas));
    setOpenLists(new Set());
  }, [opened, work]);

  const apply = (result: ListEdit, set: (list: EditLabel[]) => void) => {
    if (!result.ok) {
      notifyWarning(result.error === 'duplicate' ? E.duplicate : E.noVa);
      return;
    }
    if (result.notice === 'noVa') notifyWarning(E.noVa);
    set(result.list);
  };

  const save = useMutation({
    mutationFn: () =>
      editWork(work.id, {
        title: title.trim(),
        circle: { id: Number(circle.id) || 0, name: circle.name },
        tags: tags.map((l) => ({ id: l.id, name: l.name })),
        vas: vasToSend(vas).map((l) => ({ id: l.id, name: l.name })),
      }),
    meta: { silent: true },
    onSuccess: () => {
      notifySuccess(E.saved, { autoClose: RELOAD_AFTER_EDIT_MS });
      onClose();
      window.setTimeout(onSaved, RELOAD_AFTER_EDIT_MS);
    },
    onError: (err) => notifyError(E.failed(errorText(err))),
  });

  const submit = () => {
    if (!title.trim()) return notifyWarning(E.titleRequired);
    if (!circle.name.trim()) return notifyWarning(E.circleRequired);
    save.mutate();
  };

  return (
    <Modal opened={opened} onClose={onClose} closeOnEscape={openLists.size === 0} title={E.title} centered size="lg" data-testid="edit-meta-dialog">
      <Stack gap="md">
        <TextInput label={E.workTitle} value={title} onChange={(e) => setTitle(e.currentTarget.value)} required data-testid="edit-title" />
        <Stack gap={6}>
          <Text size="sm" fw={500}>
            {E.circle}
          </Text>
          {circle.name && (
            <Group gap={6}>
              <Pill size="md" style={{ background: 'var(--mantine-color-orange-light)' }} data-testid="edit-circle-current">
                {circle.name}
              </Pill>
            </Group>
          )}
          <LabelPicker type="circle" label={E.circle} onPick={(c) => setCircle(c)} testId="edit-circle" onListOpen={listOpen('circle')} />
        </Stack>
        <Stack gap={6}>
          <Text size="sm" fw={500}>
            {E.tags}
          </Text>
          <LabelList items={tags} color="teal" onRemove={(i) => apply(removeLabel(tags, i, 'tag'), setTags)} testId="edit-tags-list" />
          <LabelPicker type="tag" label={E.tags} onPick={(c) => apply(addLabel(tags, c, 'tag'), setTags)} testId="edit-tags" onListOpen={listOpen('tag')} />
        </Stack>
        <Stack gap={6}>
          <Text size="sm" fw={500}>
            {E.vas}
          </Text>
          <LabelList items={vas} color="blue" onRemove={(i) => apply(removeLabel(vas, i, 'va'), setVas)} testId="edit-vas-list" />
          <LabelPicker type="va" label={E.vas} onPick={(c) => apply(addLabel(vas, c, 'va'), setVas)} testId="edit-vas" onListOpen={listOpen('va')} />
        </Stack>
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose} disabled={save.isPending}>
            {E.cancel}
          </Button>
          <Button onClick={submit} loading={save.isPending} data-testid="edit-save">
            {E.save}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
