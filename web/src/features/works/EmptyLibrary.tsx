/**
 * The work list of an empty library (no works at all, not an empty search): the next step. An admin
 * adds a library folder right here — a name, a path and a browser of the server's folders — and the
 * folder's scan starts at once over the admin socket (the scanner page's), its progress shown here until
 * works appear; the list then shows them. Anyone else reads that the admin adds folders.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Anchor, Badge, Button, Group, Paper, Progress, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconFolderPlus, IconFolderSearch, IconInfoCircle, IconScan } from '@tabler/icons-react';
import { ApiError } from '../../api/client.js';
import { reportError } from '../../api/errors.js';
import { locale, t } from '../../i18n/index.js';
import { notifySuccess, notifyWarning } from '../../lib/notify.js';
import { FOLDERS_KEY, addFolder, fetchFolders } from '../admin/api.js';
import { useScannerSocket } from '../admin/use-scanner-socket.js';
import type { ScanState } from '../../../../server/contract/scan-state.js';
import { SCAN_TEXT, scanLineText } from '../../../../server/contract/scan-text/index.js';
import { FolderBrowser } from './FolderBrowser.js';
import { WORKS_KEY } from './api.js';

/** A folder's last name as its alias: at most 64 characters, no control characters. */
const aliasOf = (dir: string) => (dir.split(/[/\\]/).filter(Boolean).pop() ?? '').replace(/\p{Cc}/gu, '').slice(0, 64);

