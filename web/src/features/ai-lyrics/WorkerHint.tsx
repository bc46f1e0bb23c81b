/**
 * Shown in the AI centre when tasks wait and no worker called recently: admins get the command that
 * starts one (`kikoplay worker --server <this origin> --token <token>`) with a button that makes a
 * fresh worker token; everyone else reads that an admin has to start one.
 */
import { useState } from 'react';
import { Alert, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { IconCheck, IconCopy, IconKey, IconRobotOff } from '@tabler/icons-react';
import { formatDateTime } from '../../i18n/format.js';
import { t } from '../../i18n/index.js';
import { createWorkerToken, type AiTaskPage } from './api.js';

const W = t.aiCentre.workerHint;

/** The command line that starts a worker for this server. */
export const workerCommand = (origin: string, token: string): string => `kikoplay worker --server ${origin} --token ${token}`;

export function WorkerHint({ workers, admin }: { workers: NonNullable<AiTaskPage['workers']>; admin: boolean }) {
  const [token, setToken] = useState<string | null>(null);
  const make = useMutation({ mutationFn: createWorkerToken, onSuccess: (made) => setToken(made.token) });
  // once a token is made the command stays in view until the page is left, even after a worker starts
  if (token === null && (workers.active || workers.waiting === 0)) return null;

  if (!admin) {
    return (
      <Alert color="yellow" variant="light" icon={<IconRobotOff size={18} />} data-testid="ai-worker-hint">
        {W.askAdmin}
      </Alert>
    );
  }
  const command = token ? workerCommand(window.location.origin, token) : null;
  return (
    <Alert color="yellow" variant="light" icon={<IconRobotOff size={18} />} title={W.title} data-testid="ai-worker-hint">
      <Stack gap="xs">
        {workers.waiting > 0 && <Text size="sm">{W.waiting(workers.waiting)}</Text>}
        {workers.lastSeenAt !== undefined && (
          <Text size="sm" data-testid="ai-worker-last-seen">
            {workers.lastSeenAt ? W.lastSeen(formatDateTime(workers.lastSeenAt)) : W.neverSeen}
          </Text>
        )}
        <Text size="sm">{W.howTo}</Text>
        {command ? (
          <>
            <Group gap="xs" wrap="nowrap" align="flex-start">
              <Code block style={{ flex: 1, minWidth: 0, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }} data-testid="ai-worker-command">
                {command}
              </Code>
              <CopyButton value={command}>
                {({ copied, copy }) => (
                  <Button size="xs" variant="light" onClick={copy} leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />} data-testid="ai-worker-copy">
                    {copied ? W.copied : W.copy}
                  </Button>
                )}
              </CopyButton>
            </Group>
            <Text size="xs">{W.tokenOnce}</Text>
          </>
        ) : (
          <Group>
            <Button size="xs" leftSection={<IconKey size={14} />} onClick={() => make.mutate()} loading={make.isPending} data-testid="ai-worker-make-token">
              {W.makeToken}
            </Button>
          </Group>
        )}
      </Stack>
    </Alert>
  );
}
