/**
 * The lyric editor for the admin (save-lrc): change times and texts, delete and add
 * lines, then save them as a WebVTT file at a path relative to the work folder (default: next to the
 * audio, `<audio name>.vtt`). The saved lines become the track's lyric at once.
 */
import { useMemo, useState } from 'react';
import { ActionIcon, Button, Group, Modal, ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import { IconArrowBackUp, IconClockPlay, IconPlayerPlay, IconPlus, IconTrash } from '@tabler/icons-react';
import { HoverTip } from '../../components/HoverTip.js';
import { reportError } from '../../api/errors.js';
import { t } from '../../i18n/index.js';
import { notifySuccess, notifyWarning } from '../../lib/notify.js';
import { getEngine } from '../player/engine.js';
import { useCurrentEntry } from '../player/store.js';
import { saveLrc } from './lyric-api.js';
import { checkWritePath, defaultWritePath, formatEditTime, linesToSave, parseEditTime } from './lyric-edit.js';
import { useLyrics } from './lyric-store.js';

interface Row {
  id: number;
  timeText: string;
  text: string;
  timeEnd?: number;
  deleted: boolean;
}

let nextId = 1;

export function LyricEditor({ opened, onClose }: { opened: boolean; onClose(): void }) {
  return (
    <Modal opened={opened} onClose={onClose} title={t.player.lyrics.editTitle} size="xl" centered zIndex={310}>
      {opened && <EditorBody onClose={onClose} />}
    </Modal>
  );
}

function EditorBody({ onClose }: { onClose(): void }) {
  const entry = useCurrentEntry();
  const lines = useLyrics((s) => s.lines);
  const offset = useLyrics((s) => s.offset);
  // the offset is baked into the saved times
  const initial = useMemo<Row[]>(
    () =>
      lines.map((l) => ({ id: nextId++, timeText: formatEditTime(l.time + offset * 1000), text: l.text, timeEnd: l.timeEnd === undefined ? undefined : l.timeEnd + offset * 1000, deleted: false })),
    [lines, offset],
  );
  const [rows, setRows] = useState<Row[]>(initial);
  const [path, setPath] = useState(entry ? defaultWritePath(entry) : '');
  const [saving, setSaving] = useState(false);
  const update = (id: number, patch: Partial<Row>) => setRows((rs) => rs.map((r) => (r.id === id ? { ...r, ...patch } : r)));
  const nowText = () => formatEditTime(getEngine().currentTime * 1000);

  const save = async () => {
    if (!entry) return;
    const writePath = checkWritePath(path);
    if (!writePath) return notifyWarning(t.player.lyrics.editPathRule);
    const parsed = [];
    for (const r of rows) {
      if (r.deleted) continue;
      const time = parseEditTime(r.timeText);
      if (time === null) return notifyWarning(t.punctuation.labelled(t.player.lyrics.editBadTime, r.timeText));
      parsed.push({ time, text: r.text.trim(), timeEnd: r.timeEnd !== undefined && r.timeEnd > time ? r.timeEnd : undefined });
    }
    const out = linesToSave(parsed.filter((l) => l.text));
    if (!out.length) return notifyWarning(t.player.lyrics.editEmpty);
    setSaving(true);
    try {
      await saveLrc(entry.workId, writePath, out);
      useLyrics.getState().setOffset(0);
      useLyrics.getState().replace(out, { title: writePath.split('/').at(-1) ?? writePath, isAI: false, loose: false });
      notifySuccess(t.player.lyrics.editSaved);
      onClose();
    } catch (err) {
      reportError(err);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Stack gap="sm" data-testid="lyric-editor">
      <Group justify="space-between">
        <Text size="sm" c="dimmed" lineClamp={1} style={{ flex: 1 }}>
          {entry?.title}
        </Text>
        <Button
          size="xs"
          variant="light"
          leftSection={<IconPlus size={16} />}
          onClick={() => setRows((rs) => [...rs, { id: nextId++, timeText: nowText(), text: '', deleted: false }].sort((a, b) => (parseEditTime(a.timeText) ?? 0) - (parseEditTime(b.timeText) ?? 0)))}
        >
          {t.player.lyrics.editAdd}
        </Button>
      </Group>
      <ScrollArea.Autosize mah="55vh" type="auto">
        <Stack gap={6} pr="sm">
          {rows.map((r) => (
            <Group key={r.id} gap={6} wrap="nowrap" align="center" opacity={r.deleted ? 0.45 : 1} data-testid="lyric-edit-row">
              <TextInput
                size="xs"
                w={104}
                aria-label={t.player.lyrics.editTime}
                value={r.timeText}
                error={parseEditTime(r.timeText) === null}
                disabled={r.deleted}
                onChange={(e) => update(r.id, { timeText: e.currentTarget.value })}
                styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
              />
              <HoverTip label={t.player.lyrics.editSetTime} openDelay={400}>
                <ActionIcon variant="subtle" color="gray" aria-label={t.player.lyrics.editSetTime} disabled={r.deleted} onClick={() => update(r.id, { timeText: nowText() })}>
                  <IconClockPlay size={16} />
                </ActionIcon>
              </HoverTip>
              <TextInput
                size="xs"
                style={{ flex: 1 }}
                aria-label={t.player.lyrics.editText}
                value={r.text}
                disabled={r.deleted}
                onChange={(e) => update(r.id, { text: e.currentTarget.value })}
                td={r.deleted ? 'line-through' : undefined}
              />
              <HoverTip label={t.player.lyrics.editSeek} openDelay={400}>
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  aria-label={t.player.lyrics.editSeek}
                  onClick={() => {
                    const ms = parseEditTime(r.timeText);
                    if (ms !== null) getEngine().seek(ms / 1000);
                  }}
                >
                  <IconPlayerPlay size={16} />
                </ActionIcon>
              </HoverTip>
              <HoverTip label={r.deleted ? t.player.lyrics.editRestore : t.player.lyrics.editDelete} openDelay={400}>
                <ActionIcon
                  variant="subtle"
                  color={r.deleted ? 'gray' : 'red'}
                  aria-label={r.deleted ? t.player.lyrics.editRestore : t.player.lyrics.editDelete}
                  onClick={() => update(r.id, { deleted: !r.deleted })}
                >
                  {r.deleted ? <IconArrowBackUp size={16} /> : <IconTrash size={16} />}
                </ActionIcon>
              </HoverTip>
            </Group>
          ))}
        </Stack>
      </ScrollArea.Autosize>
      <TextInput
        label={t.player.lyrics.editPath}
        value={path}
        onChange={(e) => setPath(e.currentTarget.value)}
        error={checkWritePath(path) ? undefined : t.player.lyrics.editPathRule}
        data-testid="lyric-edit-path"
      />
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          {t.player.lyrics.editCancel}
        </Button>
        <Button onClick={() => void save()} loading={saving} data-testid="lyric-edit-save">
          {t.player.lyrics.editSave}
        </Button>
      </Group>
    </Stack>
  );
}
