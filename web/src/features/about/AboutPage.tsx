/**
 * /about: what kikoplay is, its versions (server from /api/version, web from the build),
 * how it is installed and run, and the kikoeru clients that work with it, by name.
 */
import type { ReactNode } from 'react';
import { Badge, Code, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import { IconHeadphones } from '@tabler/icons-react';
import { useVersion } from '../../app/use-version.js';
import { t } from '../../i18n/index.js';

/** Shell commands, typed the same in every language (the package is not on npm yet: a clone runs it). */
const RUN_FROM_CLONE = ['npm ci', 'npm run build', 'npm run serve'].join('\n');
const INSTALL_GLOBAL = ['npm install -g .', 'kikoplay serve'].join('\n');

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
      <Stack gap="sm">
        <Title order={2} size="h4">
          {title}
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}

export function AboutPage() {
  const version = useVersion();
  const server = version.data?.current ?? (version.isPending ? '…' : t.about.unknownVersion);

  return (
    <Stack gap="md" maw={760} mx="auto" data-testid="about-page">
      <Group gap="sm" wrap="nowrap" align="center">
        <IconHeadphones size={40} stroke={1.5} color="var(--mantine-primary-color-filled)" aria-hidden />
        <Title order={1} size="h2">
          {t.about.title}
        </Title>
      </Group>
      <Text>{t.about.intro}</Text>
      <Group gap="xs">
        <Badge variant="light" size="lg" tt="none" data-testid="server-version">
          {t.about.serverVersion} {server}
        </Badge>
        <Badge variant="light" color="gray" size="lg" tt="none">
          {t.about.webVersion} {__APP_VERSION__}
        </Badge>
      </Group>

      <Section title={t.about.installTitle}>
        <Text size="sm">{t.about.install}</Text>
        <Code block data-testid="install-commands">
          {RUN_FROM_CLONE}
        </Code>
        <Text size="sm">{t.about.installGlobal}</Text>
        <Code block>{INSTALL_GLOBAL}</Code>
        <Text size="sm" c="dimmed">
          {t.about.installNote}
        </Text>
      </Section>

      <Section title={t.about.adminTitle}>
        <Text size="sm">{t.about.admin}</Text>
        <Code block>{['kikoplay scan', 'kikoplay user add <name> --role user', 'kikoplay config get'].join('\n')}</Code>
      </Section>

      <Section title={t.about.clientsTitle}>
        <Text size="sm">{t.about.clients}</Text>
        <List spacing={4} size="sm">
          {t.about.clientList.map((client) => (
            <List.Item key={client.name}>
              <Text span fw={600}>
                {client.name}
              </Text>
              <Text span c="dimmed">
                {' '}
                — {client.note}
              </Text>
            </List.Item>
          ))}
        </List>
      </Section>

      <Text size="xs" c="dimmed" ta="center">
        {t.app.name} · {t.about.licence}
      </Text>
    </Stack>
  );
}
