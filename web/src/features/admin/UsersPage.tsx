/**
 * /admin/usermanage: the user list; add a user (name and password of at
 * least 5 characters, a unique name, group user, guest or administrator); change a password (new and confirm of at
 * least 5, equal; the admin's own password also takes the current one); change a role; delete. 422 shows the first `errors[].msg`, 403 a warning. Changing
 * the logged-in admin's own password clears the stored token and, when auth is on, goes to /login.
 */
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { ActionIcon, Badge, Button, Group, Modal, Paper, PasswordInput, Select, SegmentedControl, Skeleton, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useMediaQuery } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { IconKey, IconTrash, IconUserPlus } from '@tabler/icons-react';
import { HoverTip } from '../../components/HoverTip.js';
import { ApiError } from '../../api/client.js';
import { reportError } from '../../api/errors.js';
import { clearToken } from '../../api/token.js';
import type { Role } from '../../api/types.js';
import { t } from '../../i18n/index.js';
import { formatDateTime } from '../../i18n/format.js';
import { notifySuccess, notifyWarning } from '../../lib/notify.js';
import { LOGIN_PATH } from '../auth/redirect.js';
import { useSession } from '../auth/use-session.js';
import { USERS_KEY, changePassword, createUser, deleteUsers, fetchUsers, roleOf, setUserRole, type NewUserGroup, type UserRow } from './api.js';

const u = t.dashboard.users;
const MIN = 5;

/** 422 (validation) and 403 are the admin's to fix: a warning with the server's message. */
function warnOrReport(err: unknown): void {
  if (err instanceof ApiError && (err.status === 422 || err.status === 409)) notifyWarning(err.message);
  else reportError(err);
}

