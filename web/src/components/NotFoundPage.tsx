import { Link } from 'react-router';
import { Button, Stack, Text, Title } from '@mantine/core';
import { IconMoodSad } from '@tabler/icons-react';
import { t } from '../i18n/index.js';

/** Any path the app does not know, and every screen not built yet. */
export function NotFoundPage({ home = '/' }: { home?: string }) {
  return (
    <Stack align="center" justify="center" gap="sm" py={64} px="md" ta="center" data-testid="not-found">
      <IconMoodSad size={72} stroke={1.2} color="var(--mantine-color-dimmed)" aria-hidden />
      <Title order={1} size="h3" fw={500}>
        {t.notFound.title}
      </Title>
      <Text c="dimmed" fw={700}>
        {t.notFound.code}
      </Text>
      <Button component={Link} to={home} variant="light" mt="sm" w={200}>
        {t.notFound.back}
      </Button>
    </Stack>
  );
}