function ScanProgress({ state }: { state: ScanState }) {
  const s = t.dashboard.scanner;
  const running = state.status === 'running';
  const status = state.status ?? 'idle';
  const { done, total } = state.progress;
  const percent = total > 0 ? Math.min(100, (done / total) * 100) : 0;
  const last = state.mainLogs[state.mainLogs.length - 1];
  return (
    <Paper withBorder radius="md" p="sm" data-testid="first-scan" data-status={status}>
      <Stack gap={8}>
        <Group justify="space-between" gap="xs">
          <Text size="sm" fw={600}>
            {t.firstRun.scanTitle}
          </Text>
          <Badge color={running ? 'blue' : status === 'finished' ? 'teal' : status === 'error' ? 'red' : 'gray'} variant="light">
            {s.state[status]}
          </Badge>
        </Group>
        <Group justify="space-between" gap="xs">
          <Text size="sm">{running && state.phase ? (s.phases[state.phase] ?? state.phase) : s.state[status]}</Text>
          {total > 0 && (
            <Text size="sm" c="dimmed" data-testid="first-scan-progress">
              {done} / {total}
            </Text>
          )}
        </Group>
        <Progress value={running && total === 0 ? 100 : percent} animated={running} striped={running} aria-label={t.firstRun.scanTitle} />
        <Group gap="xs">
          {(['added', 'updated', 'failed'] as const).map((k) => (
            <Badge key={k} variant="light" color={k === 'added' ? 'teal' : k === 'updated' ? 'blue' : 'red'} radius="sm">
              {s.counts[k]} {state.counts[k]}
            </Badge>
          ))}
        </Group>
        {last && (
          <Text size="xs" c="dimmed" ff="monospace" style={{ overflowWrap: 'anywhere' }} data-testid="first-scan-log">
            {scanLineText(last, SCAN_TEXT[locale()])}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

function FirstFolderPanel() {
  const M = t.firstRun;
  const queryClient = useQueryClient();
  const { state, phase, send } = useScannerSocket();
  const folders = useQuery({ queryKey: FOLDERS_KEY, queryFn: ({ signal }) => fetchFolders(signal), meta: { silent: true } });
  const [name, setName] = useState('');
  const [dir, setDir] = useState('');
  const [browsing, setBrowsing] = useState(false);
  const [errors, setErrors] = useState<{ name?: string; path?: string }>({});
  const [requested, setRequested] = useState(false);

  const startScan = () => {
    if (send('PERFORM_SCAN')) setRequested(true);
    else notifyWarning(M.notStarted);
  };

  const add = useMutation({
    mutationFn: (input: { name: string; path: string }) => addFolder(input.name, input.path),
    meta: { silent: true },
    onSuccess: async (answer, input) => {
      notifySuccess(t.dashboard.folders.added(input.name));
      setBrowsing(false);
      setName('');
      setDir('');
      queryClient.setQueryData(FOLDERS_KEY, answer.folders);
      startScan();
    },
    onError: (err) => {
      if (err instanceof ApiError && (err.field === 'name' || err.field === 'path')) setErrors({ [err.field]: err.message });
      else if (err instanceof ApiError && err.status >= 400 && err.status < 500 && err.status !== 401) notifyWarning(err.message);
      else reportError(err);
    },
  });

  // works come in while the scan runs (and when it ends): the list is asked again, and shows them
  const someAdded = state.counts.added > 0;
  const ended = state.status === 'finished' || state.status === 'error';
  useEffect(() => {
    if (someAdded || (requested && ended)) void queryClient.invalidateQueries({ queryKey: WORKS_KEY });
  }, [someAdded, requested, ended, queryClient]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found: typeof errors = {};
    if (!name.trim()) found.name = M.fieldsEmpty;
    if (!dir.trim()) found.path = M.fieldsEmpty;
    setErrors(found);
    if (found.name || found.path) return;
    add.mutate({ name: name.trim(), path: dir.trim() });
  };

  const known = folders.data?.folders ?? [];
  const running = state.status === 'running';
  const showProgress = requested || running;

  return (
    <Stack gap="md">
      <Text size="sm">{M.adminIntro}</Text>
      {known.length > 0 && (
        <Paper withBorder radius="md" p="sm" data-testid="first-run-folders">
          <Group justify="space-between" gap="xs">
            <Stack gap={2} style={{ minWidth: 0 }}>
              {known.map((f) => (
                <Text key={f.name} size="sm" style={{ overflowWrap: 'anywhere' }}>
                  <b>{f.name}</b> · <span style={{ fontFamily: 'var(--mantine-font-family-monospace)' }}>{f.path}</span>
                </Text>
              ))}
            </Stack>
            <Button leftSection={<IconScan size={18} />} onClick={startScan} disabled={phase !== 'open' || running} variant="light">
              {t.dashboard.scanner.scan}
            </Button>
          </Group>
        </Paper>
      )}
      <Paper component="form" onSubmit={submit} withBorder radius="md" p="md" noValidate data-testid="first-folder-form">
        <Stack gap="sm">
          <Group gap="sm" align="flex-start" wrap="wrap">
            <TextInput
              label={M.name}
              placeholder={M.namePlaceholder}
              value={name}
              error={errors.name}
              onChange={(e) => {
                setName(e.currentTarget.value);
                setErrors((x) => ({ ...x, name: undefined }));
              }}
              autoComplete="off"
              spellCheck={false}
              style={{ flex: '1 1 140px' }}
            />
            <TextInput
              label={M.path}
              placeholder={M.pathPlaceholder}
              value={dir}
              error={errors.path}
              onChange={(e) => {
                setDir(e.currentTarget.value);
                setErrors((x) => ({ ...x, path: undefined }));
              }}
              autoComplete="off"
              spellCheck={false}
              style={{ flex: '3 1 220px' }}
            />
          </Group>
          <Group gap="sm" wrap="wrap">
            <Button type="button" variant="default" leftSection={<IconFolderSearch size={18} />} onClick={() => setBrowsing((b) => !b)} aria-expanded={browsing} data-testid="browse-toggle">
              {browsing ? M.hideBrowser : M.browse}
            </Button>
            <Button type="submit" leftSection={<IconFolderPlus size={18} />} loading={add.isPending} disabled={running}>
              {M.add}
            </Button>
          </Group>
          {browsing && (
            <FolderBrowser
              onChoose={(path) => {
                setDir(path);
                if (!name.trim()) setName(aliasOf(path));
                setErrors({});
                setBrowsing(false);
              }}
            />
          )}
        </Stack>
      </Paper>
      {showProgress && <ScanProgress state={state} />}
      {requested && state.status === 'finished' && state.counts.added === 0 && (
        <Alert color="yellow" variant="light" icon={<IconInfoCircle size={18} />} data-testid="first-scan-empty">
          {M.noWorksFound}
        </Alert>
      )}
      {(phase === 'failed' || (requested && state.status === 'error')) && (
        <Anchor component={Link} to="/admin/scanner" size="sm">
          {M.openScanner}
        </Anchor>
      )}
    </Stack>
  );
}

export function EmptyLibrary({ admin }: { admin: boolean }) {
  const M = t.firstRun;
  return (
    <Stack gap="md" maw={760} mx="auto" w="100%" py="md" data-testid="empty-library" data-admin={admin}>
      <Title order={2} size="h4">
        {M.title}
      </Title>
      {admin ? (
        <FirstFolderPanel />
      ) : (
        <Alert color="blue" variant="light" icon={<IconInfoCircle size={18} />} data-testid="empty-library-note">
          {M.userIntro}
        </Alert>
      )}
    </Stack>
  );
}
