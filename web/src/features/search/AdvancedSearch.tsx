/**
 * Advanced search: a type selector (auto/fuzzy, voice actor, tag, circle), a keyword
 * input that adds a term on Enter or the add button, candidate badges from the voice actor / tag /
 * circle lists (shown while the input has focus, hidden 500 ms after it loses it, so a click on a
 * badge still lands), and the removable terms. The terms are the `advancedKeywords` preference.
 */
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import { ActionIcon, Badge, Group, Paper, Pill, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { HoverTip } from '../../components/HoverTip.js';
import { t } from '../../i18n/index.js';
import { notifyWarning } from '../../lib/notify.js';
import { usePref, type SearchType } from '../../lib/prefs.js';
import { useLabels } from '../labels/api.js';
import { addPicked, addTyped, candidateCondition, hasCode, matchCandidates, PICK_TYPES, removeAt, type AddError, type LabelCandidate, type PickType } from './search-conditions.js';

/** Candidates hide this long after the input loses focus. */
export const CANDIDATE_HIDE_MS = 500;

const S = t.library.search;

export const TYPE_COLOR: Record<SearchType, string> = { fuzzy: 'gray', va: 'blue', tag: 'teal', circle: 'orange', code: 'violet', unknown: 'gray' };

const ERRORS: Record<AddError, string> = {
  empty: S.empty,
  duplicateKeyword: S.duplicateKeyword,
  duplicateCondition: S.duplicateCondition,
  pickCandidate: S.pickCandidate,
};

/** Memoised: the works page re-renders for every page the waterfall loads; this part only when its own inputs change. */
export const AdvancedSearch = memo(function AdvancedSearch() {
  const [conditions, setConditions] = usePref('advancedKeywords');
  const [type, setType] = useState<PickType>('fuzzy');
  const [text, setText] = useState('');
  const [showCandidates, setShowCandidates] = useState(false);
  const hideTimer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(hideTimer.current), []);

  const wanted = showCandidates || text !== '';
  const vas = useLabels('vas', wanted);
  const tags = useLabels('tags', wanted);
  const circles = useLabels('circles', wanted);

  const lists = useMemo(
    () => ({
      va: (vas.data ?? []).map((l): LabelCandidate => ({ type: 'va', id: l.id, name: l.name, count: l.count })),
      tag: (tags.data ?? []).map((l): LabelCandidate => ({ type: 'tag', id: l.id, name: l.name, count: l.count })),
      circle: (circles.data ?? []).map((l): LabelCandidate => ({ type: 'circle', id: l.id, name: l.name, count: l.count })),
    }),
    [vas.data, tags.data, circles.data],
  );
  const candidates = useMemo(() => (showCandidates ? matchCandidates(lists, type, text) : []), [showCandidates, lists, type, text]);

  const apply = (result: ReturnType<typeof addTyped>) => {
    if (!result.ok) {
      notifyWarning(ERRORS[result.error]);
      return false;
    }
    setConditions(result.conditions);
    return true;
  };

  const addText = () => {
    if (apply(addTyped(conditions, type, text))) setText('');
  };

  const pick = (c: LabelCandidate) => {
    if (apply(addPicked(conditions, candidateCondition(c)))) setText('');
  };

  return (
    <Paper withBorder radius="md" p="sm" data-testid="advanced-search">
      <Stack gap="xs">
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <Select
            value={type}
            onChange={(v) => v && setType(v as PickType)}
            data={PICK_TYPES.map((p) => ({ value: p, label: S.types[p] }))}
            allowDeselect={false}
            aria-label={S.type}
            w={{ base: 116, sm: 124 }}
            style={{ flexShrink: 0 }}
            data-testid="search-type"
          />
          <TextInput
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            onFocus={() => {
              window.clearTimeout(hideTimer.current);
              setShowCandidates(true);
            }}
            onBlur={() => {
              window.clearTimeout(hideTimer.current);
              hideTimer.current = window.setTimeout(() => setShowCandidates(false), CANDIDATE_HIDE_MS);
            }}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.nativeEvent.isComposing) {
                e.preventDefault();
                addText();
              }
            }}
            placeholder={type === 'fuzzy' ? S.placeholder : S.placeholderPick(S.types[type])}
            aria-label={S.placeholder}
            enterKeyHint="search"
            style={{ flex: 1, minWidth: 0 }}
            data-testid="search-input"
          />
          <HoverTip label={S.add}>
            <ActionIcon size="input-sm" variant="filled" onClick={addText} aria-label={S.add} data-testid="search-add">
              <IconPlus size={18} />
            </ActionIcon>
          </HoverTip>
        </Group>

        {showCandidates && (
          <Group gap={6} data-testid="search-candidates" aria-label={S.candidates}>
            {candidates.length === 0 ? (
              <Text size="xs" c="dimmed">
                {vas.isLoading || tags.isLoading || circles.isLoading ? t.app.loading : S.noCandidates}
              </Text>
            ) : (
              candidates.map((c) => (
                <Badge
                  key={`${c.type}:${c.id}`}
                  component="button"
                  type="button"
                  onMouseDown={(e) => e.preventDefault() /* keep the focus in the input */}
                  onClick={() => pick(c)}
                  color={TYPE_COLOR[c.type]}
                  variant="light"
                  tt="none"
                  size="lg"
                  radius="sm"
                  style={{ cursor: 'pointer' }}
                  leftSection={
                    <Text span size="xs" fw={700}>
                      {S.types[c.type]}
                    </Text>
                  }
                  rightSection={
                    <Text span size="xs" c="dimmed">
                      {c.count}
                    </Text>
                  }
                  data-testid="search-candidate"
                >
                  {c.name}
                </Badge>
              ))
            )}
          </Group>
        )}

        {conditions.length > 0 ? (
          <Group gap={6} justify="space-between" wrap="nowrap" align="flex-start">
            <Group gap={6} data-testid="search-terms">
              {conditions.map((c, i) => (
                <Pill
                  key={`${c.type}:${c.value}`}
                  withRemoveButton
                  onRemove={() => setConditions(removeAt(conditions, i))}
                  removeButtonProps={{ 'aria-label': S.remove(c.name), 'aria-hidden': false, tabIndex: 0 }}
                  size="md"
                  style={{ background: `var(--mantine-color-${TYPE_COLOR[c.type]}-light)`, color: `var(--mantine-color-${TYPE_COLOR[c.type]}-light-color)` }}
                  data-testid="search-term"
                  data-type={c.type}
                >
                  {c.type === 'fuzzy' ? c.name : t.punctuation.labelled(S.types[c.type], c.name)}
                </Pill>
              ))}
            </Group>
            <HoverTip label={S.clear}>
              <ActionIcon variant="subtle" color="gray" onClick={() => setConditions([])} aria-label={S.clear}>
                <IconTrash size={16} />
              </ActionIcon>
            </HoverTip>
          </Group>
        ) : (
          <Text size="xs" c="dimmed">
            {S.noConditions}
          </Text>
        )}
        {hasCode(conditions) && conditions.length > 1 && (
          <Text size="xs" c="violet">
            {S.codeOverrides}
          </Text>
        )}
      </Stack>
    </Paper>
  );
});