function AddUserForm({ users }: { users: UserRow[] }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [group, setGroup] = useState<NewUserGroup>('user');
  // three groups do not fit side by side on a phone: one under the other there
  const narrow = useMediaQuery('(max-width: 36em)') === true;
  const [errors, setErrors] = useState<{ name?: string; password?: string }>({});
  const create = useMutation({
    mutationFn: (input: { name: string; password: string; group: NewUserGroup }) => createUser(input.name, input.password, input.group),
    meta: { silent: true },
    onSuccess: async (_answer, input) => {
      notifySuccess(u.created(input.name));
      setName('');
      setPassword('');
      await queryClient.invalidateQueries({ queryKey: USERS_KEY });
    },
    onError: (err) => {
      const first = err instanceof ApiError ? err.fieldErrors[0] : undefined;
      if (first?.param === 'name' || first?.param === 'password') setErrors({ [first.param]: first.msg });
      warnOrReport(err);
    },
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found: typeof errors = {};
    if (name.trim().length < MIN) found.name = u.nameTooShort;
    else if (users.some((x) => x.name === name.trim())) found.name = u.nameTaken;
    if (password.length < MIN) found.password = u.passwordTooShort;
    setErrors(found);
    if (found.name || found.password) return;
    create.mutate({ name: name.trim(), password, group });
  };

  return (
    <Paper component="form" onSubmit={submit} withBorder radius="md" p="md" data-testid="add-user" noValidate>
      <Stack gap="sm">
        <Group gap="sm" align="flex-start" wrap="wrap">
          <TextInput
            label={u.name}
            value={name}
            error={errors.name}
            onChange={(e) => {
              setName(e.currentTarget.value);
              setErrors((x) => ({ ...x, name: undefined }));
            }}
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            style={{ flex: '1 1 180px' }}
          />
          <PasswordInput
            label={u.password}
            value={password}
            error={errors.password}
            onChange={(e) => {
              setPassword(e.currentTarget.value);
              setErrors((x) => ({ ...x, password: undefined }));
            }}
            autoComplete="new-password"
            style={{ flex: '1 1 180px' }}
          />
        </Group>
        <Group justify="space-between" gap="sm" wrap="wrap">
          <SegmentedControl
            aria-label={u.group}
            orientation={narrow ? 'vertical' : 'horizontal'}
            fullWidth={narrow}
            w={narrow ? '100%' : undefined}
            value={group}
            onChange={(v) => setGroup(v === 'guest' || v === 'administrator' ? v : 'user')}
            data={[
              { value: 'user', label: u.groups.user },
              { value: 'guest', label: u.groups.guest },
              { value: 'administrator', label: u.groups.admin },
            ]}
            data-testid="add-user-group"
          />
          <Button type="submit" leftSection={<IconUserPlus size={18} />} loading={create.isPending}>
            {u.add}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function PasswordDialog({ user, self, authOn, onClose }: { user: string | null; self: boolean; authOn: boolean; onClose: () => void }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<{ current?: string; password?: string; confirm?: string }>({});
  const close = () => {
    setCurrent('');
    setPassword('');
    setConfirm('');
    setErrors({});
    onClose();
  };
  const save = useMutation({
    mutationFn: () => changePassword(user ?? '', password, self ? current : undefined),
    meta: { silent: true },
    onSuccess: async () => {
      notifySuccess(u.passwordChanged);
      close();
      if (!self) return;
      // the admin's own password change clears the token; with auth on, log in again
      clearToken();
      if (authOn) {
        await navigate(LOGIN_PATH, { replace: true });
        queryClient.clear();
      }
    },
    onError: (err) => {
      // a wrong or missing current password is shown at its field
      const field = err instanceof ApiError ? err.fieldErrors.find((f) => f.param === 'currentPassword') : undefined;
      if (self && err instanceof ApiError && (err.status === 403 || field)) setErrors({ current: field?.msg ?? err.message });
      else warnOrReport(err);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found: typeof errors = {};
    if (self && !current) found.current = u.currentPasswordMissing;
    if (password.length < MIN) found.password = u.passwordTooShort;
    if (confirm.length < MIN) found.confirm = u.passwordTooShort;
    else if (!found.password && password !== confirm) found.confirm = u.mismatch;
    setErrors(found);
    if (found.current || found.password || found.confirm) return;
    save.mutate();
  };
  return (
    <Modal opened={user !== null} onClose={close} title={user ? u.changePasswordOf(user) : ''} centered>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          {self && (
            <Text size="sm" c="yellow.8">
              {u.ownPasswordNote}
            </Text>
          )}
          {self && (
            <PasswordInput label={u.currentPassword} value={current} error={errors.current} onChange={(e) => setCurrent(e.currentTarget.value)} autoComplete="current-password" data-autofocus />
          )}
          <PasswordInput
            label={u.newPassword}
            value={password}
            error={errors.password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            autoComplete="new-password"
            data-autofocus={self ? undefined : true}
          />
          <PasswordInput label={u.confirmPassword} value={confirm} error={errors.confirm} onChange={(e) => setConfirm(e.currentTarget.value)} autoComplete="new-password" />
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={close}>
              {u.cancel}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {u.save}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Built at each render: the labels are read in the active language. */
const roleOptions = (): { value: Role; label: string }[] => (['admin', 'user', 'guest'] as const).map((r) => ({ value: r, label: u.roles[r] }));

function UserTable({ users, me, onPassword }: { users: UserRow[]; me: string | undefined; onPassword: (name: string) => void }) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: USERS_KEY });
  const remove = useMutation({
    mutationFn: (name: string) => deleteUsers([name]),
    onSuccess: async () => {
      notifySuccess(u.deleted);
      await refresh();
    },
  });
  const role = useMutation({
    mutationFn: (input: { name: string; role: Role }) => setUserRole(input.name, input.role),
    onSuccess: async (_answer, input) => {
      notifySuccess(u.roleChanged(input.name, u.roles[input.role]));
      await refresh();
    },
    onError: () => void refresh(),
  });
  const confirmDelete = (name: string) =>
    modals.openConfirmModal({
      title: u.deleteTitle,
      children: <Text size="sm">{u.deleteConfirm(name)}</Text>,
      labels: { confirm: u.delete, cancel: u.cancel },
      confirmProps: { color: 'red' },
      centered: true,
      onConfirm: () => remove.mutate(name),
    });

  return (
    <Table.ScrollContainer minWidth={300}>
      <Table verticalSpacing="xs" highlightOnHover data-testid="user-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{u.name}</Table.Th>
            <Table.Th w={130}>{u.role}</Table.Th>
            <Table.Th visibleFrom="sm">{u.createdAt}</Table.Th>
            <Table.Th w={80} ta="right">
              {u.actions}
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {users.map((user) => {
            const self = user.name === me;
            return (
              <Table.Tr key={user.name} data-testid="user-row" data-name={user.name}>
                <Table.Td>
                  <Group gap={6} wrap="nowrap">
                    <Text size="sm" fw={500} style={{ wordBreak: 'break-all' }}>
                      {user.name}
                    </Text>
                    {self && (
                      <Badge size="xs" variant="light">
                        {u.you}
                      </Badge>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Select
                    size="xs"
                    aria-label={`${u.role} ${user.name}`}
                    data={roleOptions()}
                    value={roleOf(user)}
                    allowDeselect={false}
                    disabled={self || role.isPending}
                    onChange={(value) => {
                      if (value && value !== roleOf(user)) role.mutate({ name: user.name, role: value as Role });
                    }}
                  />
                </Table.Td>
                <Table.Td visibleFrom="sm">
                  <Text size="xs" c="dimmed">
                    {formatDateTime(user.created_at)}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Group gap={2} justify="flex-end" wrap="nowrap">
                    <HoverTip label={u.changePassword}>
                      <ActionIcon variant="subtle" aria-label={`${u.changePassword} ${user.name}`} onClick={() => onPassword(user.name)}>
                        <IconKey size={18} />
                      </ActionIcon>
                    </HoverTip>
                    <HoverTip label={u.delete}>
                      <ActionIcon variant="subtle" color="red" aria-label={`${u.delete} ${user.name}`} disabled={self} onClick={() => confirmDelete(user.name)}>
                        <IconTrash size={18} />
                      </ActionIcon>
                    </HoverTip>
                  </Group>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

export function UsersPage() {
  const session = useSession();
  const users = useQuery({ queryKey: USERS_KEY, queryFn: ({ signal }) => fetchUsers(signal) });
  const [passwordOf, setPasswordOf] = useState<string | null>(null);
  const me = session.data?.user.name;
  return (
    <Stack gap="lg" maw={900} mx="auto" w="100%">
      <Title order={2} size="h3">
        {u.title}
      </Title>
      <AddUserForm users={users.data ?? []} />
      <Stack gap="xs">
        <Title order={3} size="h5">
          {u.list}
        </Title>
        {users.data ? <UserTable users={users.data} me={me} onPassword={setPasswordOf} /> : <Skeleton h={160} radius="md" />}
      </Stack>
      <PasswordDialog user={passwordOf} self={passwordOf !== null && passwordOf === me} authOn={session.data?.auth ?? true} onClose={() => setPasswordOf(null)} />
    </Stack>
  );
}
