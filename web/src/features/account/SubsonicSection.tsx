/**
 * The account page's "Subsonic" section: credentials for native music apps on /rest (docs/API.md#subsonic-api).
 * API keys (a new key is shown once, to copy), and the separate Subsonic password for apps without API keys.
 * Guests see their credentials (an admin makes them) but cannot change them.
 */
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ActionIcon, Alert, Button, Code, CopyButton, Group, Paper, PasswordInput, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconCheck, IconCopy, IconKey, IconTrash } from '@tabler/icons-react';
import { ApiError } from '../../api/client.js';
import { reportError } from '../../api/errors.js';
import { formatDateTime } from '../../i18n/format.js';
import { subsonicText } from '../../i18n/account-subsonic/index.js';
import { notifySuccess } from '../../lib/notify.js';
import { SUBSONIC_KEY, clearSubsonicPassword, createSubsonicKey, fetchSubsonic, revokeSubsonicKey, setSubsonicPassword } from './api.js';

const MIN = 8;

function NewKey({ made, onDone }: { made: { name: string; key: string }; onDone: () => void }) {
  const M = subsonicText();
  return (
    <Alert color="green" data-testid="subsonic-new-key" title={M.keyMade(made.name)}>
      <Stack gap="xs">
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <Code block style={{ flex: 1, minWidth: 0, wordBreak: 'break-all' }} data-testid="subsonic-key-value">
            {made.key}
          </Code>
          <CopyButton value={made.key}>
            {({ copied, copy }) => (
              <Button size="xs" variant="light" onClick={copy} leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />}>
                {copied ? M.copied : M.copy}
              </Button>
            )}
          </CopyButton>
        </Group>
        <Text size="xs">{M.keyOnce}</Text>
        <Button size="xs" variant="subtle" onClick={onDone} style={{ alignSelf: 'flex-start' }}>
          {M.done}
        </Button>
      </Stack>
    </Alert>
  );
}

export function SubsonicSection({ guest }: { guest: boolean }) {
  const M = subsonicText();
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: SUBSONIC_KEY, queryFn: ({ signal }) => fetchSubsonic(signal) });
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string>();
  const [made, setMade] = useState<{ name: string; key: string } | null>(null);
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string>();
  const refresh = () => queryClient.invalidateQueries({ queryKey: SUBSONIC_KEY });

  const create = useMutation({
    mutationFn: () => createSubsonicKey(name.trim()),
    meta: { silent: true },
    onSuccess: async (answer) => {
      setMade(answer);
      setName('');
      await refresh();
    },
    onError: (err) => {
      if (err instanceof ApiError && err.status === 409) setNameError(M.nameTaken);
      else reportError(err);
    },
  });
  const revoke = useMutation({
    mutationFn: (keyName: string) => revokeSubsonicKey(keyName),
    onSuccess: async () => {
      notifySuccess(M.revoked);
      await refresh();
    },
  });
  const save = useMutation({
    mutationFn: () => setSubsonicPassword(password),
    onSuccess: async () => {
      setPassword('');
      notifySuccess(M.passwordSaved);
      await refresh();
    },
  });
  const clear = useMutation({
    mutationFn: () => clearSubsonicPassword(),
    onSuccess: async () => {
      notifySuccess(M.passwordCleared);
      await refresh();
    },
  });

  const submitKey = (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) {
      setNameError(M.nameMissing);
      return;
    }
    create.mutate();
  };
  const submitPassword = (e: FormEvent) => {
    e.preventDefault();
    if (password.length < MIN) {
      setPasswordError(M.passwordTooShort(MIN));
      return;
    }
    save.mutate();
  };

  const data = query.data;
  return (
    <Paper withBorder radius="md" p="md" data-testid="subsonic-section" aria-labelledby="account-subsonic-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="account-subsonic-title">
          {M.title}
        </Title>
        <Text size="sm" c="dimmed">
          {M.hint(`${window.location.origin}`)}
        </Text>
        {guest && <Text size="sm">{M.guestNote}</Text>}
        {made && <NewKey made={made} onDone={() => setMade(null)} />}
        <Title order={3} size="h5">
          {M.keysTitle}
        </Title>
        {data && data.keys.length === 0 && (
          <Text size="sm" c="dimmed" data-testid="subsonic-no-keys">
            {M.noKeys}
          </Text>
        )}
        {data && data.keys.length > 0 && (
          <Table data-testid="subsonic-keys" verticalSpacing={4}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{M.keyName}</Table.Th>
                <Table.Th>{M.created}</Table.Th>
                <Table.Th>{M.lastUsed}</Table.Th>
                {!guest && <Table.Th aria-label={M.revoke} />}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.keys.map((k) => (
                <Table.Tr key={k.name}>
                  <Table.Td>{k.name}</Table.Td>
                  <Table.Td>{formatDateTime(k.createdAt)}</Table.Td>
                  <Table.Td>{k.lastUsedAt ? formatDateTime(k.lastUsedAt) : M.never}</Table.Td>
                  {!guest && (
                    <Table.Td>
                      <ActionIcon variant="subtle" color="red" aria-label={M.revokeNamed(k.name)} onClick={() => revoke.mutate(k.name)} loading={revoke.isPending && revoke.variables === k.name}>
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        {!guest && (
          <form onSubmit={submitKey} noValidate>
            <Group align="flex-start" gap="xs">
              <TextInput
                aria-label={M.keyName}
                placeholder={M.namePlaceholder}
                value={name}
                maxLength={64}
                error={nameError}
                onChange={(e) => {
                  setName(e.currentTarget.value);
                  setNameError(undefined);
                }}
                style={{ flex: 1 }}
                data-testid="subsonic-key-name"
              />
              <Button type="submit" leftSection={<IconKey size={16} />} loading={create.isPending} data-testid="subsonic-make-key">
                {M.makeKey}
              </Button>
            </Group>
          </form>
        )}
        <Title order={3} size="h5">
          {M.passwordTitle}
        </Title>
        <Text size="sm" c="dimmed" data-testid="subsonic-password-state">
          {data?.hasPassword ? M.passwordSet : M.passwordNone}
        </Text>
        {!guest && (
          <form onSubmit={submitPassword} noValidate>
            <Group align="flex-start" gap="xs">
              <PasswordInput
                aria-label={M.passwordLabel}
                placeholder={M.passwordLabel}
                autoComplete="new-password"
                value={password}
                error={passwordError}
                onChange={(e) => {
                  setPassword(e.currentTarget.value);
                  setPasswordError(undefined);
                }}
                style={{ flex: 1 }}
                data-testid="subsonic-password"
              />
              <Button type="submit" loading={save.isPending} data-testid="subsonic-save-password">
                {M.savePassword}
              </Button>
              {data?.hasPassword && (
                <Button variant="light" color="red" onClick={() => clear.mutate()} loading={clear.isPending}>
                  {M.clearPassword}
                </Button>
              )}
            </Group>
          </form>
        )}
      </Stack>
    </Paper>
  );
}
