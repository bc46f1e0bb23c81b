/**
 * A search box over the metadata editor's candidates (`GET /api/edit/candidates`): every label whose
 * name contains the text, and — when none has exactly that name — a new custom item with id 0.
 * Enter with no option highlighted adds the typed name (the label of that name when there is one).
 * `onListOpen` tells the dialog around it when the list opens and closes: Esc closes the list only.
 */
import type { KeyboardEvent } from 'react';
import { useState } from 'react';
import { Combobox, Group, Text, TextInput, useCombobox } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { IconPlus } from '@tabler/icons-react';
import { t } from '../../i18n/index.js';
import { fetchEditCandidates, type CandidateType, type EditLabel } from './api.js';

const E = t.library.editMeta;
const CUSTOM = '__custom__';

const norm = (s: string) => s.normalize('NFKC').trim().toLowerCase();

interface LabelPickerProps {
  type: CandidateType;
  label: string;
  onPick(item: EditLabel): void;
  testId: string;
  /** The list of candidates opened (true) or closed (false). */
  onListOpen?(open: boolean): void;
}

export function LabelPicker({ type, label, onPick, testId, onListOpen }: LabelPickerProps) {
  const queryClient = useQueryClient();
  const combobox = useCombobox({
    onDropdownOpen: () => onListOpen?.(true),
    onDropdownClose: () => {
      combobox.resetSelectedOption();
      onListOpen?.(false);
    },
  });
  const [q, setQ] = useState('');
  const [debounced] = useDebouncedValue(q.trim(), 250);
  const open = combobox.dropdownOpened;
  const candidatesOf = (text: string) => ({
    queryKey: ['edit-candidates', type, text],
    queryFn: ({ signal }: { signal: AbortSignal }) => fetchEditCandidates(type, text, signal),
    staleTime: 60_000,
  });
  const candidates = useQuery({
    ...candidatesOf(debounced),
    enabled: open,
  });
  const items = candidates.data ?? [];
  const text = q.trim();
  const exact = items.some((i) => norm(i.name) === norm(text));

  const submit = (value: string) => {
    if (value === CUSTOM) onPick({ id: 0, name: text });
    else {
      const item = items[Number(value)];
      if (item) onPick({ id: item.id, name: item.name, count: item.count });
    }
    setQ('');
    combobox.closeDropdown();
  };

  /** Enter on the typed text: the candidate of exactly that name, else a new item (asked for the text itself, not the debounced one). */
  const addTyped = async (typed: string) => {
    setQ('');
    combobox.closeDropdown();
    let found: EditLabel | undefined;
    try {
      found = (await queryClient.fetchQuery(candidatesOf(typed))).find((i) => norm(i.name) === norm(typed));
    } catch {
      // unreachable candidates: the typed name is added as a new item, as the custom option would
    }
    onPick(found ? { id: found.id, name: found.name, count: found.count } : { id: 0, name: typed });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== 'Enter' || e.nativeEvent.isComposing || !text) return;
    if (combobox.dropdownOpened && combobox.getSelectedOptionIndex() !== -1) return; // the highlighted option is picked
    e.preventDefault();
    void addTyped(text);
  };

  return (
    <Combobox store={combobox} onOptionSubmit={submit} withinPortal>
      <Combobox.Target>
        <TextInput
          value={q}
          onChange={(e) => {
            setQ(e.currentTarget.value);
            combobox.openDropdown();
            combobox.updateSelectedOptionIndex();
          }}
          onFocus={() => combobox.openDropdown()}
          onBlur={() => combobox.closeDropdown()}
          onClick={() => combobox.openDropdown()}
          onKeyDown={onKeyDown}
          placeholder={E.search}
          aria-label={t.punctuation.labelled(label, E.search)}
          size="sm"
          data-testid={testId}
        />
      </Combobox.Target>
      <Combobox.Dropdown>
        <Combobox.Options mah={260} style={{ overflowY: 'auto' }}>
          {items.map((item, i) => (
            <Combobox.Option value={String(i)} key={`${item.id}:${item.name}`}>
              <Group justify="space-between" wrap="nowrap" gap="xs">
                <Text size="sm">{item.name}</Text>
                {item.count !== undefined && (
                  <Text size="xs" c="dimmed">
                    {item.count}
                  </Text>
                )}
              </Group>
            </Combobox.Option>
          ))}
          {text && !exact && (
            <Combobox.Option value={CUSTOM} data-testid={`${testId}-custom`}>
              <Group gap={6} wrap="nowrap">
                <IconPlus size={14} />
                <Text size="sm">{E.addCustom(text)}</Text>
              </Group>
            </Combobox.Option>
          )}
          {!text && !items.length && <Combobox.Empty>{candidates.isFetching ? t.app.loading : t.library.search.noCandidates}</Combobox.Empty>}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
