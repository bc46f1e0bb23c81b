/**
 * /admin: add a folder (alias + absolute path; an empty name or
 * path is ignored; alias and path must be unique), the list with delete, and the cover folder path.
 * The server checks the path exists and answers 4xx `{error}` for anything else it refuses.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { ActionIcon, Alert, Badge, Button, Group, Paper, Skeleton, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { IconAlertTriangle, IconFolder, IconFolderPlus, IconScan, IconTrash } from '@tabler/icons-react';
import { HoverTip } from '../../components/HoverTip.js';
import { t } from '../../i18n/index.js';
import { notifySuccess } from '../../lib/notify.js';
import { KikoeruImportPanel } from './KikoeruImportPanel.js';
import { FOLDERS_KEY, addFolder, deleteFolder, fetchFolders, saveCoverFolder, type FoldersView } from './api.js';

const f = t.dashboard.folders;

/** `/srv/lib/` and `/srv/lib` name the same folder. */
const samePath = (a: string, b: string) => a.replace(/[\\/]+$/, '') === b.replace(/[\\/]+$/, '');

function AddFolderForm({ view }: { view: FoldersView }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [path, setPath] = useState(view.voiceWorkDefaultPath);
  const [errors, setErrors] = useState<{ name?: string; path?: string }>({});
  const add = useMutation({
    mutationFn: (input: { name: string; path: string }) => addFolder(input.name, input.path),
    onSuccess: (answer, input) => {
      queryClient.setQueryData(FOLDERS_KEY, answer.folders);
      notifySuccess(f.added(input.name));
      setName('');
      setPath(view.voiceWorkDefaultPath);
    },
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const n = name.trim();
    const p = path.trim();
    if (!n || !p) return; // an empty name or path is ignored
    const found: typeof errors = {};
    if (view.folders.some((x) => x.name === n)) found.name = f.nameTaken;
    if (view.folders.some((x) => samePath(x.path, p))) found.path = f.pathTaken;
    setErrors(found);
    if (found.name || found.path) return;
    add.mutate({ name: n, path: p });
  };

  return (
    <Paper component="form" onSubmit={submit} withBorder radius="md" p="md" data-testid="add-folder">
      <Stack gap="sm">
        <Group gap="sm" align="flex-start" wrap="wrap">
          <TextInput
            label={f.alias}
            placeholder={f.aliasPlaceholder}
            value={name}
            error={errors.name}
            onChange={(e) => {
              setName(e.currentTarget.value);
              setErrors((x) => ({ ...x, name: undefined }));
            }}
            style={{ flex: '1 1 160px' }}
            maxLength={64}
          />
          <TextInput
            label={f.path}
            placeholder={f.pathPlaceholder}
            value={path}
            error={errors.path}
            onChange={(e) => {
              setPath(e.currentTarget.value);
              setErrors((x) => ({ ...x, path: undefined }));
            }}
            style={{ flex: '3 1 260px' }}
            spellCheck={false}
            autoCapitalize="none"
          />
        </Group>
        <Group justify="flex-end">
          <Button type="submit" leftSection={<IconFolderPlus size={18} />} loading={add.isPending}>
            {f.add}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function FolderList({ view }: { view: FoldersView }) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: deleteFolder,
    onSuccess: (answer, name) => {
      queryClient.setQueryData(FOLDERS_KEY, answer.folders);
      notifySuccess(f.removed(name));
    },
  });
  const confirmDelete = (name: string) =>
    modals.openConfirmModal({
      title: f.deleteTitle,
      children: <Text size="sm">{f.deleteConfirm(name)}</Text>,
      labels: { confirm: f.delete, cancel: f.cancel },
      confirmProps: { color: 'red' },
      centered: true,
      onConfirm: () => remove.mutate(name),
    });

  if (!view.folders.length) {
    return (
      <Text c="dimmed" size="sm" data-testid="folder-list">
        {f.empty}
      </Text>
    );
  }
  return (
    <Stack gap="xs" data-testid="folder-list">
      {view.folders.map((folder) => (
        <Paper key={folder.name} withBorder radius="md" px="md" py="sm" data-testid="folder-row">
          <Group justify="space-between" wrap="nowrap" gap="sm">
            <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
              <IconFolder size={22} stroke={1.6} color={folder.exists ? 'var(--mantine-primary-color-filled)' : 'var(--mantine-color-red-filled)'} aria-hidden style={{ flexShrink: 0 }} />
              <Stack gap={0} style={{ minWidth: 0 }}>
                <Group gap={6}>
                  <Text fw={600}>{folder.name}</Text>
                  <Badge size="sm" variant="light" color="gray">
                    {f.works(folder.works)}
                  </Badge>
                  {!folder.exists && (
                    <Badge size="sm" variant="light" color="red" leftSection={<IconAlertTriangle size={12} />}>
                      {f.unreachable}
                    </Badge>
                  )}
                </Group>
                <Text size="sm" c="dimmed" style={{ wordBreak: 'break-all' }}>
                  {folder.path}
                </Text>
              </Stack>
            </Group>
            <HoverTip label={f.delete}>
              <ActionIcon
                variant="subtle"
                color="red"
                size="lg"
                aria-label={`${f.delete} ${folder.name}`}
                onClick={() => confirmDelete(folder.name)}
                loading={remove.isPending && remove.variables === folder.name}
              >
                <IconTrash size={18} />
              </ActionIcon>
            </HoverTip>
          </Group>
        </Paper>
      ))}
    </Stack>
  );
}

