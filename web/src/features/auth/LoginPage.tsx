/**
 * /login: name and password of at least 5 characters, POST /api/auth/me,
 * a warning with the server's message on 401 (and 429, 503), the token saved, back to where the user came
 * from. When the server has auth off there is nothing to log in to: go home.
 */
import { useState, type FormEvent } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Box, Button, Center, Group, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconHeadphones } from '@tabler/icons-react';
import { ApiError } from '../../api/client.js';
import { reportError } from '../../api/errors.js';
import { login } from '../../api/session.js';
import { saveToken } from '../../api/token.js';
import { t } from '../../i18n/index.js';
import { notifyError, notifySuccess, notifyWarning } from '../../lib/notify.js';
import { DarkModeButton } from '../../components/DarkModeButton.js';
import { LanguageMenu } from '../../components/LanguageMenu.js';
import { safeRedirect } from './redirect.js';
import { useSession } from './use-session.js';

const MIN_LENGTH = 5;

interface FieldErrors {
  name?: string;
  password?: string;
}

function validate(name: string, password: string): FieldErrors {
  const errors: FieldErrors = {};
  if (name.trim().length < MIN_LENGTH) errors.name = t.login.nameTooShort;
  if (password.length < MIN_LENGTH) errors.password = t.login.passwordTooShort;
  return errors;
}

export function LoginPage() {
  const session = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [touched, setTouched] = useState(false);

  const mutation = useMutation({
    mutationFn: (input: { name: string; password: string }) => login(input.name, input.password),
    meta: { silent: true },
    onSuccess: ({ token }) => {
      try {
        saveToken(token);
      } catch (err) {
        notifyError(t.login.storageFailed(err instanceof Error ? err.message : String(err)));
        return;
      }
      queryClient.clear();
      notifySuccess(t.login.success);
      void navigate(safeRedirect(params.get('redirect')), { replace: true });
    },
    onError: (err) => {
      // the server's field checks (422) are shown at their field too, each naming its own field
      if (err instanceof ApiError && err.status === 422) {
        const at = (param: string) => err.fieldErrors.find((f) => f.param === param)?.msg;
        setErrors({ name: at('name'), password: at('password') });
      }
      // Wrong credentials, too many attempts and a busy server are the user's to fix or wait out: a warning, not an error.
      if (err instanceof ApiError && [401, 422, 429, 503].includes(err.status)) notifyWarning(err.message);
      else reportError(err);
    },
  });

  if (session.data && !session.data.auth) return <Navigate to="/" replace />;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found = validate(name, password);
    setErrors(found);
    setTouched(true);
    if (found.name || found.password) return;
    mutation.mutate({ name: name.trim(), password });
  };

  // Rules are lazy (spec): checked on submit, then live while the user corrects them.
  const revalidate = (nextName: string, nextPassword: string) => {
    if (touched) setErrors(validate(nextName, nextPassword));
  };

  return (
    <Box mih="100dvh" style={{ display: 'flex', flexDirection: 'column' }}>
      <Group component="header" justify="flex-end" p="sm" gap="xs">
        <LanguageMenu />
        <DarkModeButton />
      </Group>
      <Center component="main" style={{ flex: 1 }} px="md" pb="15vh">
        <Paper component="form" onSubmit={onSubmit} noValidate withBorder shadow="sm" radius="lg" p="xl" w="100%" maw={360}>
          <Stack gap="md">
            <Stack gap={4} align="center">
              <IconHeadphones size={40} stroke={1.5} color="var(--mantine-primary-color-filled)" aria-hidden />
              <Title order={1} size="h2">
                {t.app.name}
              </Title>
              <Text size="sm" c="dimmed">
                {t.login.subtitle}
              </Text>
            </Stack>
            <TextInput
              label={t.login.name}
              name="name"
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              value={name}
              error={errors.name}
              onChange={(e) => {
                setName(e.currentTarget.value);
                revalidate(e.currentTarget.value, password);
              }}
              data-autofocus
              autoFocus
            />
            <PasswordInput
              label={t.login.password}
              name="password"
              autoComplete="current-password"
              value={password}
              error={errors.password}
              onChange={(e) => {
                setPassword(e.currentTarget.value);
                revalidate(name, e.currentTarget.value);
              }}
            />
            <Button type="submit" fullWidth size="md" loading={mutation.isPending}>
              {t.login.submit}
            </Button>
          </Stack>
        </Paper>
      </Center>
    </Box>
  );
}
