/**
 * A search box over the metadata editor's candidates (`GET /api/edit/candidates`): every label whose
 * name contains the text, and — when none has exactly that name — a new custom item with id 0.
 */
import { useState } from 'react';
import { Combobox, Group, Text, TextInput, useCombobox } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
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
}

export function LabelPicker({ type, label, onPick, testId }: LabelPickerProps) {
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const [q, setQ] = useState('');
  const [debounced] = useDebouncedValue(q.trim(), 250);
  const open = combobox.dropdownOpened;
  const candidates = useQuery({
    queryKey: ['edit-candidates', type, debounced],
    queryFn: ({ signal }) => fetchEditCandidates(type, debounced, signal),
    enabled: open,
    staleTime: 60_000,
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
