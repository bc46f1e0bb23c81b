/**
 * The folder browser of the first-run panel: the directories the server can read (GET
 * /api/config/browse, admin only), one level at a time — open a folder, go up, or use the one shown.
 */
import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ActionIcon, Alert, Button, Center, Group, Loader, Paper, ScrollArea, Stack, Text } from '@mantine/core';
import { IconArrowUp, IconFolder } from '@tabler/icons-react';
import { HoverTip } from '../../components/HoverTip.js';
import { errorText } from '../../api/errors.js';
import { t } from '../../i18n/index.js';
import { browseFolders } from '../admin/api.js';

export function FolderBrowser({ onChoose }: { onChoose(path: string): void }) {
  const M = t.firstRun;
  // the folders shown before, so a folder that cannot be opened leads back
  const [trail, setTrail] = useState<(string | null)[]>([null]);
  const at = trail[trail.length - 1];
  const query = useQuery({
    queryKey: ['admin', 'browse', at],
    queryFn: ({ signal }) => browseFolders(at, signal),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
    retry: false,
    meta: { silent: true },
  });
  const go = (path: string) => setTrail((x) => [...x, path]);
  const data = query.isError ? undefined : query.data;
  const up = () => {
    if (query.isError || !data?.parent) setTrail((x) => (x.length > 1 ? x.slice(0, -1) : x));
    else go(data.parent);
  };
  const canGoUp = query.isError ? trail.length > 1 : Boolean(data?.parent);

  return (
    <Paper withBorder radius="md" p="xs" data-testid="folder-browser" aria-label={M.browserLabel} component="section">
      <Stack gap="xs">
        <Group gap="xs" wrap="nowrap">
          <HoverTip label={M.up}>
            <ActionIcon variant="light" size="lg" onClick={up} disabled={!canGoUp} aria-label={M.up} data-testid="browse-up">
              <IconArrowUp size={18} />
            </ActionIcon>
          </HoverTip>
          <Text size="sm" ff="monospace" style={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }} data-testid="browse-path">
            {data?.path ?? at ?? ''}
          </Text>
        </Group>
        {query.isError ? (
          <Alert color="red" variant="light" data-testid="browse-error">
            {errorText(query.error)}
          </Alert>
        ) : !data ? (
          <Center py="md">
            <Loader size="sm" type="dots" />
          </Center>
        ) : (
          <ScrollArea.Autosize mah={260} type="auto" offsetScrollbars>
            {data.dirs.length === 0 ? (
              <Text size="sm" c="dimmed" py="xs" px={4}>
                {M.noDirs}
              </Text>
            ) : (
              <Stack gap={0} data-testid="browse-dirs">
                {data.dirs.map((d) => (
                  <Button
                    key={d.path}
                    variant="subtle"
                    color="gray"
                    fullWidth
                    justify="flex-start"
                    size="compact-sm"
                    fw={400}
                    leftSection={<IconFolder size={16} color="var(--mantine-color-yellow-filled)" aria-hidden />}
                    onClick={() => go(d.path)}
                  >
                    {d.name}
                  </Button>
                ))}
              </Stack>
            )}
            {data.truncated && (
              <Text size="xs" c="dimmed" pt={4}>
                {M.truncated(data.dirs.length)}
              </Text>
            )}
          </ScrollArea.Autosize>
        )}
        <Button variant="light" size="xs" onClick={() => data && onChoose(data.path)} disabled={!data || query.isFetching} style={{ alignSelf: 'flex-start' }} data-testid="browse-choose">
          {M.choose}
        </Button>
      </Stack>
    </Paper>
  );
}
