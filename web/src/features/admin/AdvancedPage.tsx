/**
 * /admin/advanced: every config field, grouped and checked before
 * saving; only changed keys are sent (PUT /api/config/admin); a 400 names the key it refuses and the
 * page shows the message at that field. `auth` is locked in production; `production` is read-only.
 */
import { useMemo, useState } from 'react';
import { Alert, Button, Code, Group, Paper, Select, SimpleGrid, Skeleton, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { IconAlertTriangle, IconDeviceFloppy, IconInfoCircle } from '@tabler/icons-react';
import { ApiError } from '../../api/client.js';
import { reportError } from '../../api/errors.js';
import { t } from '../../i18n/index.js';
import { notifySuccess } from '../../lib/notify.js';
import { ADMIN_CONFIG_KEY, fetchAdminConfig, saveAdminConfig, type AdminConfig, type AdminConfigAnswer, type EffectivePaths } from './api.js';
import { CONFIG_GROUPS, FIELD_BY_KEY, fromDraft, serverFieldErrors, toDraft, type ConfigField, type DraftValue } from './config-fields.js';

const a = t.dashboard.advanced;

type Drafts = Record<string, DraftValue>;

const draftsOf = (config: AdminConfig): Drafts => Object.fromEntries([...FIELD_BY_KEY.values()].map((f) => [f.key, toDraft(config[f.key], f)]));

function FieldInput({
  field,
  value,
  error,
  disabled,
  description,
  onChange,
}: {
  field: ConfigField;
  value: DraftValue;
  error?: string;
  disabled: boolean;
  description?: string;
  onChange: (v: DraftValue) => void;
}) {
  const label = a.fields[field.key] ?? field.key;
  const common = { label, error, disabled, description, 'data-key': field.key };
  switch (field.kind.type) {
    case 'boolean':
      return <Switch {...common} checked={value === true} onChange={(e) => onChange(e.currentTarget.checked)} />;
    case 'select':
      return <Select {...common} data={field.kind.options.map((o) => ({ value: o, label: a.languages[o] ?? o }))} value={String(value)} allowDeselect={false} onChange={(v) => onChange(v ?? '')} />;
    case 'int':
      return <TextInput {...common} value={String(value)} inputMode="numeric" onChange={(e) => onChange(e.currentTarget.value)} rightSection={null} />;
    default:
      return <TextInput {...common} value={String(value)} spellCheck={false} autoCapitalize="none" onChange={(e) => onChange(e.currentTarget.value)} />;
  }
}

/** Where the running server keeps covers and its database, as it resolved them (read-only). */
function PathsInUse({ paths }: { paths: EffectivePaths }) {
  const rows = [
    { label: a.coverDirInUse, value: paths.coverDir, testId: 'effective-cover-dir' },
    { label: a.databaseFileInUse, value: paths.databaseFile, testId: 'effective-database-file' },
  ];
  return (
    <Stack gap={6} mb="sm" data-testid="effective-paths">
      <Text size="sm" fw={500}>
        {a.pathsInUse}
      </Text>
      {rows.map((row) => (
        <Group key={row.testId} gap="xs" wrap="nowrap" align="baseline">
          <Text size="sm" c="dimmed" style={{ flex: '0 0 auto' }}>
            {row.label}
          </Text>
          <Code style={{ wordBreak: 'break-all', minWidth: 0 }} data-testid={row.testId}>
            {row.value}
          </Code>
        </Group>
      ))}
      <Text size="xs" c="dimmed">
        {a.pathsInUseHint}
      </Text>
    </Stack>
  );
}

export function AdvancedPage() {
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: ADMIN_CONFIG_KEY, queryFn: ({ signal }) => fetchAdminConfig(signal), staleTime: 0 });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [restartNote, setRestartNote] = useState<string[]>([]);

  const config = query.data?.config;
  const paths = query.data?.paths;
  const saved = useMemo(() => (config ? draftsOf(config) : {}), [config]);
  // the drafts start over from every config that arrives, in the same render (an effect drew the
  // form once with empty fields and switches off before the saved values came in)
  const [drafts, setDrafts] = useState<Drafts>(saved);
  const [draftsFrom, setDraftsFrom] = useState(saved);
  if (draftsFrom !== saved) {
    setDraftsFrom(saved);
    setDrafts(saved);
  }

  const production = config?.production === true;
  const isLocked = (field: ConfigField) => field.readOnly === true || (field.key === 'auth' && production);
  const changed = [...FIELD_BY_KEY.values()].filter((f) => !isLocked(f) && drafts[f.key] !== undefined && drafts[f.key] !== saved[f.key]);

  const save = useMutation({
    mutationFn: saveAdminConfig,
    meta: { silent: true },
    onSuccess: (answer) => {
      queryClient.setQueryData<AdminConfigAnswer>(ADMIN_CONFIG_KEY, { config: answer.config, paths: answer.paths });
      setServerError(null);
      setErrors({});
      setRestartNote(answer.restartRequired ?? []);
      // the restart note shows under the form (restartNote), in the UI's words: not in the toast too
      notifySuccess(a.saved);
    },
    onError: (err) => {
      if (err instanceof ApiError && err.status === 400) {
        setServerError(err.message);
        setErrors(serverFieldErrors(err.fieldErrors));
      } else reportError(err);
    },
  });

  const submit = () => {
    const patch: AdminConfig = {};
    const found: Record<string, string> = {};
    for (const field of changed) {
      const r = fromDraft(drafts[field.key], field);
      if ('error' in r) found[field.key] = r.error;
      else patch[field.key] = r.value;
    }
    setErrors(found);
    setServerError(null);
    if (Object.keys(found).length) return;
    save.mutate(patch);
  };

  const set = (key: string, value: DraftValue) => {
    setDrafts((d) => ({ ...d, [key]: value }));
    setErrors((e) => {
      if (!(key in e)) return e;
      const next = { ...e };
      delete next[key];
      return next;
    });
  };

  if (!config) {
    return (
      <Stack gap="md" maw={1000} mx="auto" w="100%">
        <Title order={2} size="h3">
          {a.title}
        </Title>
        {query.isError ? <Alert color="red">{query.error.message}</Alert> : <Skeleton h={400} radius="md" />}
      </Stack>
    );
  }

  return (
    <Stack gap="md" maw={1000} mx="auto" w="100%" pb={80}>
      <Title order={2} size="h3">
        {a.title}
      </Title>
      {serverError && (
        <Alert color="red" icon={<IconAlertTriangle size={18} />} title={a.saveFailed} data-testid="config-error">
          {serverError}
        </Alert>
      )}
      {restartNote.length > 0 && (
        <Alert color="yellow" icon={<IconInfoCircle size={18} />} withCloseButton onClose={() => setRestartNote([])}>
          {a.restartNote(restartNote.map((k) => a.fields[k] ?? k).join(t.punctuation.listSeparator))}
        </Alert>
      )}
      {CONFIG_GROUPS.map((group) => (
        <Paper key={group.id} withBorder radius="md" p="md" data-testid={`config-group-${group.id}`}>
          <Title order={3} size="h5" mb="sm">
            {a.groups[group.id]}
          </Title>
          {group.id === 'paths' && (
            <Text size="xs" c="dimmed" mb="sm">
              {a.foldersHint}
            </Text>
          )}
          {group.id === 'paths' && paths && <PathsInUse paths={paths} />}
          {group.id === 'language' && (
            <Text size="xs" c="dimmed" mb="sm" data-testid="tag-language-hint">
              {a.tagLanguageHint}
            </Text>
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
            {group.fields.map((field) => {
              const locked = isLocked(field);
              const dependent = field.disabledWhen ? drafts[field.disabledWhen.key] === field.disabledWhen.equals : false;
              const description = field.key === 'auth' && production ? a.lockedInProduction : field.readOnly ? a.readOnly : undefined;
              return (
                <FieldInput
                  key={field.key}
                  field={field}
                  value={drafts[field.key] ?? toDraft(undefined, field)}
                  error={errors[field.key]}
                  disabled={locked || dependent}
                  description={description}
                  onChange={(v) => set(field.key, v)}
                />
              );
            })}
          </SimpleGrid>
        </Paper>
      ))}
      <Paper withBorder shadow="md" radius="md" p="sm" style={{ position: 'sticky', bottom: 'var(--mantine-spacing-sm)', zIndex: 5 }} data-testid="config-save-bar">
        <Group justify="space-between" gap="xs">
          <Text size="sm" c={changed.length ? undefined : 'dimmed'}>
            {changed.length ? a.unsaved(changed.length) : a.noChanges}
          </Text>
          <Group gap="xs">
            <Button
              variant="default"
              disabled={!changed.length}
              onClick={() => {
                setDrafts(saved);
                setErrors({});
                setServerError(null);
              }}
            >
              {a.reset}
            </Button>
            <Button leftSection={<IconDeviceFloppy size={18} />} disabled={!changed.length} loading={save.isPending} onClick={submit}>
              {a.save}
            </Button>
          </Group>
        </Group>
      </Paper>
    </Stack>
  );
}
