/**
 * /account, for every logged-in user: change one's own password (current + new + confirm; not for
 * guests), the interface language (saved on the account), the Subsonic credentials for native apps
 * (SubsonicSection), and "log out everywhere" (every token of
 * the user stops working; then /login). With auth off there are no accounts: only the language.
 */
import { useState, type ChangeEvent, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Paper, PasswordInput, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconInfoCircle, IconKey, IconLogout2 } from '@tabler/icons-react';
import { ApiError } from '../../api/client.js';
import { reportError } from '../../api/errors.js';
import { SESSION_KEY } from '../../api/session.js';
import { clearToken, saveToken } from '../../api/token.js';
import type { Session } from '../../api/types.js';
import { saveAccountLocale } from '../../i18n/account.js';
import { LANGUAGE_NAMES, LOCALES, isLocale, locale, setLocale, t } from '../../i18n/index.js';
import { notifySuccess, notifyWarning } from '../../lib/notify.js';
import { LOGIN_PATH } from '../auth/redirect.js';
import { useSession } from '../auth/use-session.js';
import { changeOwnPassword, logoutEverywhere } from './api.js';
import { SubsonicSection } from './SubsonicSection.js';

const MIN = 5;

interface Errors {
  current?: string;
  password?: string;
  confirm?: string;
}

function PasswordForm() {
  const queryClient = useQueryClient();
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const M = t.account;

  const change = useMutation({
    mutationFn: () => changeOwnPassword(current, password),
    meta: { silent: true },
    onSuccess: async ({ token }) => {
      // the old token stops working with the change: this device carries on with the new one
      saveToken(token);
      setCurrent('');
      setPassword('');
      setConfirm('');
      notifySuccess(M.changed);
      await queryClient.invalidateQueries({ queryKey: SESSION_KEY });
    },
    onError: (err) => {
      if (err instanceof ApiError && err.code === 'CURRENT_PASSWORD_WRONG') {
        setErrors({ current: err.message });
        return;
      }
      const first = err instanceof ApiError ? err.fieldErrors[0] : undefined;
      if (first?.param === 'password' || first?.param === 'current') {
        setErrors({ [first.param]: first.msg });
        return;
      }
      if (err instanceof ApiError && (err.status === 422 || err.status === 409)) notifyWarning(err.message);
      else reportError(err);
    },
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found: Errors = {};
    if (!current) found.current = M.currentMissing;
    if (password.length < MIN) found.password = M.tooShort;
    else if (password !== confirm) found.confirm = M.mismatch;
    setErrors(found);
    if (found.current || found.password || found.confirm) return;
    change.mutate();
  };

  const field = (key: keyof Errors, value: string, set: (v: string) => void) => ({
    value,
    error: errors[key],
    onChange: (e: ChangeEvent<HTMLInputElement>) => {
      set(e.currentTarget.value);
      setErrors((x) => ({ ...x, [key]: undefined }));
    },
  });

  return (
    <Paper component="form" onSubmit={submit} withBorder radius="md" p="md" noValidate data-testid="password-form" aria-labelledby="account-password-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="account-password-title">
          {M.passwordTitle}
        </Title>
        <Text size="sm" c="dimmed">
          {M.passwordHint}
        </Text>
        <PasswordInput label={M.current} autoComplete="current-password" {...field('current', current, setCurrent)} />
        <PasswordInput label={M.newPassword} autoComplete="new-password" {...field('password', password, setPassword)} />
        <PasswordInput label={M.confirm} autoComplete="new-password" {...field('confirm', confirm, setConfirm)} />
        <Button type="submit" leftSection={<IconKey size={18} />} loading={change.isPending} style={{ alignSelf: 'flex-start' }}>
          {M.save}
        </Button>
      </Stack>
    </Paper>
  );
}

function LanguageSection({ session }: { session: Session }) {
  const queryClient = useQueryClient();
  const [, rerender] = useState(0);
  const M = t.account;
  const choose = (value: string) => {
    if (!isLocale(value)) return;
    void setLocale(value).catch(() => notifyWarning(t.routeError.chunk));
    rerender((n) => n + 1);
    queryClient.setQueryData<Session>(SESSION_KEY, (s) => (s ? { ...s, user: { ...s.user, locale: value } } : s));
    void saveAccountLocale(value).catch(() => notifyWarning(t.language.saveFailed));
  };
  return (
    <Paper withBorder radius="md" p="md" data-testid="language-section" data-locale={session.user.locale ?? ''}>
      <Stack gap="sm">
        <Title order={2} size="h4" id="account-language-title">
          {M.languageTitle}
        </Title>
        <Text size="sm" c="dimmed">
          {M.languageHint}
        </Text>
        <SegmentedControl
          aria-labelledby="account-language-title"
          value={locale()}
          onChange={choose}
          data={LOCALES.map((l) => ({ value: l, label: <span lang={l}>{LANGUAGE_NAMES[l]}</span> }))}
          style={{ alignSelf: 'flex-start' }}
        />
      </Stack>
    </Paper>
  );
}

function LogoutEverywhere() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const M = t.account;
  const ask = () =>
    modals.openConfirmModal({
      title: M.logoutAllTitle,
      children: M.logoutAllConfirm,
      labels: { confirm: M.logoutAllOk, cancel: M.cancel },
      confirmProps: { color: 'red' },
      centered: true,
      onConfirm: async () => {
        try {
          await logoutEverywhere();
        } catch (err) {
          reportError(err);
          return;
        }
        clearToken();
        notifySuccess(M.loggedOutAll);
        // leave first, so the page being left does not refetch its data without a token
        await navigate(LOGIN_PATH, { replace: true });
        queryClient.clear();
      },
    });
  return (
    <Paper withBorder radius="md" p="md" data-testid="logout-all-section">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {M.logoutAllTitle}
        </Title>
        <Text size="sm" c="dimmed">
          {M.logoutAllHint}
        </Text>
        <Button color="red" variant="light" leftSection={<IconLogout2 size={18} />} onClick={ask} style={{ alignSelf: 'flex-start' }} data-testid="logout-all">
          {M.logoutAll}
        </Button>
      </Stack>
    </Paper>
  );
}

export function AccountPage() {
  const session = useSession();
  const M = t.account;
  if (!session.data) return null;
  const { user, auth } = session.data;
  const guest = user.role === 'guest' || user.group === 'guest';
  return (
    <Stack gap="md" maw={640} mx="auto" w="100%" data-testid="account-page">
      <div>
        <Title order={1} size="h3">
          {M.title}
        </Title>
        {auth && (
          <Text size="sm" c="dimmed" data-testid="account-name">
            {M.signedInAs(user.name)}
          </Text>
        )}
      </div>
      {!auth && (
        <Alert color="blue" icon={<IconInfoCircle size={18} />} data-testid="auth-off">
          {M.authOff}
        </Alert>
      )}
      {auth && guest && (
        <Alert color="gray" icon={<IconInfoCircle size={18} />} data-testid="guest-note">
          {M.guestNoPassword}
        </Alert>
      )}
      {auth && !guest && <PasswordForm />}
      <LanguageSection session={session.data} />
      {auth && <SubsonicSection guest={guest} />}
      {auth && !guest && <LogoutEverywhere />}
    </Stack>
  );
}