function CoverFolderForm({ view }: { view: FoldersView }) {
  const queryClient = useQueryClient();
  const [useDefault, setUseDefault] = useState(view.cover.coverUseDefaultPath);
  const [dir, setDir] = useState(view.cover.coverFolderDir);
  useEffect(() => {
    setUseDefault(view.cover.coverUseDefaultPath);
    setDir(view.cover.coverFolderDir);
  }, [view.cover.coverUseDefaultPath, view.cover.coverFolderDir]);
  const save = useMutation({
    mutationFn: () => saveCoverFolder(useDefault, dir.trim()),
    onSuccess: (answer) => {
      queryClient.setQueryData(FOLDERS_KEY, answer.folders);
      notifySuccess(f.coverSaved);
    },
  });
  const changed = useDefault !== view.cover.coverUseDefaultPath || (!useDefault && dir.trim() !== view.cover.coverFolderDir);
  return (
    <Paper
      component="form"
      withBorder
      radius="md"
      p="md"
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        save.mutate();
      }}
      data-testid="cover-folder"
    >
      <Stack gap="sm">
        <Switch label={f.coverDefault} checked={useDefault} onChange={(e) => setUseDefault(e.currentTarget.checked)} />
        <TextInput label={f.coverPath} value={dir} onChange={(e) => setDir(e.currentTarget.value)} disabled={useDefault} spellCheck={false} autoCapitalize="none" placeholder={view.cover.defaultDir} />
        <Group justify="space-between" gap="xs">
          <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all', flex: 1 }}>
            {f.coverEffective(view.cover.effectiveDir)}
          </Text>
          <Button type="submit" variant="light" disabled={!changed} loading={save.isPending}>
            {f.save}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

export function FoldersPage() {
  const query = useQuery({ queryKey: FOLDERS_KEY, queryFn: ({ signal }) => fetchFolders(signal) });
  return (
    <Stack gap="lg" maw={900} mx="auto" w="100%">
      <Group justify="space-between" gap="xs">
        <Title order={2} size="h3">
          {f.title}
        </Title>
        <Button component={Link} to="/admin/scanner" variant="subtle" leftSection={<IconScan size={18} />}>
          {f.goScan}
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        {f.intro}
      </Text>
      {query.isError && <Alert color="red">{query.error.message}</Alert>}
      {!query.data ? (
        <Stack gap="sm">
          <Skeleton h={110} radius="md" />
          <Skeleton h={60} radius="md" />
        </Stack>
      ) : (
        <>
          <AddFolderForm key={query.data.voiceWorkDefaultPath} view={query.data} />
          <Stack gap="xs">
            <Title order={3} size="h5">
              {f.list}
            </Title>
            <FolderList view={query.data} />
          </Stack>
          <Stack gap="xs">
            <Title order={3} size="h5">
              {f.coverTitle}
            </Title>
            <CoverFolderForm view={query.data} />
          </Stack>
          <Stack gap="xs">
            <Title order={3} size="h5">
              {t.dashboard.kikoeruImport.title}
            </Title>
            <KikoeruImportPanel />
          </Stack>
        </>
      )}
    </Stack>
  );
}
