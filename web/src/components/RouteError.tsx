import { isRouteErrorResponse, useRouteError } from 'react-router';
import { Button, Stack, Text, Title } from '@mantine/core';
import { t } from '../i18n/index.js';

const isChunkError = (err: unknown): boolean => err instanceof Error && /dynamically imported module|Importing a module script failed|error loading dynamically|Failed to fetch/i.test(err.message);

/** The router's error element: a failed page download (new release deployed) or an unexpected error. */
export function RouteError() {
  const error = useRouteError();
  const message = isChunkError(error) ? t.routeError.chunk : isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : error instanceof Error ? error.message : String(error);
  return (
    <Stack align="center" justify="center" gap="md" py={64} px="md" ta="center" role="alert">
      <Title order={1} size="h3" fw={500}>
        {t.routeError.title}
      </Title>
      <Text c="dimmed" maw={420}>
        {message}
      </Text>
      <Button onClick={() => window.location.reload()}>{t.routeError.reload}</Button>
    </Stack>
  );
}
