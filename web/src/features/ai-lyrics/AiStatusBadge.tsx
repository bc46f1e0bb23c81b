/** The badge of an AI lyric status. */
import { Badge, type BadgeProps } from '@mantine/core';
import type { AiStatusName } from '../../../../server/domain/ai-status.js';
import { t } from '../../i18n/index.js';

export const AI_STATUS_COLOR: Record<AiStatusName, string> = {
  none: 'gray',
  pending: 'yellow',
  transcribing: 'blue',
  success: 'teal',
  error: 'red',
};

export function AiStatusBadge({ status, ...props }: { status: AiStatusName } & Omit<BadgeProps, 'color' | 'children'>) {
  return (
    <Badge color={AI_STATUS_COLOR[status]} variant="light" data-ai-status={status} {...props}>
      {t.aiCentre.statuses[status]}
    </Badge>
  );
}
