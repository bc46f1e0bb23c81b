import { Button, Stack, Text } from '@mantine/core';
import { errorText } from '../api/errors.js';
import { t } from '../i18n/index.js';

/** What a screen shows when its data could not be loaded: the reason and a retry. */
export function LoadFailed({ error, onRetry, py = 64 }: { error: unknown; onRetry(): void; py?: number | string }) {
  return (
    <Stack align="center" py={py} gap="sm" ta="center" role="alert">
      <Text c="dimmed">{errorText(error)}</Text>
      <Button variant="light" onClick={onRetry}>
        {t.routeError.reload}
      </Button>
    </Stack>
  );
}
