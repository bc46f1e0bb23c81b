/**
 * The folders page's import from kikoeru: paths on the server (database, optional config and cover
 * folder), a dry-run switch, and the summary the server answers. A refusal shows the server's error.
 */
import { useState, type FormEvent } from 'react';
import { Alert, Button, Checkbox, Group, List, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { IconDatabaseImport } from '@tabler/icons-react';
import { t } from '../../i18n/index.js';
import { FOLDERS_KEY, importKikoeru, type KikoeruImportSummary } from './api.js';

const k = t.dashboard.kikoeruImport;

function Summary({ s }: { s: KikoeruImportSummary }) {
  const skipped = Object.values(s.skippedCounts).reduce((a, b) => a + b, 0);
  const rows = (['users', 'works', 'reviews', 'history', 'aiTasks'] as const).map((key) => k.counts(k.labels[key], s[key].created, s[key].updated, s[key].unchanged));
  return (
    <Stack gap="xs" data-testid="kikoeru-import-summary">
      <Title order={4} size="h6">
        {k.summaryTitle}
      </Title>
      {s.dryRun && <Text size="sm">{k.dryRunNote}</Text>}
      <List size="sm" spacing={2}>
        {rows.map((row) => (
          <List.Item key={row}>{row}</List.Item>
        ))}
        {s.covers.copied > 0 && <List.Item>{k.coversCopied(s.covers.copied)}</List.Item>}
      </List>
      {s.users.needPassword.length > 0 && (
        <Alert color="yellow" variant="light">
          {k.needPassword(s.users.needPassword.join(t.punctuation.listSeparator))}
        </Alert>
      )}
      {s.roots.unreachable.length > 0 && (
        <Alert color="yellow" variant="light">
          {k.unreachable(s.roots.unreachable.map((r) => r.name).join(t.punctuation.listSeparator))}
        </Alert>
      )}
      {skipped > 0 && (
        <Text size="sm" c="dimmed">
          {k.skipped(skipped)}
        </Text>
      )}
    </Stack>
  );
}

export function KikoeruImportPanel() {
  const queryClient = useQueryClient();
  const [db, setDb] = useState('');
  const [config, setConfig] = useState('');
  const [covers, setCovers] = useState('');
  const [dryRun, setDryRun] = useState(true);
  const run = useMutation({
    mutationFn: importKikoeru,
    // new root folders show in the list above
    onSuccess: () => queryClient.invalidateQueries({ queryKey: FOLDERS_KEY }),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const path = db.trim();
    if (!path) return;
    run.mutate({ db: path, config: config.trim() || undefined, covers: covers.trim() || undefined, dryRun });
  };
  return (
    <Paper component="form" onSubmit={submit} withBorder radius="md" p="md" data-testid="kikoeru-import">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {k.intro}
        </Text>
        <TextInput label={k.db} placeholder={k.dbPlaceholder} value={db} onChange={(e) => setDb(e.currentTarget.value)} required spellCheck={false} autoCapitalize="none" />
        <Group gap="sm" align="flex-start" wrap="wrap">
          <TextInput
            label={k.config}
            placeholder={k.configPlaceholder}
            value={config}
            onChange={(e) => setConfig(e.currentTarget.value)}
            style={{ flex: '1 1 260px' }}
            spellCheck={false}
            autoCapitalize="none"
          />
          <TextInput
            label={k.covers}
            placeholder={k.coversPlaceholder}
            value={covers}
            onChange={(e) => setCovers(e.currentTarget.value)}
            style={{ flex: '1 1 260px' }}
            spellCheck={false}
            autoCapitalize="none"
          />
        </Group>
        <Group justify="space-between" gap="sm">
          <Checkbox label={k.dryRun} checked={dryRun} onChange={(e) => setDryRun(e.currentTarget.checked)} />
          <Button type="submit" leftSection={<IconDatabaseImport size={18} />} loading={run.isPending} disabled={!db.trim()}>
            {k.run}
          </Button>
        </Group>
        {run.isError && <Alert color="red">{run.error.message}</Alert>}
        {run.data && <Summary s={run.data} />}
      </Stack>
    </Paper>
  );
}
